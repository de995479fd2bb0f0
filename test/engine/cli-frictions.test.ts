/**
 * Issue 23's command-line frictions, against the compiled `musicsync` and an emulator: skipped
 * items said once per reason, `sync --quiet` and `-v`.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, musicsync } from "./cli-process.js";
import { catalogueSongs, type Harness, startHarness } from "./sync-harness.js";

beforeAll(() => ensureBuilt(), 180_000);

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

/** A recipe of `ids` that keeps the first `limit` of them. */
function limitedRecipe(id: string, ids: readonly string[], limit: number): string {
  return [
    "apiVersion: musicsync/v1",
    "kind: Recipe",
    `id: ${id}`,
    "sources:",
    `  - { id: list, type: static, videoIds: [${ids.join(", ")}] }`,
    "pipeline:",
    `  - limit: ${limit}`,
    "target:",
    "  type: playlist",
    `  playlist: { title: "${id}", privacy: PRIVATE }`,
    "",
  ].join("\n");
}

describe("skipped items and --quiet", () => {
  it("says a limit's dropped items in one line (-v lists each); sync --quiet leaves out what has nothing to do", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 12);
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeFile(join(h.dir, "recipes", "top.yaml"), limitedRecipe("top", songs, 4));
    const p = ["-p", h.projectFile];
    const dry = await musicsync(["sync", "--dry-run", ...p]);
    expect(dry.code).toBe(2);
    const skips = dry.stdout.split("\n").filter((l) => l.includes("! skip"));
    expect(skips).toHaveLength(1);
    expect(skips[0]).toMatch(
      /^ {2}! skip 8 items \(over the limit of 4\): [^;]+; [^;]+; [^;]+; … \(-v lists each\)$/,
    );
    const verbose = await musicsync(["sync", "--dry-run", "-v", ...p]);
    expect(verbose.stdout.split("\n").filter((l) => l.endsWith("(over the limit of 4)"))).toHaveLength(8);

    expect((await musicsync(["sync", ...p])).code).toBe(0);
    const again = await musicsync(["sync", "--quiet", ...p]);
    expect(again).toMatchObject({ code: 0, stdout: "No changes.\n" });
    // A recipe with something to do is shown whole; the settled one is left out.
    await writeFile(join(h.dir, "recipes", "more.yaml"), limitedRecipe("more", songs.slice(0, 2), 5));
    const one = await musicsync(["sync", "--quiet", ...p]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^more: playlist "more" \(new\) \[sync\]$/m);
    expect(one.stdout).toMatch(/^more: Applied: /m);
    expect(one.stdout).not.toMatch(/^top/m);
  }, 120_000);
});
