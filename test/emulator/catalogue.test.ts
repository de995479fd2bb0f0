import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateCatalogue } from "../../emulator/catalogue.js";
import { startEmulator } from "../../emulator/index.js";
import { type Db, migrationsFolder, openDb } from "../../emulator/store/db.js";

function digest(seed: number, size: number): string {
  const db = openDb(":memory:");
  generateCatalogue(db, { seed, size });
  const d = digestOf(db);
  db.$client.close();
  return d;
}

/** Every row of the catalogue's tables, hashed in order. */
function digestOf(db: Db): string {
  const h = createHash("sha256");
  for (const table of [
    "artists",
    "albums",
    "songs",
    "playlists",
    "playlist_items",
    "podcasts",
    "episodes",
    "charts",
    "mood_categories",
    "accounts",
  ]) {
    for (const row of db.$client.prepare(`SELECT * FROM ${table} ORDER BY rowid`).iterate())
      h.update(JSON.stringify(row));
  }
  return h.digest("hex");
}

describe("catalogue", () => {
  it("is the same for the same seed and size, and differs for another seed", () => {
    expect(digest(9, 300)).toBe(digest(9, 300));
    expect(digest(9, 300)).not.toBe(digest(10, 300));
  });

  it("has the promised variety", () => {
    const db = openDb(":memory:");
    const s = generateCatalogue(db, { seed: 2, size: 400 });
    expect(s.songs).toBe(400);
    const q = (sql: string) => (db.$client.prepare(sql).get() as { n: number }).n;
    expect(q("SELECT count(*) AS n FROM songs WHERE explicit = 1")).toBeGreaterThan(0);
    expect(q("SELECT count(*) AS n FROM songs WHERE available = 0")).toBeGreaterThan(0);
    expect(
      q(
        "SELECT count(*) AS n FROM songs WHERE video_type = 'MUSIC_VIDEO_TYPE_OMV' AND counterpart_id IS NOT NULL",
      ),
    ).toBeGreaterThan(0);
    expect(q("SELECT count(*) AS n FROM albums WHERE type = 'Single'")).toBeGreaterThan(0);
    // The 2026 charts layout: no genre charts, top albums in every country.
    expect(q("SELECT count(*) AS n FROM charts WHERE section = 'genres'")).toBe(0);
    expect(q("SELECT count(*) AS n FROM charts WHERE country = 'US' AND section = 'albums'")).toBeGreaterThan(
      0,
    );
    expect(q("SELECT count(*) AS n FROM episodes")).toBeGreaterThan(0);
    expect(
      q(
        "SELECT count(*) AS n FROM (SELECT playlist_id FROM playlist_items GROUP BY playlist_id HAVING count(*) > 100)",
      ),
    ).toBeGreaterThan(0);
    db.$client.close();
  });

  it("finds the migrations folder from the source tree", () => {
    expect(migrationsFolder()).toMatch(/migrations[/\\]emulator$/);
  });

  it("in memory, started again with the same seed and size: the same catalogue, copied, in a database of its own", async () => {
    const first = await startEmulator({ seed: 7, catalogueSize: 120 });
    const second = await startEmulator({ seed: 7, catalogueSize: 120 });
    const other = await startEmulator({ seed: 8, catalogueSize: 120 });
    try {
      expect(second.catalogue).toEqual(first.catalogue);
      expect(first.catalogue?.songs).toBe(120);
      const fresh = digest(7, 120);
      expect(digestOf(second.state.store.db)).toBe(fresh);
      expect(digestOf(other.state.store.db)).toBe(digest(8, 120));
      // The copy is the second's own: a write to the first is not in it, nor in a third.
      first.state.store.sqlite
        .prepare("INSERT INTO history (account_id, video_id, played_at) VALUES (1, 'x', 1)")
        .run();
      const played = (e: typeof first) =>
        (
          e.state.store.sqlite.prepare("SELECT count(*) AS n FROM history WHERE video_id = 'x'").get() as {
            n: number;
          }
        ).n;
      expect(played(first)).toBe(1);
      expect(played(second)).toBe(0);
      const third = await startEmulator({ seed: 7, catalogueSize: 120 });
      try {
        expect(played(third)).toBe(0);
        expect(digestOf(third.state.store.db)).toBe(fresh);
        // Opened as a generated one is: foreign keys off (the stores rely on it).
        expect(third.state.store.sqlite.pragma("foreign_keys", { simple: true })).toBe(0);
      } finally {
        await third.stop();
      }
    } finally {
      for (const e of [first, second, other]) await e.stop();
    }
  });

  it("keeps state in a database file across restarts and refuses another seed on it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-"));
    try {
      const file = join(dir, "state.db");
      const first = await startEmulator({ db: file, seed: 4, catalogueSize: 100 });
      expect(first.catalogue).not.toBeNull();
      first.state.store.sqlite
        .prepare("INSERT INTO history (account_id, video_id, played_at) VALUES (1, 'x', 1)")
        .run();
      await first.stop();
      const second = await startEmulator({ db: file, seed: 4, catalogueSize: 100 });
      expect(second.catalogue).toBeNull();
      expect(
        (
          second.state.store.sqlite
            .prepare("SELECT count(*) AS n FROM history WHERE video_id = 'x'")
            .get() as {
            n: number;
          }
        ).n,
      ).toBe(1);
      await second.stop();
      await expect(startEmulator({ db: file, seed: 5, catalogueSize: 100 })).rejects.toThrow(/seed 4/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("band names", () => {
  it("are plural as English makes them: no 'Lightss', 'Wolvess' or 'Citys'", async () => {
    const { artistName } = await import("../../emulator/catalogue/names.js");
    const { Rng } = await import("../../emulator/random.js");
    const bands: string[] = [];
    for (let seed = 1; seed <= 40; seed++) {
      const r = new Rng(seed);
      for (let i = 0; i < 100; i++) {
        const name = artistName(r);
        if (/(^| & )The /.test(name)) bands.push(name);
      }
    }
    expect(bands.length).toBeGreaterThan(500);
    expect(bands.filter((b) => /(ss|[^aeiou]ys)$/.test(b))).toEqual([]);
    expect(bands.some((b) => b.endsWith("Lights") || b.endsWith("Wolves") || b.endsWith("Voices"))).toBe(
      true,
    );
  });
});
