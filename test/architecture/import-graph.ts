/**
 * The project's import graph, read from the source text, and the rules its floors keep.
 *
 * Why a scan of the text rather than the compiler's graph: TypeScript 7 has no JavaScript compiler
 * API to ask, and the specifiers are all we need — under NodeNext every relative import names its
 * file (`./x.js` for `x.ts`), so resolving one is a rename, not a search. Comments are blanked
 * first so that an example in a doc comment is not taken for an import.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";

/** One import of one file by another, both relative to the project root in POSIX form. */
export interface ImportEdge {
  from: string;
  to: string;
  /** `import("…")`: loaded when first needed, not when the importing file loads. */
  lazy: boolean;
}

/** Blanks comments (keeping line breaks and string contents) so only code is searched. */
export function stripComments(text: string): string {
  let out = "";
  let i = 0;
  let quote: string | null = null;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (quote) {
      out += c;
      if (c === "\\") {
        out += next ?? "";
        i += 2;
        continue;
      }
      if (c === quote) quote = null;
      i += 1;
    } else if (c === "/" && next === "/") {
      while (i < text.length && text[i] !== "\n") i += 1;
    } else if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else {
      if (c === '"' || c === "'" || c === "`") quote = c;
      out += c;
      i += 1;
    }
  }
  return out;
}

// `import … from "x"`, `export … from "x"`, `import "x"`, `import("x")`. The `from` forms may span
// lines (a long list of names), hence [^;]*? rather than a single line.
const STATIC = /(?:^|[;\s}])(?:import|export)\s(?:[^;"'`]*?\sfrom\s*)?["']([^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The specifiers a file's code names, each with whether it is loaded lazily. */
export function specifiersOf(text: string): { specifier: string; lazy: boolean }[] {
  const code = stripComments(text);
  const found: { specifier: string; lazy: boolean }[] = [];
  for (const m of code.matchAll(STATIC)) found.push({ specifier: m[1]!, lazy: false });
  for (const m of code.matchAll(DYNAMIC)) found.push({ specifier: m[1]!, lazy: true });
  return found;
}

/** The project file a relative specifier names (`./x.js` → `dir/x.ts`), or null for a package. */
export function resolveSpecifier(
  from: string,
  specifier: string,
  exists: (path: string) => boolean,
): string | null {
  if (!specifier.startsWith(".")) return null;
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  for (const candidate of [target.replace(/\.js$/, ".ts"), target, `${target}.ts`, `${target}/index.ts`]) {
    if (candidate.endsWith(".ts") && exists(candidate)) return candidate;
  }
  return null;
}

function tsFilesUnder(root: string, folder: string): string[] {
  const dir = join(root, folder);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...tsFilesUnder(root, join(folder, name)));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts"))
      files.push(relative(root, path).split(sep).join("/"));
  }
  return files;
}

/** Every import between the project's .ts files under `folders` (files elsewhere are left out). */
export function readImportGraph(root: string, folders: readonly string[]): ImportEdge[] {
  return readImports(root, folders).edges;
}

/** A package (not a project file) one of the project's files imports: `commander`, `node:fs`. */
export interface PackageImport {
  from: string;
  name: string;
}

/** The project's imports: of its own files (`edges`) and of packages, each by the file naming it. */
export function readImports(
  root: string,
  folders: readonly string[],
): { edges: ImportEdge[]; packages: PackageImport[] } {
  const files = new Set(folders.flatMap((folder) => tsFilesUnder(root, folder)));
  const edges: ImportEdge[] = [];
  const packages: PackageImport[] = [];
  for (const from of [...files].sort()) {
    for (const { specifier, lazy } of specifiersOf(readFileSync(join(root, from), "utf8"))) {
      const to = resolveSpecifier(from, specifier, (path) => files.has(path));
      if (to !== null) edges.push({ from, to, lazy });
      else if (!specifier.startsWith(".")) packages.push({ from, name: specifier });
    }
  }
  return { edges, packages };
}

/**
 * The floors, bottom to top. A file may import its own floor's files and what stands below, with
 * the narrowing that emulator and engine see the client only through its public entry.
 */
export type Floor = "shared" | "src" | "emulator" | "engine" | "cli";

/** The command-line programs, at the top, in a folder of their own. */
const CLI_FOLDER = "cli/";

export function floorOf(file: string): Floor | null {
  if (file.startsWith(CLI_FOLDER)) return "cli";
  const top = file.slice(0, file.indexOf("/"));
  return top === "shared" || top === "src" || top === "emulator" || top === "engine" ? top : null;
}

/**
 * The one crossing between the middle floors: the engine's demo and an account with `emulator:`
 * start the emulator in-process. Lazy, so no command but those loads it.
 */
export const LAZY_CROSSINGS: readonly { from: string; to: string }[] = [
  { from: "engine/demo/demo.ts", to: "emulator/index.ts" },
  { from: "engine/run/emulator-account.ts", to: "emulator/index.ts" },
];

const CLIENT_ENTRY = "src/index.ts";

/** Why `edge` runs up or sideways through the floors, or null when it goes down (or stays). */
export function floorBreach(edge: ImportEdge): string | null {
  const from = floorOf(edge.from);
  const to = floorOf(edge.to);
  if (from === null || to === null || from === "cli") return null;
  if (from === to) return null;
  if (to === "shared") return null;
  if (from === "shared")
    return `${edge.from} (shared) imports ${edge.to}: the shared module imports nothing above it`;
  if (from === "src")
    return `${edge.from} (client) imports ${edge.to} (${to}): the client imports nothing above it`;
  if (to === "src") {
    return edge.to === CLIENT_ENTRY
      ? null
      : `${edge.from} (${from}) imports ${edge.to}: ${from} uses the client only through ${CLIENT_ENTRY}`;
  }
  if (to === "cli") return `${edge.from} (${from}) imports ${edge.to}: nothing imports the programs`;
  const allowed = LAZY_CROSSINGS.some((c) => c.from === edge.from && c.to === edge.to);
  if (allowed && edge.lazy) return null;
  if (allowed)
    return `${edge.from} imports ${edge.to} eagerly: the emulator may only be loaded lazily, with import()`;
  return `${edge.from} (${from}) imports ${edge.to} (${to}): emulator and engine do not import each other`;
}

/**
 * Packages only the programs may import: the command-line parser. Below cli/ a module is called
 * with values, never with a command line, so that the engine and the client work the same from a
 * program of the user's own.
 */
export const PROGRAM_PACKAGES: readonly string[] = ["commander"];

/** Why `use` is not allowed where it stands, or null. */
export function packageBreach(use: PackageImport): string | null {
  const floor = floorOf(use.from);
  if (floor === null || floor === "cli") return null;
  const name = use.name.split("/")[0] ?? use.name;
  return PROGRAM_PACKAGES.includes(name)
    ? `${use.from} (${floor}) imports ${use.name}: only the programs in cli/ parse command lines`
    : null;
}

/** The circles of files importing each other (strongly connected groups of two or more, or a self-import). */
export function importCircles(edges: readonly ImportEdge[]): string[][] {
  return stronglyConnected(edges);
}

/** The groups of nodes that reach each other through `edges`: two or more, or one that names itself. */
function stronglyConnected(edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  for (const root of [...next.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { node: string; child: number }[] = [{ node: root, child: 0 }];
    index.set(root, index.size);
    low.set(root, index.get(root)!);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const children = next.get(top.node) ?? [];
      if (top.child < children.length) {
        const child = children[top.child++]!;
        if (!index.has(child)) {
          index.set(child, index.size);
          low.set(child, index.get(child)!);
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, child: 0 });
        } else if (onStack.has(child)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(child)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== top.node);
      const selfImport = children.includes(top.node);
      if (group.length > 1 || selfImport) circles.push(group.sort());
    }
  }
  return circles;
}

/**
 * The two places an import runs between, seen where its two paths part: `engine/run/a.ts` →
 * `engine/state/pg/b.ts` runs from engine/run to engine/state; `engine/run/a.ts` →
 * `engine/relay.ts` from engine/run to the file engine/relay.ts, a file of the folder above them.
 * Null for an import within one folder.
 */
export function folderStep(edge: { from: string; to: string }): { from: string; to: string } | null {
  const a = edge.from.split("/");
  const b = edge.to.split("/");
  let i = 0;
  while (i < a.length - 1 && i < b.length - 1 && a[i] === b[i]) i += 1;
  if (i >= a.length - 1 && i >= b.length - 1) return null;
  return { from: a.slice(0, i + 1).join("/"), to: b.slice(0, i + 1).join("/") };
}

const isFile = (place: string) => place.endsWith(".ts");

/**
 * The loops of folders importing each other: each a group of places (sorted) with, for each step
 * inside the group, one import that makes it. A group counts when it holds two folders or more:
 * a folder and its parent's own files may lean on each other (a part on its folder's shared
 * files, as a file circle would show), but a ring of sibling folders is a loop even when it runs
 * through such a file. The code has none; a loop is broken by moving what the step against the
 * folders' order imports down to the folder that uses it.
 */
export function folderLoops(edges: readonly ImportEdge[]): { folders: string[]; through: string[] }[] {
  const steps = new Map<string, { from: string; to: string; via: string }>();
  for (const edge of edges) {
    const step = folderStep(edge);
    if (step === null) continue;
    const key = `${step.from} → ${step.to}`;
    if (!steps.has(key)) steps.set(key, { ...step, via: `${edge.from} → ${edge.to}` });
  }
  return stronglyConnected([...steps.values()])
    .filter((places) => places.filter((p) => !isFile(p)).length >= 2)
    .map((folders) => ({
      folders,
      through: [...steps.values()]
        .filter((s) => folders.includes(s.from) && folders.includes(s.to))
        .map((s) => s.via)
        .sort(),
    }));
}

/** The project's folders the floors speak of. */
export const FLOOR_FOLDERS = ["shared", "src", "emulator", "engine", "cli"] as const;
