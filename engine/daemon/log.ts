/**
 * The daemon's log: pino JSON lines on stderr (for journald and log shippers), or pino-pretty's
 * readable lines when stderr is a terminal. The redaction is the engine's (`REDACT_PATHS` and the
 * scrubbing of every line), so a credential is censored in either form.
 */
import { pino } from "pino";
import pretty from "pino-pretty";
import { type EngineLogger, REDACT_PATHS, SCRUB_HOOKS } from "../run/logger.js";

export interface DaemonLogOptions {
  level: string;
  /** `json` always, `pretty` always, or `auto`: pretty on a terminal. */
  format: "json" | "pretty" | "auto";
  /** Where to write (default: stderr, fd 2). */
  destination?: NodeJS.WritableStream;
  isTTY?: boolean;
}

export function createDaemonLogger(options: DaemonLogOptions): EngineLogger {
  const base = {
    level: options.level,
    base: { pid: process.pid },
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    hooks: SCRUB_HOOKS,
  };
  const tty = options.isTTY ?? process.stderr.isTTY === true;
  const usePretty = options.format === "pretty" || (options.format === "auto" && tty);
  if (usePretty) {
    return pino(
      base,
      pretty({
        colorize: tty,
        sync: true,
        translateTime: "SYS:yyyy-mm-dd HH:MM:ss",
        ignore: "pid",
        destination: options.destination ?? 2,
      }),
    );
  }
  return pino(base, options.destination ?? pino.destination({ fd: 2, sync: true }));
}
