#!/usr/bin/env node
/**
 * The `musicsync` command: its global options, then the commands that commands/index.ts lists. Exit
 * codes as docs/ENGINE.md#outcomes-and-exit-codes gives them: 0 no changes / converged, 1 error
 * (before any write), 2 changes pending (plan), 3 partial, 4 locked or credentials expired, 5 held
 * for approval, 130 stopped by Ctrl-C (143 by SIGTERM).
 * Errors are one line each; `--debug` adds the stack.
 *
 * Start-up loads only commander and the command modules (commands/): each action imports what its
 * command needs when it runs (bench/startup.ts measures it), so `--help` or `validate` never pays
 * for the emulator, the HTTP client, SQLite or the logger.
 */
import { realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, CommanderError } from "commander";
import { scrubbingStream } from "../../engine/output/scrub.js";
import { stopQuietlyWhenPipeCloses } from "../closed-pipe.js";
import { addCommands } from "../command.js";
import { cacheCompiledCode } from "../compile-cache.js";
import { unsupportedNode } from "../node-support.js";
import { oneLineUsageErrors } from "../usage-errors.js";
import { packageVersion } from "../version.js";
import { COMMANDS } from "./commands/index.js";
import { CliError, type CliIo, type CommandRun, Exit, globalsOf } from "./io.js";

export { CliError, type CliIo, Exit } from "./io.js";

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
  addCommands(cmd, COMMANDS, (c): CommandRun => ({ io, g: globalsOf(c), setExit }));
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
  // Whatever the command prints, no credential of the engine's clients gets out (docs/ENGINE.md#credentials).
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
  cacheCompiledCode();
  stopQuietlyWhenPipeCloses(process.stdout, process.exit);
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
    (code) => {
      process.exitCode = code;
    },
  );
}
