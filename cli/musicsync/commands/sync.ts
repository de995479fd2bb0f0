/**
 * The recipes' own commands: `validate`, `plan`, `apply`, `sync`, `unlock` and `demo`. Each action
 * loads its module when it runs.
 */
import { Option } from "commander";
import type { CommandRun, MusicsyncCommand } from "../io.js";
import type { PlanOptions, SyncOptions } from "../plan.js";

/** `plan` and `sync` share these two, with one meaning. */
const QUIET = "only the recipes with changes or failures";
const VERBOSE = "list every item: each one skipped (else one line per reason) and the rows kept";

export const validate: MusicsyncCommand = {
  name: "validate",
  description: "check recipes: schema, then semantic checks; errors as file:line:col message",
  arguments: [["[paths...]", "recipe files or folders (default: the project's recipes)"]],
  action: async (run: CommandRun, paths: string[]) => {
    await (await import("../validate.js")).validate(run, paths);
  },
};

export const plan: MusicsyncCommand = {
  name: "plan",
  description: "read sources and targets, write nothing, print the plan",
  options: [
    ["-r, --recipe <id...>", "only these recipes"],
    ["-o, --out <file>", "also save the plan as JSON for `apply`"],
    ["-q, --quiet", QUIET],
    ["-v, --verbose", VERBOSE],
    new Option("--markdown", "print the plan as Markdown").conflicts("json"),
  ],
  action: async (run: CommandRun, o: PlanOptions) => {
    await (await import("../plan.js")).plan(run, o);
  },
};

export const apply: MusicsyncCommand = {
  name: "apply",
  description: "apply a saved plan exactly; refused when a target changed since it was planned",
  arguments: [["<plan>", "a plan saved with `plan -o`"]],
  options: [["--approve", "also apply plans over policy.require_approval (else held, exit 5)"]],
  action: async (run: CommandRun, file: string, o: { approve?: boolean }) => {
    await (await import("../plan.js")).apply(run, file, o);
  },
};

export const sync: MusicsyncCommand = {
  name: "sync",
  description: "plan and apply in one go",
  options: [
    ["-r, --recipe <id...>", "only these recipes"],
    ["--dry-run", "plan only: write nothing"],
    ["--approve", "also apply plans over policy.require_approval (else held, exit 5)"],
    ["-q, --quiet", QUIET],
    ["-v, --verbose", VERBOSE],
    [
      "--lock-wait <duration>",
      "wait up to this long (e.g. 30s, 5m) for an account another process is syncing, then say who holds it",
    ],
  ],
  action: async (run: CommandRun, o: SyncOptions) => {
    await (await import("../plan.js")).sync(run, o);
  },
};

export const unlock: MusicsyncCommand = {
  name: "unlock",
  description: "remove a stale account lock (refused while its holder is alive, unless --force)",
  arguments: [["<lock-id>"]],
  options: [["--force", "remove it even though its holder looks alive (two writers may then collide)"]],
  action: async (run: CommandRun, lockId: string, o: { force?: boolean }) => {
    await (await import("../unlock.js")).unlock(run, lockId, o.force === true);
  },
};

export const demo: MusicsyncCommand = {
  name: "demo",
  description: "sync the shipped recipes against an embedded emulator (no account needed)",
  options: [
    ["--catalogue-size <n>", "songs in the generated catalogue", "400"],
    ["--seed <n>", "catalogue seed", "1"],
  ],
  action: async (run: CommandRun, o: { catalogueSize: string; seed: string }) => {
    await (await import("../demo.js")).demo(run, o);
  },
};
