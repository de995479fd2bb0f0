/**
 * A quick answer to `structureProblem` (limits.ts) straight from the text, before yaml lexes and
 * parses it: yaml's lexer and parser take about a second on a 100,000-level nesting or 150,000
 * aliases, where this scan takes milliseconds. It models only the plain subset of YAML that
 * hostile files are written in (indented `key:` lines, `- ` and `? ` items, one-line scalars, flow
 * collections, anchors and aliases) and gives up — leaving the answer to the CST walk — at anything
 * else (block scalars, tags, quoted keys, a plain scalar going on to the next line, `---`, tabs…),
 * so what it reports is always what the walk would report, at the same offset.
 */
import { MAX_ALIASES, MAX_MAPPING_KEYS, MAX_NESTING, type TextProblem } from "./limits.js";

interface Collection {
  start: number;
  depth: number;
  kind: "map" | "seq";
  /** Column of a block collection's items; -1 for a flow collection. */
  indent: number;
  items: number;
  /** The last item has no value yet: a deeper line (or a `- ` list, for a mapping) supplies it. */
  awaiting: boolean;
}

/** A node the walk stops at, and the span it covers (an unclosed one reaches the end of the text). */
interface Trigger {
  start: number;
  end: number;
  message: string;
}

/**
 * The scan met something outside the subset it models. Not an Error: a valid recipe often ends
 * the scan this way, and an Error's stack trace would cost more than the scan.
 */
class GiveUp {}

/** The answer is known before the end: the root mapping holds everything the walk could meet. */
class Settled {
  constructor(readonly problem: TextProblem) {}
}

const NESTED = `nested more than ${MAX_NESTING} levels deep`;
const BIG_MAPPING = `a mapping with more than ${MAX_MAPPING_KEYS} keys`;
const ALIASES = `more than ${MAX_ALIASES} aliases (*name)`;

/** A block mapping key the scan is sure of: plain word characters, then `:` and a space or the line's end. */
const PLAIN_KEY = /[A-Za-z0-9_][A-Za-z0-9_./-]*:(?=[ \n]|$)/y;
/** An anchor or alias name: up to a space, a line's end or a flow indicator. */
const NAME = /[^\s,[\]{}]+/y;
/** How a plain scalar in block context may begin (it must not begin with an indicator). */
const BLOCK_PLAIN = /[^\s\-?:,[\]{}#&*!|>'"%@`]|[-?:](?=[^\s])/y;
/** A plain scalar in flow context: up to a flow indicator, `: `, ` #` or the line's end. */
const FLOW_PLAIN = /(?:[^\s,[\]{}:#]|:(?=[^\s,[\]{}])|#(?<! #))+/y;
/**
 * Line breaks other than \n and byte-order marks move yaml's tokens where the scan does not look;
 * document markers and directives start documents, which the walk meets last first.
 */
const NOT_MODELLED = /[\r\uFEFF]|^(?:---|\.\.\.|%)/m;
const QUOTED = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'/y;

/** The next line that holds something, and its indentation. */
const NEXT_LINE = /\n( *)([^ \n#])/y;
const NEWLINE = 0x0a;
const DASH = 0x2d;
const QUESTION = 0x3f;
const OPEN_SEQ = 0x5b; // [, and ] is 2 past it
const CLOSE_SEQ = 0x5d;
const OPEN_MAP = 0x7b; // {, and } is 2 past it
const CLOSE_MAP = 0x7d;

/** Letters, digits, `_ . / * &`, space, `:`, `,` — and `-`, `?` (the callers decide on those two). */
function isWordOrIndicator(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x3a) || // digits and `:`
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    c === 0x20 ||
    c === 0x2c ||
    c === 0x5f ||
    c === 0x2e ||
    c === 0x2f ||
    c === 0x2a ||
    c === 0x26 ||
    c === DASH ||
    c === QUESTION
  );
}

/** An anchor or alias name runs up to a space, a line break or a flow indicator. */
function isNameCharacter(c: number): boolean {
  return c > 0x20 && c !== 0x2c && c !== OPEN_SEQ && c !== CLOSE_SEQ && c !== OPEN_MAP && c !== CLOSE_MAP;
}

function matchAt(re: RegExp, text: string, at: number): string | null {
  re.lastIndex = at;
  return re.exec(text)?.[0] ?? null;
}

class Scan {
  private pos = 0;
  private lineStart = 0;
  private readonly blocks: Collection[] = [];
  private readonly flows: Collection[] = [];
  private rootSeen = false;
  /** A too-deep block collection whose line was passed over (skipDeepLine). */
  private opaque: Collection | null = null;
  /** The latest collection at depth MAX_NESTING + 1: the walk meets the last such one first. */
  private deepest: Trigger | null = null;
  private readonly bigMappings: Trigger[] = [];
  private readonly open = new Map<Collection, Trigger>();
  /** Offsets of the last MAX_ALIASES + 1 aliases: the walk counts them from the end of the file. */
  private readonly aliases: number[] = [];
  private aliasCount = 0;

  constructor(private readonly text: string) {}

  run(): TextProblem | null {
    while (this.pos < this.text.length) this.line();
    return this.answer();
  }

  private line(): void {
    const lineStart = this.pos;
    this.lineStart = lineStart;
    const indent = this.spaces();
    if (this.text[this.pos] === "\t") throw new GiveUp();
    if (this.flows.length > 0) {
      this.flowContinued(indent);
      return;
    }
    if (this.atLineEnd()) {
      this.skipLine();
      return;
    }
    // The lines of a too-deep collection were skipped, not followed: a deeper line cannot be placed.
    if (this.opaque && indent > this.opaque.indent) throw new GiveUp();
    this.closeBlocksDeeperThan(indent, lineStart);
    const from = this.pos;
    this.indicators();
    const key = matchAt(PLAIN_KEY, this.text, this.pos);
    if (key !== null) {
      this.item("map", this.pos);
      this.pos += key.length;
    }
    // A line of only a value belongs to the line before (a scalar going on, or a key's value): not modelled.
    if (this.pos === from) throw new GiveUp();
    this.value();
  }

  /** A flow collection going on to another line must stay right of the block holding it. */
  private flowContinued(indent: number): void {
    if (indent <= (this.blocks.at(-1)?.indent ?? -1)) throw new GiveUp();
    this.flowUntilLineEnd();
  }

  /** `- ` and `? ` at the start of a line: each opens (or continues) a block collection. */
  private indicators(): void {
    for (;;) {
      const c = this.text[this.pos];
      if ((c !== "-" && c !== "?") || !/[ \n]|^$/.test(this.text[this.pos + 1] ?? "")) return;
      this.item(c === "-" ? "seq" : "map", this.pos);
      this.pos++;
      this.spaces();
      const top = this.blocks.at(-1)!;
      if (top.depth > MAX_NESTING && !this.atLineEnd()) {
        this.skipDeepLine(top);
        return;
      }
    }
  }

  /** A new item at the current column: of the collection open there, or of a new nested one. */
  private item(kind: Collection["kind"], at: number): void {
    const col = at - this.lineStart;
    this.closeListUnderKey(col, kind);
    const top = this.blocks.at(-1);
    if (top && top.indent === col && top.kind === kind) {
      top.items++;
      top.awaiting = true;
      this.checkKeys(top);
      return;
    }
    // A list may be a mapping value at the key's own indentation.
    const nests = top
      ? top.awaiting && (col > top.indent || (col === top.indent && kind === "seq" && top.kind === "map"))
      : !this.rootSeen;
    if (!nests) throw new GiveUp();
    this.rootSeen = true;
    if (top) top.awaiting = false;
    this.blocks.push(
      this.opened({ start: at, depth: (top?.depth ?? 0) + 1, kind, indent: col, items: 1, awaiting: true }),
    );
  }

  /** A key at the indentation of a list that was a mapping value (`k:` then `- a` below it) ends the list. */
  private closeListUnderKey(col: number, kind: Collection["kind"]): void {
    const [below, top] = this.blocks.slice(-2);
    if (
      kind === "map" &&
      top?.kind === "seq" &&
      top.indent === col &&
      below?.kind === "map" &&
      below.indent === col
    ) {
      this.blocks.pop();
      this.closed(top, this.lineStart);
    }
  }

  /**
   * The rest of a line inside the first too-deep block collection (`- - - …`): nothing in it
   * counts, so it is passed over, as long as it holds nothing that could reach past the line.
   */
  private skipDeepLine(deep: Collection): void {
    let i = this.pos;
    for (; i < this.text.length && this.text.charCodeAt(i) !== NEWLINE; i++) {
      if (!isWordOrIndicator(this.text.charCodeAt(i))) throw new GiveUp();
    }
    this.pos = i;
    deep.awaiting = false;
    this.opaque = deep;
  }

  /**
   * Inside the first too-deep flow collection nothing counts but where it ends: its brackets are
   * matched, and anything but plain words gives up (it could change where yaml ends it).
   */
  private skipDeepFlow(deep: Collection): void {
    const closers: number[] = [];
    let i = this.pos;
    for (; i < this.text.length; i++) {
      const c = this.text.charCodeAt(i);
      if (c === OPEN_SEQ || c === OPEN_MAP) closers.push(c + 2);
      else if (c === CLOSE_SEQ || c === CLOSE_MAP) {
        if (closers.pop() !== c) throw new GiveUp();
        if (closers.length === 0) break;
      } else if (
        c === NEWLINE ? i + 1 < this.text.length : !isWordOrIndicator(c) || c === DASH || c === QUESTION
      )
        throw new GiveUp(); // only an unclosed collection's last line break is followed by nothing
    }
    if (i === this.text.length) {
      this.pos = i;
      return;
    }
    this.flows.pop();
    this.pos = i + 1;
    this.closed(deep, this.pos);
  }

  /** What follows a key or an indicator on its line: nothing, an alias, a flow collection or a scalar. */
  private value(): void {
    this.spaces();
    if (this.text[this.pos] === "&") this.anchor();
    if (this.atLineEnd()) {
      this.skipLine();
      return;
    }
    const top = this.blocks.at(-1);
    if (top) top.awaiting = false;
    else if (this.rootSeen) throw new GiveUp();
    this.rootSeen = true;
    const c = this.text[this.pos];
    if (c === "*") this.alias();
    else if (c === "[" || c === "{") {
      this.openFlow(c);
      this.flowUntilLineEnd();
      return;
    } else if (c === '"' || c === "'") this.quoted();
    else this.blockPlain();
    this.restOfLineIsEmpty();
  }

  private blockPlain(): void {
    if (matchAt(BLOCK_PLAIN, this.text, this.pos) === null) throw new GiveUp();
    while (!this.atLineEnd()) {
      const c = this.text[this.pos];
      if (c === ":" && /[ \n]|^$/.test(this.text[this.pos + 1] ?? "")) throw new GiveUp();
      this.pos++;
    }
    this.nextLineMustNotContinue();
  }

  /** A plain scalar followed by a deeper line would go on there: not modelled. */
  private nextLineMustNotContinue(): void {
    const top = this.blocks.at(-1);
    const next = NEXT_LINE;
    next.lastIndex = this.text.indexOf("\n", this.pos);
    const m = next.lastIndex >= 0 ? next.exec(this.text) : null;
    if (m && (m[1] ?? "").length > (top?.indent ?? -1)) throw new GiveUp();
  }

  private flowUntilLineEnd(): void {
    for (;;) {
      this.spaces();
      const c = this.text[this.pos];
      if (c === undefined) return;
      if (c === "\n") {
        this.pos++;
        return;
      }
      if (c === "#" && /[ \n]/.test(this.text[this.pos - 1] ?? "\n")) {
        this.skipLine();
        return;
      }
      if (this.flows.length === 0) throw new GiveUp(); // something after a closed flow collection
      this.flowToken(c);
    }
  }

  private flowToken(c: string): void {
    const top = this.flows.at(-1)!;
    if (c === "[" || c === "{") {
      this.openFlow(c);
      return;
    }
    if (c === "]" || c === "}") {
      this.closeFlow(c === "]" ? "seq" : "map");
      return;
    }
    if (c === ",") {
      if (top.awaiting) throw new GiveUp(); // an empty entry
      top.awaiting = true;
      this.pos++;
      return;
    }
    if (c === ":") {
      if (top.kind !== "map") throw new GiveUp();
      this.pos++;
      return;
    }
    if (top.awaiting) this.flowItem(top);
    if (c === "&") {
      this.anchor();
      return;
    }
    if (c === "*") {
      this.alias();
      return;
    }
    if (c === '"' || c === "'") {
      this.quoted();
      return;
    }
    const plain = matchAt(FLOW_PLAIN, this.text, this.pos);
    if (plain === null || /^[-?!|>%@`]/.test(plain)) throw new GiveUp();
    this.pos += plain.length;
  }

  private flowItem(top: Collection): void {
    top.items++;
    top.awaiting = false;
    this.checkKeys(top);
  }

  private openFlow(c: string): void {
    const parent = this.flows.at(-1) ?? this.blocks.at(-1);
    const top = this.flows.at(-1);
    if (top?.awaiting) this.flowItem(top);
    if (!top) this.rootSeen = true;
    const kind = c === "[" ? "seq" : "map";
    const depth = (parent?.depth ?? 0) + 1;
    const flow = this.opened({ start: this.pos, depth, kind, indent: -1, items: 0, awaiting: true });
    this.flows.push(flow);
    if (depth > MAX_NESTING) {
      this.skipDeepFlow(flow);
      return;
    }
    this.pos++;
  }

  private closeFlow(kind: Collection["kind"]): void {
    const top = this.flows.pop();
    if (top?.kind !== kind || (top.awaiting && top.items > 0)) throw new GiveUp(); // mismatched or `[a,]`
    this.pos++;
    this.closed(top, this.pos);
  }

  private anchor(): void {
    this.pos++;
    const name = matchAt(NAME, this.text, this.pos);
    if (name === null) throw new GiveUp();
    this.pos += name.length;
    this.spaces();
    // An anchor on a block collection (value on the next line) puts the collection's start elsewhere.
    if (this.flows.length === 0 && this.atLineEnd()) throw new GiveUp();
  }

  private alias(): void {
    let end = this.pos + 1;
    while (end < this.text.length && isNameCharacter(this.text.charCodeAt(end))) end++;
    if (end === this.pos + 1) throw new GiveUp();
    this.aliases[this.aliasCount++ % (MAX_ALIASES + 1)] = this.pos;
    this.pos = end;
  }

  private quoted(): void {
    const q = matchAt(QUOTED, this.text, this.pos);
    if (q === null) throw new GiveUp(); // spans lines, or unclosed
    this.pos += q.length;
  }

  private restOfLineIsEmpty(): void {
    this.spaces();
    if (!this.atLineEnd()) throw new GiveUp();
    this.skipLine();
  }

  private opened(c: Collection): Collection {
    if (c.depth === MAX_NESTING + 1) {
      const t: Trigger = { start: c.start, end: Number.POSITIVE_INFINITY, message: NESTED };
      this.deepest = t;
      this.open.set(c, t);
    }
    return c;
  }

  private checkKeys(c: Collection): void {
    if (c.kind !== "map" || c.items !== MAX_MAPPING_KEYS + 1 || c.depth > MAX_NESTING) return;
    const t: Trigger = { start: c.start, end: Number.POSITIVE_INFINITY, message: BIG_MAPPING };
    // A root flow mapping could still turn out to be a key (`{…}: x`), a root block mapping not.
    if (c.depth === 1 && c.indent >= 0) throw new Settled({ offset: t.start, message: t.message });
    this.bigMappings.push(t);
    this.open.set(c, t);
  }

  private closed(c: Collection, end: number): void {
    const t = this.open.get(c);
    if (t) t.end = end;
    this.open.delete(c);
  }

  private closeBlocksDeeperThan(indent: number, lineStart: number): void {
    for (let top = this.blocks.at(-1); top && top.indent > indent; top = this.blocks.at(-1)) {
      this.blocks.pop();
      if (top === this.opaque) this.opaque = null;
      this.closed(top, lineStart);
    }
  }

  /**
   * The walk pops its stack from the end, so it meets the triggers in reverse document order but
   * a parent before what it holds: the one it meets first is the outermost trigger holding the
   * trigger that starts last.
   */
  private answer(): TextProblem | null {
    const triggers = [...this.bigMappings];
    if (this.deepest) triggers.push(this.deepest);
    // The ring's oldest entry, once it has wrapped, is the (MAX_ALIASES + 1)th alias from the end.
    const alias = this.aliasCount > MAX_ALIASES ? this.aliases[this.aliasCount % (MAX_ALIASES + 1)]! : null;
    if (alias !== null) triggers.push({ start: alias, end: alias + 1, message: ALIASES });
    if (triggers.length === 0) return null;
    const last = triggers.reduce((a, b) => (b.start > a.start ? b : a));
    const holders = triggers.filter((t) => t.start <= last.start && last.start < t.end);
    const first = holders.reduce((a, b) => (b.start < a.start ? b : a));
    return { offset: first.start, message: first.message };
  }

  private spaces(): number {
    const from = this.pos;
    while (this.text[this.pos] === " ") this.pos++;
    return this.pos - from;
  }

  private atLineEnd(): boolean {
    const c = this.text[this.pos];
    return c === undefined || c === "\n" || c === "#" || (c === "\r" && this.text[this.pos + 1] === "\n");
  }

  private skipLine(): void {
    const nl = this.text.indexOf("\n", this.pos);
    this.pos = nl < 0 ? this.text.length : nl + 1;
  }
}

/**
 * `structureProblem`'s answer for a text in the subset the scan models; null when there is no
 * problem or the scan cannot tell (the CST walk then decides).
 */
export function quickStructureProblem(text: string): TextProblem | null {
  if (NOT_MODELLED.test(text)) return null;
  try {
    return new Scan(text).run();
  } catch (e) {
    if (e instanceof Settled) return e.problem;
    if (e instanceof GiveUp) return null;
    throw e;
  }
}
