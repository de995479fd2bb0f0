import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Files that share one module graph per worker (`isolate: false`): the client's tests and the
 * engine's match tests import much and leave nothing behind (no module mock, no fake clock left
 * on, no variable of the environment set on import), so a fresh worker per file cost them more in
 * imports than their tests took. Every other file gets a worker of its own: e.g. an import of
 * test/support/daemon-harness.ts lifts the once-a-minute schedule rule for its whole process.
 */
const SHARED = ["test/src/**/*.test.ts", "test/engine/match/**/*.test.ts"];

export default defineConfig({
  test: {
    globalSetup: ["test/global-setup.ts"],
    // Files at once: as many as there are cores. Most files spend their time waiting on what they
    // started (servers, commands, timers), and vitest's default (cores − 1) ran one file at a time
    // on two cores. VITEST_MAX_WORKERS overrides it: .ci/run gives each of its side-by-side suites
    // its share.
    maxWorkers: availableParallelism(),
    // A budget for a hang, not a speed check (bench/ measures speed): on a loaded machine (a CI
    // runner shared with other jobs) a test that takes 4 s alone took over 20 s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: "shared", include: SHARED, isolate: false } },
      // Only the test folder: a built copy in dist/ must never run twice.
      {
        extends: true,
        test: {
          name: "isolated",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...SHARED],
        },
      },
    ],
  },
});
