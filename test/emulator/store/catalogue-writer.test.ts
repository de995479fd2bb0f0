import { afterEach, describe, expect, it } from "vitest";
import { generateCatalogue, hasCatalogue } from "../../../emulator/catalogue.js";
import { type Db, openDb } from "../../../emulator/store/db.js";
import { CatalogueWriter } from "../../../emulator/store/seed.js";

const song = {
  videoId: "v1",
  title: "A Song",
  artistId: 1,
  albumId: null,
  trackNumber: null,
  durationSeconds: 200,
  views: 10,
  videoType: "MUSIC_VIDEO_TYPE_ATV",
  counterpartId: null,
  lyricsSource: null,
  searchText: "a song",
  featuredArtistId: null,
  latinTitle: null,
  lookalike: null,
  variantOf: null,
};

describe("catalogue writer", () => {
  let db: Db;
  afterEach(() => db?.$client.close());

  it("binds each column where drizzle put it, booleans as 0 and 1, nulls as NULL", () => {
    db = openDb(":memory:");
    const write = new CatalogueWriter(db);
    write.song({ ...song, id: 7, explicit: true, available: false });
    write.song({ ...song, id: 8, videoId: "v2", explicit: false, available: true, albumId: 3 });
    expect(
      db.$client
        .prepare("SELECT id, video_id, album_id, explicit, available, lyrics_source FROM songs ORDER BY id")
        .all(),
    ).toEqual([
      { id: 7, video_id: "v1", album_id: null, explicit: 1, available: 0, lyrics_source: null },
      { id: 8, video_id: "v2", album_id: 3, explicit: 0, available: 1, lyrics_source: null },
    ]);
  });

  it("numbers rows the table numbers itself, and skips a second library entry or rating of a target", () => {
    db = openDb(":memory:");
    const write = new CatalogueWriter(db);
    for (const targetId of ["a", "b", "a"]) {
      write.libraryItem({ accountId: 1, kind: "song", targetId, addedAt: 1 });
      write.rating({ accountId: 1, kind: "song", targetId, rating: "LIKE", updatedAt: 1 });
    }
    const rows = (table: string) =>
      db.$client.prepare(`SELECT id, target_id AS t FROM ${table} ORDER BY id`).all();
    expect(rows("library_items")).toEqual([
      { id: 1, t: "a" },
      { id: 2, t: "b" },
    ]);
    expect(rows("ratings")).toEqual([
      { id: 1, t: "a" },
      { id: 2, t: "b" },
    ]);
  });

  it("records the catalogue's seed and size, on a drizzle database or its raw handle", () => {
    db = openDb(":memory:");
    expect(hasCatalogue(db, { seed: 3, size: 20 })).toBe(false);
    generateCatalogue(db, { seed: 3, size: 20 });
    expect(hasCatalogue(db, { seed: 3, size: 20 })).toBe(true);
    expect(() => hasCatalogue(db, { seed: 3, size: 21 })).toThrow(/seed 3 size 20/);
  });
});
