/**
 * The commands keep V8's compiled code on disk between runs (cli/compile-cache.ts): in the user's
 * cache folder (never the temporary folder other users share), in NODE_COMPILE_CACHE's when set,
 * and nowhere when NODE_DISABLE_COMPILE_CACHE asks. Commands started together share the folder and
 * all do their job.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compileCacheFolder } from "../../cli/compile-cache.js";
import { musicsync, ROOT } from "../support/cli-process.js";

const VALIDATE = ["validate", "-p", join(ROOT, "examples/musicsync.yaml"), join(ROOT, "recipes")];

/** Every file under `dir`, at any depth. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

let tmp = "";
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * A folder of the test's own as the commands' temporary folder, home and cache folder; no cache
 * folder named (Node takes an empty NODE_COMPILE_CACHE as unset, but NODE_DISABLE_COMPILE_CACHE as
 * set even when empty, so that one is left as it is).
 */
function ownFolders(): Record<string, string> {
  tmp = mkdtempSync(join(tmpdir(), "compile-cache-"));
  return {
    TMPDIR: join(tmp, "tmp"),
    HOME: join(tmp, "home"),
    XDG_CACHE_HOME: join(tmp, "cache"),
    NODE_COMPILE_CACHE: "",
  };
}

describe("where the compile cache lives", () => {
  it("the user's cache folder, else ~/.cache; NODE_COMPILE_CACHE's when set", () => {
    expect(compileCacheFolder({ XDG_CACHE_HOME: "/c" }, "/h")).toBe("/c/musicsync/compile-cache");
    expect(compileCacheFolder({}, "/h")).toBe("/h/.cache/musicsync/compile-cache");
    expect(compileCacheFolder({ XDG_CACHE_HOME: "" }, "/h")).toBe("/h/.cache/musicsync/compile-cache");
    expect(compileCacheFolder({ NODE_COMPILE_CACHE: "/n", XDG_CACHE_HOME: "/c" }, "/h")).toBeUndefined();
  });
});

describe("the compile cache", () => {
  it("a command's modules are compiled once into the user's cache folder, nothing into the temporary one", async () => {
    const env = ownFolders();
    expect(await musicsync(VALIDATE, env)).toMatchObject({ code: 0 });
    expect(filesUnder(join(tmp, "cache", "musicsync", "compile-cache")).length).toBeGreaterThan(0);
    expect(filesUnder(join(tmp, "tmp"))).toEqual([]);
  });

  it("NODE_COMPILE_CACHE names the folder; NODE_DISABLE_COMPILE_CACHE=1 leaves no cache", async () => {
    const env = ownFolders();
    expect(await musicsync(VALIDATE, { ...env, NODE_COMPILE_CACHE: join(tmp, "named") })).toMatchObject({
      code: 0,
    });
    expect(filesUnder(join(tmp, "named")).length).toBeGreaterThan(0);
    expect(await musicsync(VALIDATE, { ...env, NODE_DISABLE_COMPILE_CACHE: "1" })).toMatchObject({ code: 0 });
    expect(filesUnder(join(tmp, "cache"))).toEqual([]);
  });

  it("commands started together share the folder, and the next run reads it", async () => {
    const env = ownFolders();
    const together = await Promise.all([1, 2, 3].map(() => musicsync(VALIDATE, env)));
    for (const r of together) expect(r).toMatchObject({ code: 0, stderr: "" });
    const again = await musicsync(VALIDATE, env);
    expect(again).toMatchObject({ code: 0, stdout: together[0]!.stdout });
    // No temporary file of a write left behind: each entry is named by its source's hash alone.
    const entries = filesUnder(join(tmp, "cache"));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.filter((f) => f.includes("."))).toEqual([]);
  });

  it("a cache folder that cannot be made costs nothing but the cache", async () => {
    const env = ownFolders();
    // The cache folder's place is taken by a file: Node cannot make the folder, and says nothing.
    writeFileSync(join(tmp, "cache"), "not a folder");
    const r = await musicsync(VALIDATE, env);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toContain("valid");
  });
});
