#!/usr/bin/env node
/**
 * The `musicsync` command: validate, plan, apply, sync, unlock, demo, init, doctor (and daemon,
 * status, history, drift, resume from engine/daemon/commands.ts). Exit codes as ENGINE.md gives
 * them: 0 no changes / converged, 1 error (before any write), 2 changes pending (plan), 3 partial,
 * 4 locked or credentials expired, 5 held for approval, 130 stopped by Ctrl-C (143 by SIGTERM).
 * Errors are one line each; `--debug` adds the stack.
 *
 * Start-up loads only commander and this folder's light modules: each action imports what its
 * command needs when it runs (bench/startup.ts measures it), so `--help` or `validate` never pays
 * for the emulator, the HTTP client, SQLite or the logger.
 */
import { realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, CommanderError, Option } from "commander";
import { scrubbingStream } from "../../engine/run/scrub.js";
import { stopQuietlyWhenPipeCloses } from "../closed-pipe.js";
import { unsupportedNode } from "../node-support.js";
import { oneLineUsageErrors } from "../usage-errors.js";
import { packageVersion } from "../version.js";
import { registerAccounts } from "./commands/accounts.js";
import { registerDaemonCommands } from "./commands/daemon.js";
import { registerFileCommands } from "./commands/files.js";
import { registerUndo } from "./commands/undo.js";
import { registerWorkerCommands } from "./commands/worker.js";
import { registerDoctor } from "./doctor.js";
import { registerInit } from "./init.js";
import { CliError, type CliIo, type CommandRun, Exit, globalsOf } from "./io.js";
import type { PlanOptions, SyncOptions } from "./plan.js";

export { CliError, type CliIo, Exit } from "./io.js";

/** `plan` and `sync` share these two, with one meaning. */
const QUIET = "only the recipes with changes or failures";
const VERBOSE = "list every item: each one skipped (else one line per reason) and the rows kept";

/** `-p` may name a folder: the project file is then the `musicsync.yaml` inside it. */
function projectInFolder(root: Command): void {
  const given = root.opts().project as string;
  try {
    if (statSync(given).isDirectory()) root.setOptionValue("project", join(given, "musicsync.yaml"));
  } catch {
    // missing: the command reports it as it reads the file
  }
}

function root(io: CliIo): Command {
  return new Command("musicsync")
    .description("Keep playlists, likes, library and subscriptions as YAML recipes say")
    .option("-p, --project <file>", "the project file, or a folder holding musicsync.yaml", "musicsync.yaml")
    .option("--state <file>", "the state database (default: the project's `state`)")
    .option("--json", "machine-readable output on stdout")
    .option("--debug", "stack traces and debug logs")
    .option("-V, --version", "print the version")
    .on("option:version", () => {
      io.stdout.write(`${packageVersion()}\n`);
      throw new CommanderError(0, "commander.version", packageVersion());
    })
    .hook("preAction", (r) => projectInFolder(r))
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .exitOverride();
}

export function program(io: CliIo, setExit: (code: number) => void): Command {
  const cmd = root(io);
  const run = (c: Command): CommandRun => ({ io, g: globalsOf(c), setExit });

  cmd
    .command("validate")
    .description("check recipes: schema, then semantic checks; errors as file:line:col message")
    .argument("[paths...]", "recipe files or folders (default: the project's recipes)")
    .action(async (paths: string[], _o: unknown, c: Command) => {
      await (await import("./validate.js")).validate(run(c), paths);
    });

  cmd
    .command("plan")
    .description("read sources and targets, write nothing, print the plan")
    .option("-r, --recipe <id...>", "only these recipes")
    .option("-o, --out <file>", "also save the plan as JSON for `apply`")
    .option("-q, --quiet", QUIET)
    .option("-v, --verbose", VERBOSE)
    .addOption(new Option("--markdown", "print the plan as Markdown").conflicts("json"))
    .action(async (o: PlanOptions, c: Command) => {
      await (await import("./plan.js")).plan(run(c), o);
    });

  cmd
    .command("apply")
    .description("apply a saved plan exactly; refused when a target changed since it was planned")
    .argument("<plan>", "a plan saved with `plan -o`")
    .option("--approve", "also apply plans over policy.require_approval (else held, exit 5)")
    .action(async (file: string, o: { approve?: boolean }, c: Command) => {
      await (await import("./plan.js")).apply(run(c), file, o);
    });

  cmd
    .command("sync")
    .description("plan and apply in one go")
    .option("-r, --recipe <id...>", "only these recipes")
    .option("--dry-run", "plan only: write nothing")
    .option("--approve", "also apply plans over policy.require_approval (else held, exit 5)")
    .option("-q, --quiet", QUIET)
    .option("-v, --verbose", VERBOSE)
    .option(
      "--lock-wait <duration>",
      "wait up to this long (e.g. 30s, 5m) for an account another process is syncing, then say who holds it",
    )
    .action(async (o: SyncOptions, c: Command) => {
      await (await import("./plan.js")).sync(run(c), o);
    });

  cmd
    .command("unlock")
    .description("remove a stale account lock (refused while its holder is alive, unless --force)")
    .argument("<lock-id>")
    .option("--force", "remove it even though its holder looks alive (two writers may then collide)")
    .action(async (lockId: string, o: { force?: boolean }, c: Command) => {
      await (await import("./unlock.js")).unlock(run(c), lockId, o.force === true);
    });

  cmd
    .command("demo")
    .description("sync the shipped recipes against an embedded emulator (no account needed)")
    .option("--catalogue-size <n>", "songs in the generated catalogue", "400")
    .option("--seed <n>", "catalogue seed", "1")
    .action(async (o: { catalogueSize: string; seed: string }, c: Command) => {
      await (await import("./demo.js")).demo(run(c), o);
    });

  registerFileCommands(cmd, run);
  registerUndo(cmd, run);
  registerAccounts(cmd, run);
  registerInit(cmd, io);
  registerDoctor(cmd, io);
  // daemon, status, history, drift, resume: engine/daemon/commands.ts
  registerDaemonCommands(cmd, { io, setExit });
  // worker, enqueue: engine/worker/commands.ts
  registerWorkerCommands(cmd, { io, setExit });
  oneLineUsageErrors(cmd);
  return cmd;
}

/** The exit code of an error that got out of a command (the runner's lock error is known by name). */
function exitOfError(e: unknown): number {
  if (e instanceof CliError) return e.exitCode;
  return e instanceof Error && e.name === "LockedError" ? Exit.LOCKED : Exit.ERROR;
}

/** Runs the command line; returns the exit code (never throws). */
export async function main(argv: readonly string[], given: CliIo): Promise<number> {
  // Whatever the command prints, no credential of the engine's clients gets out (issue 10 item 8).
  const io: CliIo = {
    ...given,
    stdout: scrubbingStream(given.stdout),
    stderr: scrubbingStream(given.stderr),
  };
  let code: number = Exit.OK;
  const cmd = program(io, (c) => {
    code = c;
  });
  try {
    await cmd.parseAsync([...argv], { from: "user" });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? Exit.OK : Exit.ERROR;
    io.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    if (argv.includes("--debug") && e instanceof Error && e.stack) io.stderr.write(`${e.stack}\n`);
    return exitOfError(e);
  }
}

function isMain(): boolean {
  try {
    return (
      !!process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))
    );
  } catch {
    return false;
  }
}

const tooOld = isMain() ? unsupportedNode("musicsync") : null;
if (tooOld !== null) {
  process.stderr.write(`error: ${tooOld}\n`);
  process.exitCode = 1;
} else if (isMain()) {
  stopQuietlyWhenPipeCloses(process.stdout, process.exit);
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
    (code) => {
      process.exitCode = code;
    },
  );
}
