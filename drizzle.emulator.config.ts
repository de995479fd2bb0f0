import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./emulator/store/schema.ts",
  out: "./migrations/emulator",
});
