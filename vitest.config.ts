import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Only the test folder: a built copy in dist/ must never run twice.
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
