import { ParseError } from "../errors.js";

/**
 * Walking raw responses along named paths.
 *
 * A path is an array of object keys and array indexes; a negative index counts from the end
 * (`-1` is the last element), as the protocol notes write `a[-1]`. Paths are meant to be module
 * constants so that a hot parser allocates nothing per call, and so that a ParseError can name the
 * whole path it was walking.
 */
export type PathKey = string | number;
export type Path = readonly PathKey[];

/** A JSON object as parsed: string keys, unknown values. */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function step(node: unknown, key: PathKey): unknown {
  if (typeof key === "number") {
    if (!Array.isArray(node)) return undefined;
    return node[key < 0 ? node.length + key : key];
  }
  if (typeof node !== "object" || node === null || Array.isArray(node)) return undefined;
  return (node as JsonObject)[key];
}

/** The value at `path`, or `undefined` when any step is missing or of the wrong kind. */
export function get(node: unknown, path: Path): unknown {
  return recorder === null ? walk(node, path) : recordedGet(node, path);
}

/**
 * `get` when nothing records: one test per step and an early return at the first step that cannot
 * be taken. Every parser reads dozens of paths per row through here, so it is the parsers' hottest
 * code (bench/parse profiles).
 */
function walk(node: unknown, path: Path): unknown {
  let current = node;
  for (let i = 0; i < path.length; i++) {
    if (typeof current !== "object" || current === null) return undefined;
    const key = path[i] as PathKey;
    if (typeof key === "number") {
      if (!Array.isArray(current)) return undefined;
      current = current[key < 0 ? current.length + key : key];
    } else {
      if (Array.isArray(current)) return undefined;
      current = (current as JsonObject)[key];
    }
  }
  return current;
}

/** `get` while `recordReads` runs: the same walk, noting how far it went. */
function recordedGet(node: unknown, path: Path): unknown {
  let current = node;
  for (let i = 0; i < path.length; i++) {
    if (current === undefined || current === null) {
      if (recorder !== null) recorder.note(node, path, i - 1);
      return undefined;
    }
    current = step(current, path[i] as PathKey);
  }
  if (recorder !== null) recorder.note(node, path, current === undefined ? path.length - 1 : path.length);
  return current;
}

/**
 * Which paths the parsers read, for the emulator's fidelity test: while `recordReads` runs, every
 * path `get` walks is noted from the root of the response it walks in, array positions folded
 * (`contents[].musicShelfRenderer`), keeping only the steps that existed. Off (one null check per
 * `get`) otherwise.
 */
class ReadRecorder {
  /** Every object and array of each response seen, with its folded path from that response's root. */
  private readonly where = new WeakMap<object, { root: object; path: string }>();
  readonly reads = new Map<object, Set<string>>();

  note(node: unknown, path: Path, walked: number): void {
    if (typeof node !== "object" || node === null) return;
    let at = this.where.get(node);
    if (at === undefined) {
      // A node not seen yet is the root of a new response: parsers start from the response.
      this.index(node, node, "");
      at = { root: node, path: "" };
    }
    let out = at.path;
    for (let i = 0; i < walked; i++) {
      const key = path[i] as PathKey;
      out += typeof key === "number" ? "[]" : out === "" ? key : `.${key}`;
    }
    if (out === "") return;
    let set = this.reads.get(at.root);
    if (set === undefined) {
      set = new Set();
      this.reads.set(at.root, set);
    }
    set.add(out);
  }

  private index(root: object, node: object, path: string): void {
    if (this.where.has(node)) return;
    this.where.set(node, { root, path });
    if (Array.isArray(node)) {
      for (const item of node)
        if (typeof item === "object" && item !== null) this.index(root, item, `${path}[]`);
      return;
    }
    for (const key in node) {
      const value = (node as JsonObject)[key];
      if (typeof value === "object" && value !== null)
        this.index(root, value, path === "" ? key : `${path}.${key}`);
    }
  }
}

let recorder: ReadRecorder | null = null;

/** What `recordReads` found: for each response root the parsers walked, the folded paths read in it. */
export type RecordedReads = Map<object, Set<string>>;

/**
 * Runs `fn` (sync or async) with read recording on and returns its result with the paths read.
 * For tests only: one recording at a time, and nothing else should parse while it runs.
 */
export async function recordReads<T>(fn: () => T | Promise<T>): Promise<{ result: T; reads: RecordedReads }> {
  if (recorder !== null) throw new Error("recordReads: a recording is already running");
  const active = new ReadRecorder();
  recorder = active;
  try {
    const result = await fn();
    return { result, reads: active.reads };
  } finally {
    recorder = null;
  }
}

/** Renders a path as `a.b[0].c` for messages. */
export function formatPath(path: Path, base = ""): string {
  let out = base;
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? key : `.${key}`;
  }
  return out === "" ? "(root)" : out;
}

function missing(node: unknown, path: Path, what: string, base: string): ParseError {
  // Find the first step that failed so the message says where the structure stopped.
  let current = node;
  let depth = 0;
  for (; depth < path.length; depth++) {
    const next = step(current, path[depth] as PathKey);
    if (next === undefined || next === null) break;
    current = next;
  }
  const full = formatPath(path, base);
  const reached =
    depth === path.length ? "" : ` (missing from ${formatPath(path.slice(0, depth + 1), base)})`;
  return new ParseError(full, `expected ${what}${reached}`);
}

/** The value at `path`; a ParseError naming the path when it is absent. */
export function must(node: unknown, path: Path, base = ""): unknown {
  const value = get(node, path);
  if (value === undefined || value === null) throw missing(node, path, "a value", base);
  return value;
}

/** The string at `path`, or `null` when absent or not a string. */
export function str(node: unknown, path: Path): string | null {
  const value = get(node, path);
  return typeof value === "string" ? value : null;
}

/** The string at `path`; a ParseError naming the path when it is absent or not a string. */
export function mustStr(node: unknown, path: Path, base = ""): string {
  const value = get(node, path);
  if (typeof value !== "string") throw missing(node, path, "a string", base);
  return value;
}

/** The number at `path`, or `null`. */
export function num(node: unknown, path: Path): number | null {
  const value = get(node, path);
  return typeof value === "number" ? value : null;
}

/** The boolean at `path`, or `null`. */
export function bool(node: unknown, path: Path): boolean | null {
  const value = get(node, path);
  return typeof value === "boolean" ? value : null;
}

const EMPTY: readonly unknown[] = Object.freeze([]);

/** The array at `path`, or an empty array when absent or not an array. */
export function list(node: unknown, path: Path): readonly unknown[] {
  const value = get(node, path);
  return Array.isArray(value) ? value : EMPTY;
}

/** The array at `path`; a ParseError naming the path when it is absent or not an array. */
export function mustList(node: unknown, path: Path, base = ""): readonly unknown[] {
  const value = get(node, path);
  if (!Array.isArray(value)) throw missing(node, path, "an array", base);
  return value;
}

/** The object at `path`, or `undefined`. */
export function obj(node: unknown, path: Path): JsonObject | undefined {
  const value = get(node, path);
  return isObject(value) ? value : undefined;
}

/** The object at `path`; a ParseError naming the path when it is absent or not an object. */
export function mustObj(node: unknown, path: Path, base = ""): JsonObject {
  const value = get(node, path);
  if (!isObject(value)) throw missing(node, path, "an object", base);
  return value;
}

/**
 * The single key of a one-key renderer wrapper (`{"musicShelfRenderer": {...}}` → the name), or
 * `undefined` when the value is not such a wrapper.
 */
export function rendererName(wrapper: unknown): string | undefined {
  if (!isObject(wrapper)) return undefined;
  for (const key in wrapper) {
    if (recorder !== null) recorder.note(wrapper, [key], 1);
    return key;
  }
  return undefined;
}
