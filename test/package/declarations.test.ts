/**
 * The published declarations stand on their own. A person who installs the package and imports
 * `musicapi`, `musicapi/engine` or `musicapi/emulator` in a strict TypeScript project, without
 * `skipLibCheck`, gets no errors: the declaration files those entry points reach name only Node's
 * modules and runtime dependencies that carry their own types, and none of drizzle's (whose own
 * declarations do not check without `skipLibCheck`) or better-sqlite3's and pg's (typed by
 * @types packages that are our devDependencies).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/cli-process.js";
import { writeConsumerProject } from "./consumer-project.js";

interface PackageJson {
  dependencies: Record<string, string>;
  exports: Record<string, { types: string }>;
}

const PKG = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as PackageJson;

/** Every module specifier a declaration file imports or re-exports. */
function specifiersOf(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/^\/\/\/\s*<reference\s+types="([^"]+)"/gm)) found.add(`@types/${m[1]}`);
  // Documentation comments quote words as `from "…"` too.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)"([^"]+)"/gm)) found.add(m[1]!);
  return [...found];
}

/** The declaration files reachable from the entries, and the packages each bare import names. */
function reachable(entries: string[]): { files: string[]; bare: Map<string, string[]> } {
  const seen = new Set<string>();
  const bare = new Map<string, string[]>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of specifiersOf(readFileSync(file, "utf8"))) {
      if (spec.startsWith(".")) {
        queue.push(join(dirname(file), spec.replace(/\.js$/, ".d.ts")));
        continue;
      }
      const importers = bare.get(spec) ?? [];
      importers.push(relative(ROOT, file));
      bare.set(spec, importers);
    }
  }
  return { files: [...seen], bare };
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return parts.slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
}

/** Whether an installed package ships declarations of its own (no @types package needed). */
function shipsOwnTypes(name: string): boolean {
  const file = join(ROOT, "node_modules", name, "package.json");
  if (!existsSync(file)) return false;
  const pkg = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  return Boolean(pkg.types ?? pkg.typings) || JSON.stringify(pkg.exports ?? {}).includes('"types"');
}

const ENTRIES = Object.values(PKG.exports).map((e) => join(ROOT, e.types));
/** Dependencies with declarations of their own that do not check without skipLibCheck. */
const FAIL_LIB_CHECK = new Set(["drizzle-orm"]);

describe("the published declarations", () => {
  it("reach only node: modules and runtime dependencies with their own types", () => {
    for (const entry of ENTRIES) expect(existsSync(entry), `${entry} (run npm run build)`).toBe(true);
    const { bare } = reachable(ENTRIES);
    const unfit: string[] = [];
    for (const [spec, importers] of bare) {
      // Node's own modules: a Node project has @types/node (the consumer project reads it too).
      if (spec.startsWith("node:") || spec === "@types/node") continue;
      const name = packageOf(spec);
      const why = !(name in PKG.dependencies)
        ? "not a dependency"
        : !shipsOwnTypes(name)
          ? "typed only by an @types devDependency"
          : FAIL_LIB_CHECK.has(name)
            ? "its declarations fail without skipLibCheck"
            : null;
      if (why) unfit.push(`${spec} (${why}), imported by ${[...new Set(importers)].join(", ")}`);
    }
    expect(unfit).toEqual([]);
  });

  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it("type-check in a fresh strict project without skipLibCheck", { timeout: 180_000 }, async () => {
    // Inside the clone (tmp/ is git-ignored) so that `types: ["node"]` finds @types/node above it,
    // as a Node project has it; the package itself is linked in as an installed one is.
    await mkdir(join(ROOT, "tmp"), { recursive: true });
    const dir = await mkdtemp(join(ROOT, "tmp", "consumer-"));
    dirs.push(dir);
    writeConsumerProject(dir);
    await mkdir(join(dir, "node_modules"));
    await symlink(ROOT, join(dir, "node_modules", "musicapi"), "dir");
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    const r = spawnSync(process.execPath, [tsc, "-p", dir], { cwd: dir, encoding: "utf8", timeout: 170_000 });
    const errors = `${r.stdout}${r.stderr}`.split("\n").filter((l) => l.includes("error TS"));
    expect({ status: r.status, errors: errors.slice(0, 20), count: errors.length }).toEqual({
      status: 0,
      errors: [],
      count: 0,
    });
  });
});
