import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./engine/state/pg/schema.ts",
  out: "./migrations/engine-pg",
});
