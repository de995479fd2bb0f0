import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Only the test folder: a built copy in dist/ must never run twice.
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // A budget for a hang, not a speed check (bench/ measures speed): on a loaded machine (a CI
    // runner shared with other jobs) a test that takes 4 s alone took over 20 s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
