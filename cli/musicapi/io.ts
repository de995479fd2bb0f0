/**
 * What every `musicapi` command shares: exit codes, the streams, the usage error and the common
 * error handling of an action. Loaded at start-up, so it imports only the client's error types.
 */
import type { Command } from "commander";
import { MusicApiError } from "../../src/errors.js";
import type { CommandModule } from "../command.js";

/** Exit codes: 0 done, 1 the operation failed, 2 the command line was wrong. */
export const ExitCode = { OK: 0, FAILED: 1, USAGE: 2 } as const;

/** A mistake on the command line (unknown method, options that are not JSON): exit code 2. */
export class UsageError extends Error {}

/** Streams a command writes to; tests and embedding callers may replace them. */
export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** What each action is handed: the streams, and its own command (for `--debug` and the options). */
export interface MusicapiContext {
  io: CliIo;
  command: Command;
}

/** A `musicapi` command (commands.ts lists them). */
export type MusicapiCommand = CommandModule<MusicapiContext>;

/**
 * Runs a command's body: a MusicApiError becomes one line `error CODE: message` on stderr and exit
 * code 1, a UsageError exit code 2; the stack trace only with `--debug`.
 */
export async function runAction({ io, command }: MusicapiContext, body: () => Promise<void>) {
  try {
    await body();
  } catch (error) {
    const debug = Boolean(command.optsWithGlobals().debug);
    if (error instanceof UsageError) {
      io.stderr.write(`error: ${error.message}\n`);
      process.exitCode = ExitCode.USAGE;
    } else if (error instanceof MusicApiError) {
      io.stderr.write(`error ${error.code}: ${error.message}\n`);
      process.exitCode = ExitCode.FAILED;
    } else {
      io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = ExitCode.FAILED;
    }
    if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  }
}
