import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Files that share one module graph per worker (`isolate: false`): a fresh worker per file imports
 * the engine, the client and the emulator again (about a second each on a CI runner, a fifth of the
 * suite's summed time), and in a shared worker the next file finds them loaded. A file here
 * leaves nothing behind for the next one: no module mock, no fake clock, no variable of the
 * environment, no spy left on (restored in `finally`), no process-wide listener it keeps, and no
 * hook registered at the top of a support module (it would run for the first file that loads the
 * module only). What it may leave are caches a later file would fill alike (the emulator's copies
 * of generated catalogues, emulator/index.ts).
 *
 * Every other file gets a worker of its own:
 * - a file that imports test/support/daemon-harness.ts (it lifts the once-a-minute schedule rule for
 *   its whole process, and its daemons and `serve` turn the metrics registry on for good);
 * - a file whose tests run five seconds or more on a CI runner (soaks, commands, PostgreSQL outages):
 *   there an import is a sliver of the time, and a long file in a shared worker would have to be
 *   proven to leave nothing behind, for little gain (the emulator's files, in-process, all share).
 * A new file starts there too: it moves here once it is shown to leave nothing behind.
 */
const SHARED = [
  "test/src/**/*.test.ts",
  "test/engine/match/**/*.test.ts",
  "test/architecture/*.test.ts",
  "test/bench/*.test.ts",
  "test/cli/*.test.ts",
  "test/cli/musicapi/*.test.ts",
  "test/cli/musicsync/{doctor,import,init,spotify-liked-run,state-setting,undo}.test.ts",
  "test/emulator/**/*.test.ts",
  "test/engine/accounts/recipe-accounts.test.ts",
  "test/engine/apply/{faults,pacer,retried-batch}.test.ts",
  "test/engine/files/*.test.ts",
  "test/engine/notify/{close,units}.test.ts",
  "test/engine/output/*.test.ts",
  "test/engine/pipeline/*.test.ts",
  "test/engine/plan/{approval,end-to-end,overflow,plan}.test.ts",
  "test/engine/postgres/*.test.ts",
  "test/engine/promises/plan.test.ts",
  "test/engine/recipe/{deferred-settings,load,service-sources,structure-scan,suggest}.test.ts",
  "test/engine/render/render.test.ts",
  "test/engine/run/{commits,embedded-emulator,logger,modes,reconcile,scrubbing-state,second-read,spotify-token}.test.ts",
  "test/engine/services/*.test.ts",
  "test/engine/sources/{client-compat,file-source-paths,premium-charts,service-ref,service-source,service-sources-run,sources,spotify-library-run}.test.ts",
  "test/engine/state/{deferred,health-writes,open,pg-stores-health,prepared,processes,state,undo-approvals}.test.ts",
  "test/engine/targets/*.test.ts",
  "test/engine/undo/{fates,items}.test.ts",
  "test/engine/web/{guards,pages}.test.ts",
  "test/package/undici-for-commands.test.ts",
  "test/readme/{design-docs,links,markdown,recipe-repo,shell-session}.test.ts",
  "test/shared/**/*.test.ts",
  "test/soak/{fleet,model,pg-faults,surfaces}.test.ts",
  "test/support/{harness-fetch,together,window-filter}.test.ts",
];

export default defineConfig({
  test: {
    globalSetup: ["test/global-setup.ts"],
    // Files at once: as many as there are cores. Most files spend their time waiting on what they
    // started (servers, commands, timers), and vitest's default (cores − 1) ran one file at a time
    // on two cores. VITEST_MAX_WORKERS overrides it: .ci/run gives each of its side-by-side suites
    // its share.
    maxWorkers: availableParallelism(),
    // A budget for a hang, not a speed check (bench/ measures speed): on a loaded machine (a CI
    // runner shared with other jobs) a test that takes 4 s alone took over 20 s. Each file stretches
    // these by the machine's load as it starts (test/support/time-limits.ts).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    setupFiles: ["test/support/time-limits.ts"],
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
