#!/usr/bin/env node
/**
 * The `musicapi` command: credential set-up (`browser`, `oauth`), `call`, which runs one client
 * method and prints its result as JSON, `methods` and `emulator` — the commands commands.ts lists.
 *
 * What a command needs (the client, undici, the OAuth flow, the emulator) is imported when it runs,
 * so that `--help`, `--version` and the other commands start without it.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Command, CommanderError } from "commander";
import { stopQuietlyWhenPipeCloses } from "../closed-pipe.js";
import { addCommands } from "../command.js";
import { cacheCompiledCode } from "../compile-cache.js";
import { unsupportedNode } from "../node-support.js";
import { oneLineUsageErrors } from "../usage-errors.js";
import { packageVersion } from "../version.js";
import { COMMANDS } from "./commands.js";
import { type CliIo, ExitCode } from "./io.js";

const processIo: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };

/** The whole `musicapi` command tree, ready for `parseAsync`. */
export function program(io: CliIo = processIo): Command {
  const root = new Command("musicapi")
    .description("YouTube Music web API client: credential set-up and one-off calls")
    .version(packageVersion(), "-V, --version", "print the version")
    .option("--debug", "print stack traces and debug logs");
  addCommands(root, COMMANDS, (command) => ({ io, command }));
  oneLineUsageErrors(root);
  // Commander's own usage errors (unknown option, missing argument) should exit 2 like ours.
  root.exitOverride();
  for (const command of root.commands) command.exitOverride();
  return root;
}

export async function main(argv: readonly string[] = process.argv): Promise<void> {
  try {
    await program().parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
      return;
    }
    throw error;
  }
}

/** Whether this module is the script being run (directly, through tsx, or through the bin link). */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

const tooOld = isEntryPoint() ? unsupportedNode("musicapi") : null;
if (tooOld !== null) {
  process.stderr.write(`error: ${tooOld}\n`);
  process.exitCode = ExitCode.FAILED;
} else if (isEntryPoint()) {
  cacheCompiledCode();
  stopQuietlyWhenPipeCloses(process.stdout, process.exit);
  // Not awaited (the bundled command is CommonJS, without top-level await): an error main() lets
  // through still ends the process as an uncaught one, with its stack and exit code 1.
  void main();
}
