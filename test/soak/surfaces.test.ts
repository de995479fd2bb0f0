/**
 * The soak's own pieces for the surfaces, without a seed: the draw of the surfaces (apart from the main
 * story, each surface on its own runs), the files the soak writes for `file` sources (read back by
 * the engine as exactly the ids it chose: else its desired would be wrong), its reading of
 * `require_approval`, and the bound that lets go of a read stuck on a named pipe.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readEntries } from "../../engine/files/read.js";
import type { Plan } from "../../engine/plan/types.js";
import { overRule } from "./approval.js";
import { releasePipes, withinLimit } from "./file-attacks.js";
import { renderSourceFile } from "./source-files.js";
import { FILE_FORMATS, surfacesOf } from "./surfaces.js";

const shapes = [{ fileable: true }, { fileable: false }];

describe("the draw of the surfaces", () => {
  it("is the seed's: the same every time, and forcing one surface changes no other", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const plain = surfacesOf(seed, 5, new Set([2]), 3, shapes, { level: "all" });
      expect(surfacesOf(seed, 5, new Set([2]), 3, shapes, { level: "all" })).toEqual(plain);
      const forced = surfacesOf(seed, 5, new Set([2]), 3, shapes, { level: "all", force: { notify: true } });
      expect(forced.approval).toEqual(plain.approval);
      expect(forced.files).toEqual(plain.files);
      expect(forced.page).toEqual(plain.page);
    }
  });

  it("puts the page and the file attack on in-process runs apart from the hostile file's, each on a run of its own", () => {
    let pages = 0;
    let attacks = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const s = surfacesOf(seed, 5, new Set([2]), 3, shapes, { level: "all" });
      const taken = [s.page?.run, s.fileAttack?.run, s.savedPlan?.run, s.notify?.run].filter(
        (x) => x !== undefined,
      );
      expect(new Set(taken).size).toBe(taken.length);
      for (const run of [s.page?.run, s.fileAttack?.run, s.savedPlan?.run]) expect([2, 3]).not.toContain(run);
      expect(s.notify?.run).not.toBe(3);
      if (s.fileAttack) expect(s.files.has(s.fileAttack.recipe)).toBe(true);
      expect(s.files.has(1)).toBe(false);
      pages += s.page ? 1 : 0;
      attacks += s.fileAttack ? 1 : 0;
    }
    // About one seed in four of each: enough of them in a run of 40.
    expect(pages).toBeGreaterThan(40);
    expect(attacks).toBeGreaterThan(30);
  });

  it("draws nothing at level none, and no /dev/zero at level light", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const none = surfacesOf(seed, 4, new Set(), null, shapes, { level: "none", force: { page: true } });
      expect([none.page, none.fileAttack, none.notify, none.savedPlan]).toEqual([null, null, null, null]);
      expect(none.approval.size + none.files.size).toBe(0);
      expect(surfacesOf(seed, 4, new Set(), null, shapes, { level: "light" }).fileAttack?.kind).not.toBe(
        "dev-zero",
      );
    }
  });
});

describe("the files the soak writes for file sources", () => {
  it.each(FILE_FORMATS)("%s: the engine reads back exactly the ids, in order, duplicates kept", (format) => {
    const ids = ["Kyy8zbg2I-x", "8QxjTJGFmud", "25b3BR_5Ped", "8QxjTJGFmud"];
    const read = readEntries(Buffer.from(renderSourceFile(format, ids)), { fileName: `x.${format}`, format });
    expect(read.issues).toEqual([]);
    expect(read.entries.map((e) => e.videoId)).toEqual(ids);
  });
});

describe("the soak's reading of require_approval", () => {
  const plan = (remove: number, rows: number, unrate = 0) =>
    ({
      summary: { remove },
      target: { rows },
      actions: Array.from({ length: unrate }, () => ({ kind: "rate_song", rating: "INDIFFERENT" })),
    }) as unknown as Plan;

  it("holds more removals than allowed, or a larger share of the rows; never a plan that removes nothing", () => {
    expect(overRule(plan(3, 10), { removals: 2 })).toBe(true);
    expect(overRule(plan(2, 10), { removals: 2 })).toBe(false);
    expect(overRule(plan(0, 10, 1), { removals: 0 })).toBe(true);
    expect(overRule(plan(2, 10), { removals_percent: 19 })).toBe(true);
    expect(overRule(plan(2, 10), { removals_percent: 20 })).toBe(false);
    expect(overRule(plan(0, 0), { removals: 0, removals_percent: 0 })).toBe(false);
  });
});

describe("the bound on a read of an attacked file", () => {
  it("lets go of a read stuck opening a named pipe, and says it hung", async () => {
    const dir = await mkdtemp(join(tmpdir(), "soak-fifo-"));
    const pipe = join(dir, "list.csv");
    try {
      expect(spawnSync("mkfifo", [pipe]).status).toBe(0);
      const done = await withinLimit(readFile(pipe, "utf8"), () => releasePipes([pipe]), 200);
      expect(done).toMatchObject({ hung: true, settled: true, value: "" });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
