/**
 * The engine's own net under the client's scrubbing (docs/ENGINE.md#credentials). The client already hands out
 * no credential; this makes sure the engine's outputs (logs, the state database, plan files,
 * stdout and stderr) hold none either, whatever path a piece of one took. It knows every client
 * the engine made (each scrubs its own credentials, in every spelling, and keeps up with OAuth
 * refreshes) and the raw values of the auth settings, including values no client could be made from.
 */
import { type PieceIndex, SHORTEST_SECRET } from "../../shared/piece-index.js";
import { PieceScreen } from "../../shared/piece-screen.js";
import { Redactor } from "../../shared/redact.js";

/** Anything that scrubs a value the way MusicClient.redact does. */
export type Scrub = <T>(value: T) => T;

/**
 * Knows every client and secret value for the life of the process: an output may come after the
 * environment that made the client is closed (the command's last error line), and must still be
 * scrubbed.
 */
export class CredentialScrubber {
  private readonly secrets = new Set<string>();
  /**
   * The secrets as a frozen list, made again only when one comes: every value scrubbed syncs the
   * index with it, and a frozen list it saw last is known unchanged at a glance (one per account's
   * credentials in a worker, which a compare would walk each time).
   */
  private listed: readonly string[] = Object.freeze([]);
  private readonly own = new Redactor(() => this.listed);
  private readonly clients = new Set<Scrub>();
  /** The clients' secret indexes (a MusicClient's): screened all at once with the own secrets. */
  private readonly indexes = new Set<() => PieceIndex>();
  /** Clients that gave no index: each searches a text itself. */
  private readonly unscreened = new Set<Scrub>();
  private readonly screen = new PieceScreen();

  /**
   * A client's `redact`, and the index of its secrets when it has one (`MusicClient.secretIndex`):
   * with it, a text is searched once for every client instead of once per client.
   */
  addClient(redact: Scrub, index?: () => PieceIndex): void {
    this.clients.add(redact);
    if (index) this.indexes.add(index);
    else this.unscreened.add(redact);
  }

  /** Raw secret values: an inline auth setting, an OAuth client secret. */
  addSecrets(values: readonly string[]): void {
    const before = this.secrets.size;
    for (const v of values) this.secrets.add(v);
    if (this.secrets.size !== before) this.listed = Object.freeze([...this.secrets]);
  }

  /** A JSON-like value (or text) with every known credential replaced by `[redacted]`. */
  value<T>(value: T): T {
    // One client per account: a worker that served hundreds would walk each value hundreds of
    // times. Most of what is scrubbed (the state's ids, times and counts) can hold nothing.
    if (!mayHoldSecret(value)) return value;
    // Plain data is written out once and that text searched (one sampled pass for every client
    // with an index), instead of each client walking the value; only a value in which something
    // is found is walked.
    const text = typeof value === "string" ? value : jsonText(value);
    if (text !== null && this.screened(text)) {
      if (typeof value !== "string") return this.unscreenedClean(text) ? value : this.walk(value);
      let out: T = value;
      for (const redact of this.unscreened) out = redact(out);
      return out;
    }
    return this.walk(value);
  }

  /** Every scrubber's walk of the value, one after the other. */
  private walk<T>(value: T): T {
    let out = this.own.value(value);
    for (const redact of this.clients) out = redact(out);
    return out;
  }

  /** Whether neither the own secrets nor any client with an index finds anything in `text`. */
  private screened(text: string): boolean {
    const indexes = [this.own.ready()];
    for (const index of this.indexes) indexes.push(index());
    return this.screen.clean(text, indexes);
  }

  /** Whether no client without an index finds anything in `text`. */
  private unscreenedClean(text: string): boolean {
    for (const redact of this.unscreened) if (redact(text) !== text) return false;
    return true;
  }

  text(value: string): string {
    return this.value(value);
  }
}

/** Plain objects and arrays are looked into this deep; deeper ones are left to the scrubbers. */
const LOOK_DEPTH = 8;

/**
 * Whether a value holds a text (or key) long enough to be or hold a credential. Every spelling of
 * a secret (shared/secret-forms.ts) is at least SHORTEST_SECRET characters, shorter values are no
 * secrets, and a piece is longer still: so numbers, booleans, nulls and short texts hold none.
 * Anything else than plain data (an Error, a Buffer, a Date…) counts as holding one: the scrubbers
 * decide.
 */
export function mayHoldSecret(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.length >= SHORTEST_SECRET;
  if (value === null || typeof value !== "object") return false;
  if (depth >= LOOK_DEPTH) return true;
  if (Array.isArray(value)) return value.some((v) => mayHoldSecret(v, depth + 1));
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return true;
  for (const [key, v] of Object.entries(value)) {
    if (key.length >= SHORTEST_SECRET || mayHoldSecret(v, depth + 1)) return true;
  }
  return false;
}

/** How deep `jsonText` looks; deeper values (or cycles) are walked by the scrubbers instead. */
const TEXT_DEPTH = 64;

/**
 * The JSON text of plain data (texts, numbers, booleans, nulls, undefined, plain objects and arrays), whose
 * every text and key it holds as written: a scrubber finds in it whatever it would find walking the
 * value. Null for anything else, and for texts holding a backslash: the scrubbers read an escape in
 * a text as the service would have sent it (a secret escaped twice), which the text's JSON spelling
 * (`\\`) would hide.
 */
export function jsonText(value: unknown): string | null {
  if (!plainData(value, 0)) return null;
  const text = JSON.stringify(value);
  return text.includes("\\\\") ? null : text;
}

function plainData(value: unknown, depth: number): boolean {
  // An undefined holds no text (JSON leaves it out, or writes null).
  const type = typeof value;
  if (value === null || type === "string" || type === "number" || type === "boolean" || type === "undefined")
    return true;
  if (typeof value !== "object" || depth >= TEXT_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const v of value) if (!plainData(v, depth + 1)) return false;
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) {
    if (!plainData((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/** The one scrubber of this process: loggers and outputs are shared by every environment in it. */
export const engineScrubber = new CredentialScrubber();

/**
 * The password of a state URL (`postgres://user:password@host/db`), as written and decoded, made
 * a secret of the scrubber: the state's own errors name only host:port/db, but a driver's message
 * or a person's debug line may quote the URL whole.
 */
export function learnStateUrl(url: string, scrubber: CredentialScrubber = engineScrubber): void {
  if (!/^postgres(?:ql)?:\/\//i.test(url)) return;
  let password: string;
  try {
    password = new URL(url).password;
  } catch {
    return;
  }
  if (password === "") return;
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // A malformed escape: the written form is the only one there is.
  }
  scrubber.addSecrets([password, decoded]);
}

/**
 * A pino log line, scrubbed. The parsed record is scrubbed and written again, so the line stays
 * JSON; only when that is not enough (a piece spanning two fields) is the text itself cut.
 */
export function scrubLogLine(line: string, scrubber: CredentialScrubber = engineScrubber): string {
  if (scrubber.text(line) === line) return line;
  let structured: string;
  try {
    structured = `${JSON.stringify(scrubber.value(JSON.parse(line)))}\n`;
  } catch {
    return scrubber.text(line);
  }
  return scrubber.text(structured);
}

/** A stream whose text is scrubbed on its way out (the command's stdout and stderr). */
export function scrubbingStream<S extends NodeJS.WritableStream>(
  stream: S,
  scrubber: CredentialScrubber = engineScrubber,
): S {
  return new Proxy(stream, {
    get(target, property) {
      const member: unknown = Reflect.get(target, property, target);
      if (property === "write" && typeof member === "function") {
        return (chunk: unknown, ...rest: unknown[]) =>
          member.call(target, typeof chunk === "string" ? scrubber.text(chunk) : chunk, ...rest);
      }
      return typeof member === "function" ? member.bind(target) : member;
    },
  });
}
