/**
 * What `npm pack` puts in the tarball a person installs: the built library and commands, the
 * recipes and their schemas, the migrations the commands apply, the README and the LICENSE — and
 * nothing else: no tests, no source maps pointing at sources the package does not hold, no files a
 * removed source left in dist/ (prepack empties it). The package says where it comes from and under which licence.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/cli-process.js";

interface Packed {
  files: { path: string }[];
}

interface PackageJson {
  license: string;
  repository: { type: string; url: string };
  homepage: string;
  bugs: { url: string };
  bin: Record<string, string>;
  files: string[];
  exports: Record<string, { types: string; default: string }>;
  scripts: Record<string, string>;
}

const PKG = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as PackageJson;
const REPO = "https://github.com/musicapi/musicapi";

/** The paths `npm pack` would pack from dist/ as it is now (global-setup built it). */
function packedPaths(): string[] {
  // --ignore-scripts: list what is there, without building again.
  const r = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`npm pack --dry-run exited ${r.status}: ${r.stderr}`);
  const [packed] = JSON.parse(r.stdout) as Packed[];
  return packed!.files.map((f) => f.path).sort();
}

describe("the packed tarball", () => {
  let paths: string[];
  beforeAll(() => {
    paths = packedPaths();
  });

  it("holds the built code, recipes, migrations, README, the guides and LICENSE, and nothing else", () => {
    const allowed =
      /^(dist\/(shared|src|engine|emulator|bin)\/|recipes\/|migrations\/|docs\/[\w-]+\.(md|png)$)|^(package\.json|README\.md|LICENSE)$/;
    expect(paths.filter((p) => !allowed.test(p))).toEqual([]);
    // The README links to the guides: shipped with it, so its links lead somewhere in the package too.
    for (const p of ["package.json", "README.md", "LICENSE", "recipes/recipe.schema.json", "docs/recipes.md"])
      expect(paths).toContain(p);
    expect(paths.filter((p) => /(^|\/)test\/|\.test\.|\/fixtures?\//.test(p))).toEqual([]);
  });

  it("ships no source maps, and no file names a map", () => {
    expect(paths.filter((p) => p.endsWith(".map"))).toEqual([]);
    const naming = paths.filter(
      (p) => /\.(js|d\.ts)$/.test(p) && readFileSync(join(ROOT, p), "utf8").includes("sourceMappingURL="),
    );
    expect(naming).toEqual([]);
  });

  it("ships what bin and exports name, and the migrations the commands apply", () => {
    for (const target of Object.values(PKG.bin)) expect(paths).toContain(target.replace(/^\.\//, ""));
    for (const e of Object.values(PKG.exports))
      for (const target of [e.types, e.default]) expect(paths).toContain(target.replace(/^\.\//, ""));
    for (const db of ["emulator", "engine", "engine-pg"]) {
      expect(paths).toContain(`migrations/${db}/meta/_journal.json`);
      expect(paths.some((p) => p.startsWith(`migrations/${db}/`) && p.endsWith(".sql"))).toBe(true);
    }
    // drizzle-kit's snapshots serve generating migrations, not applying them.
    expect(paths.filter((p) => p.endsWith("_snapshot.json"))).toEqual([]);
  });

  it("has a LICENSE as package.json says, and says where the project lives", () => {
    expect(PKG.license).toBe("MIT");
    const license = readFileSync(join(ROOT, "LICENSE"), "utf8");
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the musicapi authors\n/);
    expect(license).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
    expect(PKG.repository).toEqual({ type: "git", url: `git+${REPO}.git` });
    expect(PKG.homepage).toBe(`${REPO}#readme`);
    expect(PKG.bugs).toEqual({ url: `${REPO}/issues` });
  });

  it("never packs a stray file: credentials, state databases or drafts beside the shipped ones", async () => {
    // The same `files` rules over a tree where a person left what the README has them make.
    const dir = await mkdtemp(join(tmpdir(), "pack-strays-"));
    try {
      const shipped = [
        "dist/src/index.js",
        "dist/src/index.d.ts",
        "dist/bin/musicsync.js",
        "recipes/chart-mirror.yaml",
        "recipes/recipe.schema.json",
        "recipes/README.md",
        "migrations/engine/0000_init.sql",
        "migrations/engine/meta/_journal.json",
      ];
      const strays = [
        "dist/bin/musicsync.js.map",
        "recipes/browser.json",
        "recipes/oauth.json",
        "recipes/.env",
        "recipes/musicsync.db",
        "recipes/my-music/musicsync.yaml",
        "migrations/engine/meta/0000_snapshot.json",
        "migrations/engine/scratch.db",
        "browser.json",
        "test/pack.test.ts",
      ];
      for (const f of [...shipped, ...strays]) {
        await mkdir(dirname(join(dir, f)), { recursive: true });
        await writeFile(join(dir, f), "x");
      }
      await writeFile(
        join(dir, "package.json"),
        JSON.stringify({ name: "x", version: "1.0.0", files: PKG.files }),
      );
      const r = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: dir,
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(r.status, r.stderr).toBe(0);
      const [packed] = JSON.parse(r.stdout) as Packed[];
      const paths = packed!.files.map((f) => f.path).sort();
      expect(paths).toEqual([...shipped, "package.json"].sort());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("packs a dist/ built afresh: prepack empties it, then prepare builds it", async () => {
    // A file a removed source left in dist/ would otherwise be packed.
    expect(PKG.scripts.prepare).toBe("npm run build");
    const dir = await mkdtemp(join(tmpdir(), "prepack-"));
    try {
      await writeFile(
        join(dir, "package.json"),
        JSON.stringify({ name: "x", scripts: { prepack: PKG.scripts.prepack } }),
      );
      await mkdir(join(dir, "dist", "src"), { recursive: true });
      await writeFile(join(dir, "dist", "src", "removed.js"), "");
      const r = spawnSync("npm", ["run", "prepack"], { cwd: dir, encoding: "utf8", timeout: 30_000 });
      expect(r.status, r.stderr).toBe(0);
      expect(existsSync(join(dir, "dist"))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
