/**
 * The commands keep V8's compiled code on disk between runs (cli/compile-cache.ts), where Node puts
 * it by default (under the temporary folder), and not when NODE_DISABLE_COMPILE_CACHE asks not to.
 * Two commands at once share the folder and both do their job.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
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
 * A temporary folder of the test's own, as the commands' os.tmpdir(); no cache folder named (Node
 * takes an empty NODE_COMPILE_CACHE as unset, but NODE_DISABLE_COMPILE_CACHE as set even when empty).
 */
function ownTmp(): Record<string, string> {
  tmp = mkdtempSync(join(tmpdir(), "compile-cache-"));
  return { TMPDIR: tmp, NODE_COMPILE_CACHE: "" };
}

describe("the compile cache", () => {
  it("a command's modules are compiled once into <tmpdir>/node-compile-cache", async () => {
    const env = ownTmp();
    expect(await musicsync(VALIDATE, env)).toMatchObject({ code: 0 });
    expect(filesUnder(join(tmp, "node-compile-cache")).length).toBeGreaterThan(0);
  }, 60_000);

  it("NODE_DISABLE_COMPILE_CACHE=1 leaves no cache", async () => {
    const env = { ...ownTmp(), NODE_DISABLE_COMPILE_CACHE: "1" };
    expect(await musicsync(VALIDATE, env)).toMatchObject({ code: 0 });
    expect(filesUnder(join(tmp, "node-compile-cache"))).toEqual([]);
  }, 60_000);

  it("commands started together share the folder, and the next run reads it", async () => {
    const env = ownTmp();
    const together = await Promise.all([1, 2, 3].map(() => musicsync(VALIDATE, env)));
    for (const r of together) expect(r).toMatchObject({ code: 0, stderr: "" });
    const again = await musicsync(VALIDATE, env);
    expect(again).toMatchObject({ code: 0, stdout: together[0]!.stdout });
    // No temporary file of a write left behind: each entry is named by its source's hash alone.
    expect(filesUnder(join(tmp, "node-compile-cache")).filter((f) => f.includes("."))).toEqual([]);
  }, 120_000);
});
