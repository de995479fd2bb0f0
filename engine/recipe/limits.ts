/**
 * Bounds on what a recipe or project file may be, checked before anything that could take
 * unbounded memory, time or stack: the size (while reading: one byte past it stops the read), the
 * bytes (UTF-8, no control characters), and how deeply it nests (on yaml's CST, which its parser builds without
 * recursion, before the composer and everything after it, which recurse).
 */
import { type CST, type Document, isCollection, isPair, isScalar, visit } from "yaml";
import type { ReadBounds } from "../files/read-regular.js";

/** 1 MiB: the largest shipped recipe is a few KB; a bigger file is a mistake or an attack. */
export const MAX_RECIPE_FILE_BYTES = 1024 * 1024;
/** A recipe nests about 6 levels; 64 leaves room for any honest use and none for a stack overflow. */
export const MAX_NESTING = 64;

/**
 * yaml checks that keys are unique by comparing each with all before it, so a mapping of 90,000
 * keys takes minutes; a recipe's largest mapping has about 15.
 */
export const MAX_MAPPING_KEYS = 1000;

/**
 * Aliases a file may use: yaml resolves each by searching the document, so 150,000 of them take
 * minutes, and alias bombs need many; a recipe needs a handful.
 */
export const MAX_ALIASES = 100;
/** Recipes (YAML documents) in one file: far more than anyone writes by hand; 200,000 empty ones took seconds to parse. */
export const MAX_DOCUMENTS = 1000;

export interface TextProblem {
  /** UTF-16 offset into the text. */
  offset: number;
  message: string;
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** `over`: the size is not known, only that the file holds more than `bytes` (it was read until then). */
function tooBig(bytes: number, over: boolean): string {
  return `the file is ${over ? "over " : ""}${mib(bytes)}; a recipe or project file may be at most 1 MiB`;
}

/** The size check, made on the byte count alone (of text already in memory). */
export function sizeProblem(bytes: number): string | null {
  return bytes <= MAX_RECIPE_FILE_BYTES ? null : tooBig(bytes, false);
}

/** How a recipe or project file is read (engine/files/read-regular.ts). */
export const RECIPE_FILE_BOUNDS: ReadBounds = { maxBytes: MAX_RECIPE_FILE_BYTES, tooBig };

/** YAML's printable set (YAML 1.2 §5.1) less nothing: tab, newlines and printable code points. */
const NOT_PRINTABLE = /[^\t\n\r\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

export function controlCharacterProblem(text: string): TextProblem | null {
  const m = NOT_PRINTABLE.exec(text);
  if (!m) return null;
  const code = m[0].codePointAt(0) ?? 0;
  const name = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  return {
    offset: m.index,
    message: `control character ${name} is not allowed (inside double quotes write it as an escape, e.g. "\\t")`,
  };
}

type Token = CST.Token | null | undefined;

/** The tokens directly inside a CST node, without recursing into them. */
function children(token: CST.Token): Token[] {
  switch (token.type) {
    case "document":
      return [token.value];
    case "block-map":
    case "block-seq":
    case "flow-collection":
      return token.items.flatMap((item) => ["key" in item ? item.key : undefined, item.value]);
    default:
      return [];
  }
}

function isCollectionToken(token: CST.Token): boolean {
  return token.type === "block-map" || token.type === "block-seq" || token.type === "flow-collection";
}

function isMappingToken(token: CST.Token): boolean {
  return token.type === "block-map" || (token.type === "flow-collection" && token.start.source === "{");
}

/**
 * The first collection nested deeper than `MAX_NESTING` (or a mapping too big, or too many aliases),
 * found on yaml's CST with an explicit stack: yaml's own composer recurses and reports "Maximum call
 * stack size exceeded" past ~1,000 levels, and the checks after it recurse too. The caller parses
 * once and hands the same tokens to the composer when they pass. structure-scan.ts gives the same
 * answer from the text, before yaml's lexer and parser spend a second on a hostile file.
 */
export function structureProblem(tokens: readonly CST.Token[]): TextProblem | null {
  const stack: { token: CST.Token; depth: number }[] = tokens.map((token) => ({ token, depth: 0 }));
  let aliases = 0;
  while (stack.length > 0) {
    const { token, depth } = stack.pop()!;
    if (token.type === "alias" && ++aliases > MAX_ALIASES) {
      return { offset: token.offset, message: `more than ${MAX_ALIASES} aliases (*name)` };
    }
    const here = isCollectionToken(token) ? depth + 1 : depth;
    if (here > MAX_NESTING) {
      return { offset: token.offset, message: `nested more than ${MAX_NESTING} levels deep` };
    }
    if (isMappingToken(token) && "items" in token && token.items.length > MAX_MAPPING_KEYS) {
      return { offset: token.offset, message: `a mapping with more than ${MAX_MAPPING_KEYS} keys` };
    }
    for (const child of children(token)) if (child) stack.push({ token: child, depth: here });
  }
  return null;
}

/** More than MAX_DOCUMENTS `---` separators, found by a scan that stops at the first one too many. */
export function documentsProblem(text: string): TextProblem | null {
  const separator = /^---(?=\s|$)/gm;
  let count = 0;
  for (let m = separator.exec(text); m !== null; m = separator.exec(text)) {
    if (++count > MAX_DOCUMENTS) {
      return { offset: m.index, message: `more than ${MAX_DOCUMENTS} documents (recipes) in one file` };
    }
  }
  return null;
}

/** Core-schema tags only: a recipe is plain data, and `!!binary`, `!!set` or `!!js/function` is not. */
const PLAIN_TAGS = new Set([
  "!",
  ...["str", "int", "float", "bool", "null", "map", "seq"].map((t) => `tag:yaml.org,2002:${t}`),
]);

/**
 * Tags and keys the data model has no room for. Runs on a document already known to nest at most
 * `MAX_NESTING` levels, so yaml's recursive `visit` is safe here.
 */
export function shapeProblems(doc: Document.Parsed): TextProblem[] {
  const out: TextProblem[] = [];
  visit(doc, {
    Pair(_key, pair) {
      if (isPair(pair) && isCollection(pair.key)) {
        out.push({
          offset: pair.key.range?.[0] ?? 0,
          message: "a mapping key must be a plain value, not a list or mapping",
        });
      }
    },
    Node(_key, node) {
      const tag = (node as { tag?: string }).tag;
      if (tag !== undefined && !PLAIN_TAGS.has(tag) && (isScalar(node) || isCollection(node))) {
        out.push({
          offset: node.range?.[0] ?? 0,
          message: `tag ${tag.replace("tag:yaml.org,2002:", "!!")} is not allowed (a recipe holds plain data)`,
        });
      }
    },
  });
  return out;
}

/**
 * How the data made from the document nests once aliases are expanded: aliases can stack nesting
 * beyond what the text shows, or point into themselves. Iterative, memoised per object (aliases
 * share objects), so an alias graph costs its size, not its expansion.
 */
export function valueProblem(value: unknown): string | null {
  const depthOf = new Map<object, number>();
  const onPath = new Set<object>();
  const stack: { node: object; expanded: boolean }[] = [];
  const kids = (node: object): unknown[] => (Array.isArray(node) ? node : Object.values(node));
  if (value !== null && typeof value === "object") stack.push({ node: value, expanded: false });
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (!top.expanded && depthOf.has(top.node)) {
      stack.pop(); // a shared object met twice: measured already
      continue;
    }
    if (!top.expanded) {
      top.expanded = true;
      onPath.add(top.node);
      for (const k of kids(top.node)) {
        if (k === null || typeof k !== "object") continue;
        if (onPath.has(k)) return "an alias refers to a node that contains it";
        if (!depthOf.has(k)) stack.push({ node: k, expanded: false });
      }
      continue;
    }
    stack.pop();
    onPath.delete(top.node);
    let depth = 1;
    for (const k of kids(top.node)) {
      if (k !== null && typeof k === "object") depth = Math.max(depth, (depthOf.get(k) ?? 0) + 1);
    }
    if (depth > MAX_NESTING) return `nested more than ${MAX_NESTING} levels deep once aliases are expanded`;
    depthOf.set(top.node, depth);
  }
  return null;
}
