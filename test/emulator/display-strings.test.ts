/**
 * The emulator writes the display words clients compare as the service does: in English, the
 * captures' own words (read from ../shared/fixtures, never from the wire-constant table the
 * emulator itself writes from); in German and Japanese, words a MusicClient asking in that language
 * reads, which are not the English ones. No capture is in another language, so the translated
 * words themselves have no capture to be checked against (test/shared/wire/display-words.test.ts lists
 * them with their source).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { MusicClient } from "../../src/index.js";
import { capturesPresent, carouselTitles, searchTypeWords } from "../support/capture-words.js";
import { api, at, findAll, type Json } from "./helpers.js";

let emu: RunningEmulator;
const q = <T>(sql: string) => emu.state.store.sqlite.prepare(sql).get() as T;

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

/** The carousel titles of a page the emulator serves for `browseId` in `language`. */
async function servedTitles(browseId: string, language: string): Promise<string[]> {
  const page = await api(emu, "browse", { browseId }, {}, { language });
  return (findAll(page.json, "musicCarouselShelfBasicHeaderRenderer") as Json[]).map((h) =>
    String(at(h, "title", "runs", 0, "text")),
  );
}

/** The type word of the top-result card the emulator serves for `query` in `language`. */
async function servedTypeWord(query: string, language: string): Promise<string> {
  const page = await api(emu, "search", { query }, {}, { language });
  return String(at(findAll(page.json, "musicCardShelfRenderer")[0], "subtitle", "runs", 0, "text"));
}

/** A catalogue song with an album: its search's top result is that song. */
const songTitle = () =>
  q<{ t: string }>(
    // A title no other song's search text holds: a search for it tops with it (a more popular
    // version or karaoke take of the song could come first).
    `SELECT title AS t FROM songs s WHERE video_type = 'MUSIC_VIDEO_TYPE_ATV' AND album_id IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM songs o WHERE o.id != s.id AND o.search_text LIKE '%' || lower(s.title) || '%')
     ORDER BY id LIMIT 1`,
  ).t;
const channelId = () =>
  q<{ c: string }>("SELECT channel_id AS c FROM artists WHERE kind = 'channel' LIMIT 1").c;

/** The captures' titles of artist and channel pages (the pages whose categories the parsers read). */
function captureTitlesOf(pagePrefix: RegExp): Set<string> {
  const out = new Set<string>();
  for (const [title, pages] of carouselTitles()) if (pages.some((p) => pagePrefix.test(p))) out.add(title);
  return out;
}

// docs/PROTOCOL.md#display-words
describe.skipIf(!capturesPresent)("an English page carries the captures' words", () => {
  it("an artist page's carousel titles are the artist captures' titles, case included", async () => {
    const expected = captureTitlesOf(/^(yt_get_artist|yt_browse_artist$|ytm_\d+_\d+_get_artist)/);
    const titles = await servedTitles(fullArtist(), "en");
    expect(titles.length).toBeGreaterThanOrEqual(4);
    for (const title of titles) expect(expected, title).toContain(title);
    // The newest capture (ytm_2026_05_get_artist1) names the singles carousel `Singles & EPs`.
    expect(titles.filter((t) => /^singles/i.test(t))).toEqual(
      [...expected].filter((t) => t === "Singles & EPs"),
    );
  });

  it("a podcast channel's carousel titles are the channel capture's titles", async () => {
    const expected = captureTitlesOf(/^yt_get_channel_/);
    const titles = await servedTitles(channelId(), "en");
    expect(titles.length).toBeGreaterThanOrEqual(2);
    for (const title of titles) expect(expected, title).toContain(title);
  });

  it("the top result's type word is the word the search captures give a song", async () => {
    const captured = [...searchTypeWords().keys()].filter((w) => w.toLowerCase() === "song");
    expect(captured).toEqual(["Song"]);
    expect(await servedTypeWord(songTitle(), "en")).toBe(captured[0]);
  });
});

describe.each(["de", "ja"])("a client with language %s", (language) => {
  const client = () => new MusicClient({ baseUrl: emu.url, language, retry: false });

  // Without ../shared/fixtures there are no captures' words to tell apart.
  it.skipIf(!capturesPresent)(
    "gets the page's carousel titles in its language, not the captures' English ones",
    async () => {
      const english = captureTitlesOf(/^(yt_get_artist|yt_browse_artist$|ytm_\d+_\d+_get_artist)/);
      const titles = await servedTitles(fullArtist(), language);
      expect(titles.length).toBeGreaterThanOrEqual(4);
      // Some words are the same in English (German `Videos`), but not the albums carousel's.
      expect(english).toContain("Albums");
      expect(titles).not.toContain("Albums");
    },
  );

  it("finds the artist's categories", async () => {
    const artist = await client().getArtist(fullArtist());
    expect(artist.albums?.results?.length ?? 0).toBeGreaterThan(0);
    expect(artist.singles?.results?.length ?? 0).toBeGreaterThan(0);
    expect(artist.videos?.results?.length ?? 0).toBeGreaterThan(0);
    expect(artist.related?.results?.length ?? 0).toBeGreaterThan(0);
  });

  it("finds a podcast channel's episodes and podcasts", async () => {
    const result = await client().getChannel(channelId());
    expect(result.episodes?.results?.length ?? 0).toBeGreaterThan(0);
    expect(result.podcasts?.results?.length ?? 0).toBeGreaterThan(0);
  });

  it("reads the type of the search top result, a word that is not the captures' English one", async () => {
    const song = songTitle();
    const results = await client().search(song);
    const top = results[0];
    expect(top?.title).toBe(song);
    expect(top?.resultType).toBe("song");
    // An English client reading the same page would not know the word.
    expect(searchTypeWords().has(await servedTypeWord(song, language))).toBe(false);
  });
});
