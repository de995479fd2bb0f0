/**
 * The design lives in docs/ARCHITECTURE.md, docs/ENGINE.md and docs/PROTOCOL.md, and the code points
 * there. A clone has no issue tracker and none of the design notes once kept outside the repository,
 * so no source file may cite an issue number or such a note; every anchor of the design docs a source
 * file names (`docs/ENGINE.md#locks`) must be a heading of that file. (References to the guides are
 * left to links.test.ts, whose own examples name guides that do not exist.) The design docs, in turn, name only files that exist, and
 * hold no command to run (the guides' commands run in guides.test.ts; these have none).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/cli-process.js";
import { codeBlocks, headingAnchors } from "./markdown.js";

const DESIGN = ["docs/ARCHITECTURE.md", "docs/ENGINE.md", "docs/PROTOCOL.md"];
const CODE_FOLDERS = ["shared", "src", "emulator", "engine", "cli", "bench", "scripts", "test"];
// Markdown too: a folder's README (emulator/README.md) is read beside its code.
const SOURCE_FILE = /\.(ts|mts|js|mjs|yaml|yml|sql|sh|md)$/;

const DESIGN_NAMES = ["engine", "protocol", "architecture"].join("|").toUpperCase();

/** Where a citation would send a reader of a clone to nothing. */
const CITATIONS: readonly { what: string; pattern: RegExp }[] = [
  { what: "an issue number", pattern: /\bissues?[ -]#?\d+/gi },
  // A design note named bare (its file name, or its name alone), not as the docs/ file. The names
  // are spelt in lower case here and raised, so that this file does not cite what it looks for.
  {
    what: "a design note outside docs/",
    pattern: new RegExp(`(?<![\\w/.-])(?:${DESIGN_NAMES})(?![\\w-])`, "g"),
  },
  { what: "a design note outside docs/", pattern: /\bshared\/(?:design|protocol)\//g },
  // Another standard's numbered section stays (RFC 8628 §3.5, YAML 1.2 §5.1).
  { what: "a numbered section of a design note", pattern: /(?<!(?:RFC \d+|YAML [\d.]+) )§\d[\d.]*/g },
];

const DOCS_REFERENCE = new RegExp(`\\bdocs/((?:${DESIGN_NAMES})\\.md)(?:#([\\w-]+))?`, "g");

/** What is wrong in one source file's text, one line each (`path:line: …`). */
function citationProblems(file: string, text: string, anchorsOf: (doc: string) => Set<string> | null) {
  const problems: string[] = [];
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    for (const { what, pattern } of CITATIONS) {
      for (const m of line.matchAll(pattern)) problems.push(`${at}: cites ${what} (${m[0]})`);
    }
    for (const m of line.matchAll(DOCS_REFERENCE)) {
      const [, doc = "", anchor] = m;
      const anchors = anchorsOf(doc);
      if (anchors === null) problems.push(`${at}: docs/${doc} does not exist`);
      else if (anchor !== undefined && !anchors.has(anchor))
        problems.push(`${at}: docs/${doc} has no heading #${anchor}`);
    }
  });
  return problems;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && SOURCE_FILE.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .filter((f) => !f.split("/").includes("node_modules"));
}

/** A file's text; one another test removed since the listing (a scratch file) reads as empty. */
function textOf(file: string): string {
  try {
    return readFileSync(join(ROOT, file), "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw e;
  }
}

const anchorCache = new Map<string, Set<string> | null>();
function docAnchors(doc: string): Set<string> | null {
  if (!anchorCache.has(doc)) {
    const path = join(ROOT, "docs", doc);
    anchorCache.set(doc, existsSync(path) ? headingAnchors(readFileSync(path, "utf8")) : null);
  }
  return anchorCache.get(doc) ?? null;
}

/** Repository paths a design doc names in `code`: files and folders of the code, recipes, migrations. */
function namedPaths(markdown: string): string[] {
  const spans = markdown.matchAll(
    /`((?:shared|src|emulator|engine|cli|bench|scripts|test|recipes|migrations|examples)\/[^`\s]*)`/g,
  );
  return [...spans].map((m) => m[1] ?? "");
}

describe("comments point at the design in docs/", () => {
  const files = CODE_FOLDERS.flatMap(sourceFiles);

  it("finds the code", () => {
    expect(files).toEqual(
      expect.arrayContaining(["src/client.ts", "engine/run/runner.ts", "emulator/server.ts"]),
    );
  });

  it("no source file cites an issue number or a design note a clone lacks, and every docs anchor resolves", () => {
    const problems = files.flatMap((f) => citationProblems(f, textOf(f), docAnchors));
    expect(problems).toEqual([]);
  });

  it("no document of the repository cites an issue number either", () => {
    const documents = ["README.md", ...["docs", "recipes", "examples"].flatMap(sourceFiles)].filter((f) =>
      f.endsWith(".md"),
    );
    expect(documents).toEqual(expect.arrayContaining(["README.md", "docs/ENGINE.md", "recipes/README.md"]));
    const issueNumber = CITATIONS[0]?.pattern ?? /$^/;
    const cited = documents.flatMap((f) =>
      textOf(f)
        .split("\n")
        .flatMap((line, i) => [...line.matchAll(issueNumber)].map((m) => `${f}:${i + 1}: ${m[0]}`)),
    );
    expect(cited).toEqual([]);
  });

  it("names what is wrong in a planted citation, and passes a good one", () => {
    const issue = ["issue", "10"].join(" ");
    const engineNote = "engine.md".toUpperCase().replace(".MD", ".md");
    const protocolNote = "protocol".toUpperCase();
    const planted = [
      `// the fix of ${issue} item 8`,
      `/** see ${engineNote} "Limits of the service" */`,
      `// ${protocolNote} §${"4.1"}: search params, and ${protocolNote}'s table`,
      `// ${["docs/ENGINE.md", "no-such-heading"].join("#")}`,
      "// docs/ENGINE.md#locks and docs/PROTOCOL.md#continuations: fine",
    ].join("\n");
    expect(citationProblems("x.ts", planted, docAnchors)).toEqual([
      `x.ts:1: cites an issue number (${issue})`,
      `x.ts:2: cites a design note outside docs/ (${engineNote.slice(0, -3)})`,
      `x.ts:3: cites a design note outside docs/ (${protocolNote})`,
      `x.ts:3: cites a design note outside docs/ (${protocolNote})`,
      `x.ts:3: cites a numbered section of a design note (${["§", "4.1"].join("")})`,
      "x.ts:4: docs/ENGINE.md has no heading #no-such-heading",
    ]);
  });
});

describe.each(DESIGN)("%s", (doc) => {
  const text = readFileSync(join(ROOT, doc), "utf8");

  it("names only files and folders that exist", () => {
    const paths = namedPaths(text);
    expect(paths.length).toBeGreaterThan(5);
    expect(paths.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });

  it("holds no command or program to run, only text", () => {
    expect(
      codeBlocks(text)
        .filter((b) => b.lang !== "text")
        .map((b) => `${doc}:${b.line} (${b.lang})`),
    ).toEqual([]);
  });
});

describe("a newcomer finds where to add things", () => {
  it("the README's map of the folders points at the architecture, which says where a source type goes", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const whereThingsLive = readme.slice(readme.indexOf("## Where things live"));
    expect(whereThingsLive).toContain("(docs/ARCHITECTURE.md)");
    const architecture = readFileSync(join(ROOT, "docs/ARCHITECTURE.md"), "utf8");
    expect([...headingAnchors(architecture)]).toEqual(
      expect.arrayContaining([
        "a-source-type",
        "a-pipeline-step",
        "a-target-type",
        "a-plan-action",
        "a-status-page-view",
        "an-emulator-endpoint",
      ]),
    );
  });
});
