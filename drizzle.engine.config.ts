import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./engine/state/schema.ts",
  out: "./migrations/engine",
});
