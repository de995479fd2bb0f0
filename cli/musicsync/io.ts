/**
 * What every musicsync command shares and nothing heavy: exit codes, the streams it writes to, the
 * one-line error type and the global options. `main.ts` loads this at start-up, so it imports no
 * package (the commands load theirs when they run).
 */
import type { Command } from "commander";
import type { CommandModule } from "../command.js";

/** HELD: a plan over `policy.require_approval` was held for `musicsync approve`, nothing written. */
export const Exit = { OK: 0, ERROR: 1, CHANGES: 2, PARTIAL: 3, LOCKED: 4, HELD: 5 } as const;

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Where a command that asks reads the answers (default: process.stdin); tests give their own. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

/**
 * Whether a recipe's failure, said in the report on stdout, is said again on stderr: yes unless
 * both streams are a terminal (where it would show twice). A script that keeps only stderr
 * (`musicsync sync > /dev/null`, a cron job mailing errors) still gets each failure's reason.
 */
export function failuresAlsoOnStderr(io: CliIo): boolean {
  return !(io.stdout.isTTY === true && io.stderr.isTTY === true);
}

/** An error the user can act on: printed as one line, with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = Exit.ERROR,
  ) {
    super(message);
  }
}

export interface GlobalOptions {
  project: string;
  state?: string;
  json?: boolean;
  debug?: boolean;
}

/** What a command's action is handed: the streams, the exit code's setter and the global options. */
export interface CommandRun {
  io: CliIo;
  g: GlobalOptions;
  setExit(code: number): void;
}

export function globalsOf(c: Command): GlobalOptions {
  return c.optsWithGlobals() as GlobalOptions;
}

export function logLevel(io: CliIo, g: GlobalOptions): string {
  return io.env.MUSICSYNC_LOG_LEVEL ?? (g.debug ? "debug" : "warn");
}

/** A `musicsync` command: its action is handed the command's run (commands/index.ts lists them). */
export type MusicsyncCommand = CommandModule<CommandRun>;
