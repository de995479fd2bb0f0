/**
 * Logs through pino on stderr (stdout carries plans and results): JSON lines for machines, or
 * pino-pretty's readable lines when a person watches a terminal, so a command's text output never
 * has JSON mixed into it. Every field that can hold a credential is redacted wherever it appears,
 * and every line is scrubbed of the credentials of the engine's clients before it is written, so
 * messages never include one.
 */
import { createRequire } from "node:module";
import type { pino as Pino } from "pino";
import type { PrettyOptions } from "pino-pretty";
import { scrubLogLine } from "../output/scrub.js";

export interface EngineLogger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  child(bindings: object): EngineLogger;
}

const SECRET_FIELDS = [
  "auth",
  "cookie",
  "authorization",
  "token",
  "access_token",
  "refresh_token",
  "client_secret",
  "sapisid",
  "SAPISID",
  "x-goog-authuser",
];

/** Redaction paths: each secret field at the top level, one and two levels down. */
export const REDACT_PATHS = SECRET_FIELDS.flatMap((f) => [
  `["${f}"]`,
  `*["${f}"]`,
  `*.*["${f}"]`,
  `headers["${f}"]`,
]);

/**
 * The field paths above catch named fields; this catches a credential (or a piece of one, in any
 * spelling) in any field or message, whatever path it took (docs/ENGINE.md#credentials). Every engine logger
 * (the daemon's too) writes through it.
 */
export const SCRUB_HOOKS = { streamWrite: (line: string) => scrubLogLine(line) };

export interface LogFormat {
  /** Readable lines instead of JSON (for a terminal). */
  pretty?: boolean;
  color?: boolean;
}

export function createLogger(
  level: string,
  destination: NodeJS.WritableStream | number = 2,
  format: LogFormat = {},
): EngineLogger {
  const make = () => pinoLogger(level, destination, format);
  // A level pino does not know is refused here, by pino itself, as it was when pino came first.
  if (!(level in LEVELS)) return make();
  let root: EngineLogger | undefined;
  return deferred(LEVELS[level]!, () => {
    root ??= make();
    return root;
  });
}

/**
 * pino's levels. Most one-shot runs write no line at their level (warn unless --debug), so pino and
 * its two dozen files are loaded by the first line that is written, not by every command: a call
 * below the level is dropped here, as pino would drop it.
 */
const LEVELS: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

/** A logger that makes its pino logger (`real`) when a line at `threshold` or above is written. */
function deferred(threshold: number, real: () => EngineLogger): EngineLogger {
  const at =
    (n: number, name: "debug" | "info" | "warn" | "error") =>
    (fields: object, message?: string): void => {
      if (n >= threshold) real()[name](fields, message);
    };
  return {
    debug: at(LEVELS.debug!, "debug"),
    info: at(LEVELS.info!, "info"),
    warn: at(LEVELS.warn!, "warn"),
    error: at(LEVELS.error!, "error"),
    // Each child's bindings go on a child of the parent's pino logger, made when the child first writes.
    child: (bindings) => {
      let made: EngineLogger | undefined;
      return deferred(threshold, () => {
        made ??= real().child(bindings);
        return made;
      });
    },
  };
}

function pinoLogger(
  level: string,
  destination: NodeJS.WritableStream | number,
  format: LogFormat,
): EngineLogger {
  const { pino } = createRequire(import.meta.url)("pino") as { pino: typeof Pino };
  const stream = format.pretty
    ? prettyStream(destination, format.color === true)
    : typeof destination === "number"
      ? pino.destination({ fd: destination, sync: true })
      : destination;
  return pino(
    {
      level,
      base: null,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      hooks: SCRUB_HOOKS,
    },
    stream,
  );
}

/** pino-pretty, loaded only when a terminal asks for it (it is not small, and most runs are piped). */
function prettyStream(destination: NodeJS.WritableStream | number, colorize: boolean): NodeJS.WritableStream {
  const pretty = createRequire(import.meta.url)("pino-pretty") as (o: PrettyOptions) => NodeJS.WritableStream;
  return pretty({
    colorize,
    sync: true,
    translateTime: "SYS:HH:MM:ss",
    destination: destination as NodeJS.WritableStream,
  });
}
