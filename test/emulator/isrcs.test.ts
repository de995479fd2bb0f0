/**
 * Songs' ISRCs (docs/PROTOCOL.md#search): drawn from the seed, one per recording, shared by an
 * official video or not there; a search for exactly one finds that song alone, read through the
 * real MusicClient. A catalogue made before ISRCs gets the same ones on its next start.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ISRC } from "../../emulator/catalogue/isrcs.js";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { MusicClient } from "../../src/index.js";

let emu: RunningEmulator;
let client: MusicClient;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 400, seed: 7 });
  client = new MusicClient({ baseUrl: emu.url, retry: false });
});
afterAll(() => emu.stop());

interface Row {
  id: number;
  videoId: string;
  videoType: string;
  isrc: string | null;
  counterpartIsrc: string | null;
}

const songs = (e: RunningEmulator) =>
  e.state.store.db.$client
    .prepare(
      `SELECT s.id, s.video_id AS videoId, s.video_type AS videoType, s.isrc, c.isrc AS counterpartIsrc
       FROM songs s LEFT JOIN songs c ON c.video_id = s.counterpart_id ORDER BY s.id`,
    )
    .all() as Row[];

describe("songs' ISRCs", () => {
  it("are 12 characters, one per recording; most songs have one, an official video shares its song's or has none", () => {
    const rows = songs(emu);
    const audio = rows.filter((r) => r.videoType === "MUSIC_VIDEO_TYPE_ATV");
    const withCode = audio.filter((r) => r.isrc !== null);
    for (const r of withCode) expect(r.isrc).toMatch(ISRC);
    expect(new Set(withCode.map((r) => r.isrc)).size).toBe(withCode.length);
    expect(withCode.length / audio.length).toBeGreaterThan(0.85);
    expect(withCode.length).toBeLessThan(audio.length);
    const videos = rows.filter((r) => r.videoType === "MUSIC_VIDEO_TYPE_OMV");
    for (const v of videos) if (v.isrc !== null) expect(v.isrc).toBe(v.counterpartIsrc);
    expect(videos.some((v) => v.isrc !== null)).toBe(true);
    expect(videos.some((v) => v.isrc === null && v.counterpartIsrc !== null)).toBe(true);
    for (const u of rows.filter((r) => r.videoType === "MUSIC_VIDEO_TYPE_UGC")) expect(u.isrc).toBeNull();
  });

  it("are the same for the same seed, and a catalogue made without them gets those on its next start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "isrcs-"));
    try {
      const db = join(dir, "emulator.db");
      const first = await startEmulator({ catalogueSize: 400, seed: 7, db });
      first.state.store.db.$client.exec("UPDATE songs SET isrc = NULL; DELETE FROM meta WHERE key = 'isrcs'");
      await first.stop();
      const again = await startEmulator({ catalogueSize: 400, seed: 7, db });
      try {
        expect(songs(again)).toEqual(songs(emu));
      } finally {
        await again.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a search for exactly one finds that song alone, filtered or not, in any case", async () => {
    const picked = songs(emu).find(
      (r) => r.videoType === "MUSIC_VIDEO_TYPE_ATV" && r.counterpartIsrc === null && r.isrc,
    );
    const isrc = picked!.isrc!;
    const filtered = await client.search(isrc.toLowerCase(), { filter: "songs" });
    expect(filtered.map((r) => r.videoId)).toEqual([picked!.videoId]);
    const all = await client.search(isrc);
    expect(new Set(all.map((r) => r.videoId))).toEqual(new Set([picked!.videoId]));
    expect(await client.search(isrc, { filter: "videos" })).toEqual([]);
  });

  it("an ISRC no song has is searched as words (and finds nothing)", async () => {
    const known = new Set(songs(emu).map((r) => r.isrc));
    let free = "ZZ0000000000";
    for (let i = 1; known.has(free); i++) free = `ZZ00000${String(i).padStart(5, "0")}`;
    expect(await client.search(free, { filter: "songs" })).toEqual([]);
  });
});
