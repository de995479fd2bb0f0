/**
 * YAML text → documents that remember where each node came from, so every later check (the schema,
 * the semantic rules) can point at the offending node as `line:col`.
 */
import {
  Composer,
  type CST,
  type Document,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  Parser,
  visit,
} from "yaml";
import type { RecipeIssue } from "./errors.js";
import {
  controlCharacterProblem,
  documentsProblem,
  shapeProblems,
  structureProblem,
  type TextProblem,
  valueProblem,
} from "./limits.js";
import { quickStructureProblem } from "./structure-scan.js";

export type Path = readonly (string | number)[];

/** A problem at a node of the document (`key`: at the key itself, not its value). */
export interface PathIssue {
  path: Path;
  key?: boolean;
  message: string;
}

export interface Position {
  line: number;
  col: number;
}

/** One document of a file with a way back from a value's path to its position. */
export interface SourceDocument {
  file: string;
  doc: Document.Parsed;
  /** Plain data (`toJS`); replaced after environment references are substituted. */
  value: unknown;
  /** Position of the node at `path`; with `key`, of the mapping key that names it. */
  at(path: Path, key?: boolean): Position;
  /** Position of a character offset in the file. */
  positionOf(offset: number): Position;
}

export interface ParsedFile {
  documents: SourceDocument[];
  issues: RecipeIssue[];
}

/** yaml's messages end with " at line L, column C:" and a code excerpt; the position is ours to add. */
function shortMessage(message: string): string {
  const first = message.split("\n")[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?$/, "").trim();
}

function lookup(root: unknown, path: Path, key: boolean): { node: Node | null; fallback: Node | null } {
  let node: unknown = root;
  let fallback: Node | null = isScalar(root) || isMap(root) || isSeq(root) ? (root as Node) : null;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find(
        (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg),
      );
      if (!pair) return { node: null, fallback };
      const keyNode = pair.key as Node;
      if (last && key) return { node: keyNode, fallback };
      // `key:` with nothing after it has no value node: point at the key instead.
      if (pair.value === null || pair.value === undefined) return { node: keyNode, fallback };
      node = pair.value;
      fallback = keyNode;
    } else if (isSeq(node)) {
      const item = node.items[Number(seg)];
      if (item === undefined || item === null) return { node: null, fallback };
      node = item;
    } else {
      return { node: null, fallback };
    }
    if (isScalar(node) || isMap(node) || isSeq(node)) fallback = node as Node;
  }
  return { node: (node as Node | null) ?? null, fallback };
}

function firstUnresolvedAlias(doc: Document.Parsed): number | null {
  let found: number | null = null;
  visit(doc, {
    Alias(_key, node) {
      if (found === null && node.resolve(doc) === undefined) found = node.range?.[0] ?? null;
    },
  });
  return found;
}

function firstAlias(doc: Document.Parsed): number | null {
  let found: number | null = null;
  visit(doc, {
    Alias(_key, node) {
      if (found === null) found = node.range?.[0] ?? null;
    },
  });
  return found;
}

/** Position of an offset without yaml's parser: for problems found before it may run. */
function positionIn(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, col: offset - lineStart + 1 };
}

function problemIssue(file: string, text: string, problem: TextProblem): RecipeIssue[] {
  return [{ file, ...positionIn(text, problem.offset), message: `YAML: ${problem.message}` }];
}

/**
 * The file's documents, or the problem that must stop it before yaml's (recursive) composer sees
 * it. The text is lexed and parsed once: the structure check reads the same tokens the composer
 * then turns into documents (parsing twice was a tenth of `musicsync validate`'s start-up).
 */
function composeChecked(
  file: string,
  text: string,
  lineCounter: LineCounter,
): { docs: Document.Parsed[]; issues: RecipeIssue[] } {
  // A plain hostile text's structure problem is found from the text: yaml's lexer and parser alone
  // take a second on 100,000 levels of nesting, before the walk could refuse it.
  const early = controlCharacterProblem(text) ?? documentsProblem(text) ?? quickStructureProblem(text);
  if (early) return { docs: [], issues: problemIssue(file, text, early) };
  const tokens: CST.Token[] = [...new Parser(lineCounter.addNewLine).parse(text)];
  const structure = structureProblem(tokens);
  if (structure) return { docs: [], issues: problemIssue(file, text, structure) };
  const composer = new Composer({ uniqueKeys: true, merge: true });
  // A file of only comments composes to no document; one with a stray `---` may too.
  return { docs: [...composer.compose(tokens)], issues: [] };
}

export function parseYamlFile(file: string, text: string): ParsedFile {
  const lineCounter = new LineCounter();
  const documents: SourceDocument[] = [];
  const { docs, issues } = composeChecked(file, text, lineCounter);
  const posAt = (offset: number): Position => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, col: p.col };
  };
  for (const doc of docs) {
    if (doc.errors.length > 0) {
      for (const err of doc.errors) {
        const pos = err.linePos?.[0] ?? posAt(err.pos[0]);
        issues.push({ file, line: pos.line, col: pos.col, message: `YAML: ${shortMessage(err.message)}` });
      }
      continue;
    }
    const shape = shapeProblems(doc);
    if (shape.length > 0) {
      for (const p of shape) issues.push({ file, ...posAt(p.offset), message: `YAML: ${p.message}` });
      continue;
    }
    const contents = doc.contents;
    if (contents === null || (isScalar(contents) && contents.value === null)) continue;
    const start = (contents as Node).range?.[0] ?? 0;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (err) {
      // Unknown aliases, alias bombs and bad merge keys surface only when the document becomes data.
      const pos = posAt(firstUnresolvedAlias(doc) ?? firstAlias(doc) ?? start);
      issues.push({ file, ...pos, message: `YAML: ${shortMessage((err as Error).message)}` });
      continue;
    }
    const expanded = valueProblem(value);
    if (expanded) {
      issues.push({ file, ...posAt(firstAlias(doc) ?? start), message: `YAML: ${expanded}` });
      continue;
    }
    documents.push({
      file,
      doc,
      value,
      positionOf: posAt,
      at(path, key = false) {
        const { node, fallback } = lookup(doc.contents, path, key);
        const found = node ?? fallback;
        return posAt(found?.range?.[0] ?? start);
      },
    });
  }
  return { documents, issues };
}
