/**
 * The catalogue holds what makes matching songs by search hard on the real service (docs/ENGINE.md#sources):
 * versions, covers and karaoke takes that a search for the original lists too, sometimes above it;
 * titles in other scripts found by their Latin spelling; songs with two artists. Read through the
 * real MusicClient; the songs to look for are picked from the emulator's database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { TITLE_BONUS } from "../../emulator/store/song-search.js";
import { MusicClient } from "../../src/index.js";

let emu: RunningEmulator;
let client: MusicClient;

interface Pick {
  videoId: string;
  title: string;
  artist: string;
}

beforeAll(async () => {
  emu = await startEmulator();
  client = new MusicClient({ baseUrl: emu.url, retry: false });
});
afterAll(() => emu.stop());

const rows = <T>(sql: string): T[] => emu.state.store.db.$client.prepare(sql).all() as T[];
const songIds = async (query: string, limit = 40) =>
  (await client.search(query, { filter: "songs", limit })).map((r) => r.videoId);

/** Songs `s` with their artist's name (`a`), more columns first: the start of the tests' queries. */
const songsWith = (more = "") =>
  `SELECT ${more} s.video_id AS videoId, s.title, a.name AS artist FROM songs s
   JOIN artists a ON a.id = s.artist_id`;
const SONG = songsWith();

describe("a catalogue as hard to match as the real one", () => {
  it("lists an original's versions, karaoke takes and covers for its artist and title", async () => {
    const [original] = rows<Pick & { id: number }>(
      `${SONG} WHERE s.id IN (SELECT variant_of FROM songs WHERE lookalike = 'version')
         AND s.id IN (SELECT variant_of FROM songs WHERE lookalike = 'karaoke')
         AND s.id IN (SELECT variant_of FROM songs WHERE lookalike = 'cover')
       ORDER BY s.views DESC LIMIT 1`,
    );
    expect(original).toBeDefined();
    const variants = rows<{ videoId: string; lookalike: string }>(
      `SELECT s.video_id AS videoId, s.lookalike FROM songs s JOIN songs o ON o.id = s.variant_of
       WHERE o.video_id = '${original!.videoId}'`,
    );
    const found = await songIds(`${original!.artist} ${original!.title}`);
    expect(found).toContain(original!.videoId);
    for (const kind of ["version", "karaoke", "cover"]) {
      const ofKind = variants.filter((v) => v.lookalike === kind).map((v) => v.videoId);
      expect(
        ofKind.some((id) => found.includes(id)),
        kind,
      ).toBe(true);
    }
  });

  it("can put a more popular version above the original, which stays near the top", async () => {
    const [pair] = rows<Pick & { versionId: string }>(
      `${songsWith("v.video_id AS versionId,")} JOIN songs v ON v.variant_of = s.id AND v.lookalike = 'version'
       WHERE v.views > s.views * ${TITLE_BONUS} LIMIT 1`,
    );
    expect(pair).toBeDefined();
    const found = await songIds(`${pair!.artist} ${pair!.title}`, 20);
    expect(found[0]).not.toBe(pair!.videoId);
    expect(found.indexOf(pair!.videoId)).toBeGreaterThan(0);
    expect(found.indexOf(pair!.videoId)).toBeLessThan(5);
  });

  it("finds titles in Cyrillic, kana and Arabic by their Latin spelling", async () => {
    const scripts = {
      cyrillic: /\p{Script=Cyrillic}/u,
      kana: /\p{Script=Hiragana}|\p{Script=Katakana}/u,
      arabic: /\p{Script=Arabic}/u,
    };
    const songs = rows<Pick & { latin: string }>(
      `${songsWith("s.latin_title AS latin,")} WHERE s.latin_title IS NOT NULL ORDER BY s.id`,
    );
    for (const [script, letters] of Object.entries(scripts)) {
      const song = songs.find((s) => letters.test(s.title) && !s.title.includes(s.latin));
      expect(song, script).toBeDefined();
      expect(/^[\p{Script=Latin}\d\s]+$/u.test(song!.latin), script).toBe(true);
      expect(await songIds(song!.latin, 100), script).toContain(song!.videoId);
    }
  });

  it("lists both artists of a song with a featured artist", async () => {
    const [song] = rows<Pick & { featured: string }>(
      `${songsWith("f.name AS featured,")} JOIN artists f ON f.id = s.featured_artist_id
       WHERE s.title NOT LIKE '%feat.%' ORDER BY s.id LIMIT 1`,
    );
    expect(song).toBeDefined();
    const results = await client.search(`${song!.title} ${song!.artist}`, { filter: "songs", limit: 40 });
    const row = results.find((r) => r.videoId === song!.videoId);
    expect(row?.artists?.map((a) => a.name)).toEqual([song!.artist, song!.featured]);
  });

  it("finds a song whatever the order of the query's words, punctuation and case", async () => {
    const [song] = rows<Pick>(
      `${SONG} WHERE s.lookalike IS NULL AND s.video_type = 'MUSIC_VIDEO_TYPE_ATV' AND s.title LIKE '% %'
       ORDER BY s.views DESC LIMIT 1`,
    );
    expect(song).toBeDefined();
    const [first, ...rest] = song!.title.split(" ");
    for (const query of [
      `${song!.artist} ${song!.title}`,
      `${rest.join(" ")} - ${song!.artist.toUpperCase()}, "${first}"`,
    ]) {
      expect(await songIds(query), query).toContain(song!.videoId);
    }
  });
});
