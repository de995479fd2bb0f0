/**
 * The emulator follows `hl` for the display strings clients compare (the shared table in
 * src/transport/display-strings.ts): a MusicClient asking in German or Japanese finds the
 * categories of artist and channel pages and the type of the search top result.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { MusicClient } from "../../src/index.js";
import { displayStringsOf } from "../../src/transport/display-strings.js";
import { api, at, findAll, type Json } from "./helpers.js";

let emu: RunningEmulator;
const q = <T>(sql: string) => emu.state.store.st(sql).get() as T;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 300, seed: 5 });
});
afterAll(async () => {
  await emu?.stop();
});

/** An artist whose page has albums, singles and videos carousels. */
function fullArtist(): string {
  return q<{ c: string }>(
    `SELECT a.channel_id AS c FROM artists a WHERE kind = 'artist'
       AND EXISTS (SELECT 1 FROM albums al WHERE al.artist_id = a.id AND al.type = 'Album')
       AND EXISTS (SELECT 1 FROM albums al WHERE al.artist_id = a.id AND al.type IN ('Single', 'EP'))
       AND EXISTS (SELECT 1 FROM songs s WHERE s.artist_id = a.id AND s.video_type = 'MUSIC_VIDEO_TYPE_OMV')
     LIMIT 1`,
  ).c;
}

describe.each(["de", "ja"])("a client with language %s", (language) => {
  const client = () => new MusicClient({ baseUrl: emu.url, language, retry: false });

  it("gets the page's carousel titles in its language", async () => {
    const page = await api(emu, "browse", { browseId: fullArtist() }, {}, { language });
    const titles = (findAll(page.json, "musicCarouselShelfBasicHeaderRenderer") as Json[]).map((h) =>
      String(at(h, "title", "runs", 0, "text")).toLowerCase(),
    );
    const words = displayStringsOf(language).categories;
    expect(titles).toContain(String(words.albums).toLowerCase());
    expect(titles).not.toContain("albums");
  });

  it("finds the artist's categories", async () => {
    const artist = await client().getArtist(fullArtist());
    expect(artist.albums?.results?.length ?? 0).toBeGreaterThan(0);
    expect(artist.singles?.results?.length ?? 0).toBeGreaterThan(0);
    expect(artist.videos?.results?.length ?? 0).toBeGreaterThan(0);
    expect(artist.related?.results?.length ?? 0).toBeGreaterThan(0);
  });

  it("finds a podcast channel's episodes and podcasts", async () => {
    const channel = q<{ c: string }>("SELECT channel_id AS c FROM artists WHERE kind = 'channel' LIMIT 1").c;
    const result = await client().getChannel(channel);
    expect(result.episodes?.results?.length ?? 0).toBeGreaterThan(0);
    expect(result.podcasts?.results?.length ?? 0).toBeGreaterThan(0);
  });

  it("reads the type of the search top result", async () => {
    const song = q<{ t: string }>(
      "SELECT title AS t FROM songs WHERE video_type = 'MUSIC_VIDEO_TYPE_ATV' AND album_id IS NOT NULL LIMIT 1",
    ).t;
    const results = await client().search(song);
    const top = results[0];
    expect(top?.title).toBe(song);
    expect(top?.resultType).toBe("song");
    // An English client reading the same German page would not know the word.
    const page = await api(emu, "search", { query: song }, {}, { language });
    const word = at(findAll(page.json, "musicCardShelfRenderer")[0], "subtitle", "runs", 0, "text");
    expect(Object.values(displayStringsOf(language).types).map((w) => w.toLowerCase())).toContain(
      String(word).toLowerCase(),
    );
  });
});
