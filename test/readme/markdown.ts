/**
 * What the docs tests read in a Markdown file: its fenced code blocks (with the `<!-- not run: … -->`
 * comment that may stand before one), its headings as GitHub anchors them, and its relative links.
 * Pure functions over the text.
 */
import { splitComment } from "./readme-commands.js";

export interface CodeBlock {
  /** The first word of the info string: `sh`, `ts`, `yaml`, `text`… */
  lang: string;
  /** The rest of the info string: `quick-start`, a file name to save the block as, `output`. */
  attrs: string[];
  /** The block's lines, the fence's indentation taken off. */
  lines: string[];
  /** 1-based line of the opening fence. */
  line: number;
  /** The reason a `<!-- not run: reason -->` comment just before the fence gives; null without one. */
  notRun: string | null;
}

/** A fence: three backticks or tildes (either would hide a command from a check that knew one). */
const FENCE = /^( *)(```|~~~)(.*)$/;
const NOT_RUN = /^<!--\s*not run:\s*(.*?)\s*-->$/;

/** Every fenced block, indented ones (inside list items) included. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split("\n");
  let open: (CodeBlock & { indent: number; fence: string }) | null = null;
  let lastText = "";
  lines.forEach((text, i) => {
    const fence = FENCE.exec(text);
    if (open) {
      if (fence && fence[2] === open.fence && fence[3]!.trim() === "") {
        const { indent: _, fence: __, ...block } = open;
        blocks.push(block);
        open = null;
      } else open.lines.push(text.slice(Math.min(open.indent, text.search(/\S|$/))));
      return;
    }
    if (fence) {
      const [lang = "", ...attrs] = fence[3]!.trim().split(/\s+/);
      const notRun = NOT_RUN.exec(lastText)?.[1] ?? null;
      open = { lang, attrs, lines: [], line: i + 1, notRun, indent: fence[1]!.length, fence: fence[2]! };
    }
    if (text.trim() !== "") lastText = text.trim();
  });
  if (open) throw new Error(`the code block at line ${(open as CodeBlock).line} is never closed`);
  return blocks;
}

/** The text outside code blocks, each code line blanked (so line numbers stay). */
export function prose(markdown: string): string {
  const lines = markdown.split("\n");
  let inside: string | null = null;
  return lines
    .map((text) => {
      const fence = FENCE.exec(text);
      if (fence && inside === null) inside = fence[2]!;
      else if (fence && fence[2] === inside && fence[3]!.trim() === "") inside = null;
      else if (inside === null) return text;
      return "";
    })
    .join("\n");
}

/**
 * The anchors GitHub gives the headings: lower case, punctuation dropped (letters, digits, spaces,
 * `-` and `_` kept), spaces as `-`, and a repeated one numbered (`-1`, `-2`).
 */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of prose(markdown).split("\n")) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

export interface Link {
  /** The target as written: `docs/client.md#errors`, `#options`, `recipes/`. */
  target: string;
  line: number;
}

/** Links and images to relative targets (not `https:`, `mailto:`…), outside code. */
export function relativeLinks(markdown: string): Link[] {
  const links: Link[] = [];
  prose(markdown)
    .split("\n")
    .forEach((text, i) => {
      const outsideInlineCode = text.replace(/`[^`]*`/g, "");
      const targets = [
        // [text](target "title"), ![alt](target)
        ...outsideInlineCode.matchAll(/\]\(<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\)/g),
        // [label]: target (a reference definition)
        ...outsideInlineCode.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/g),
        // <a href="target">, <img src="target">
        ...outsideInlineCode.matchAll(/\s(?:href|src)="([^"]+)"/g),
      ].map((m) => m[1]!);
      for (const target of targets)
        if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ target, line: i + 1 });
    });
  return links;
}

/** One thing a guide's session does: run a shell line, or save a block as a file. */
export type Step =
  | { kind: "run"; command: string; exit: number; background: boolean; line: number }
  | { kind: "write"; path: string; text: string; line: number };

/** A block saved as a file: its info string names one after the language (`yaml recipes/mix.yaml`). */
export function savedAs(block: CodeBlock): string | null {
  const name = block.attrs[0];
  return block.lang !== "sh" && name !== undefined && /\.\w+$/.test(name) ? name : null;
}

/**
 * The steps of a guide's runnable blocks, in order: each line of a `sh` block (a line ending in `\`
 * joined to the next; `# exit N` its promised exit code; `# in a second terminal…` started in the
 * background), and each block that names a file, saved there.
 */
export function sessionSteps(blocks: readonly CodeBlock[]): Step[] {
  const steps: Step[] = [];
  for (const block of blocks) {
    if (block.notRun !== null) continue;
    const path = savedAs(block);
    if (path !== null) {
      steps.push({ kind: "write", path, text: `${block.lines.join("\n")}\n`, line: block.line });
      continue;
    }
    if (block.lang !== "sh") continue;
    let pending = "";
    block.lines.forEach((text, i) => {
      const part = pending === "" ? text : text.trimStart();
      if (/\\\s*$/.test(part)) {
        pending += `${part.replace(/\\\s*$/, "").trimEnd()} `;
        return;
      }
      const whole = pending + part;
      pending = "";
      if (whole.trim() === "") return;
      const { command, exit } = splitComment(whole);
      const background = /\s#\s*in a second terminal\b/.test(whole);
      steps.push({ kind: "run", command, exit, background, line: block.line + 1 + i });
    });
  }
  return steps;
}
