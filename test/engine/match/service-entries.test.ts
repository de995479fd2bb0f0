/**
 * Songs of other services through the matcher: keyed by the service's id (a renamed song is not
 * searched again, a weekly list that gained a few songs searches those alone), corrections by id
 * or by words, and the ISRC asked first.
 */
import { describe, expect, it } from "vitest";
import type { SongEntry } from "../../../engine/match/entry.js";
import { entryKey } from "../../../engine/match/key.js";
import { resolveEntries, type SearchHit } from "../../../engine/match/resolve.js";
import { entry, memoryCache } from "./candidates.js";

interface Song {
  videoId: string;
  title: string;
  artist: string;
  seconds: number;
  isrc?: string;
}

/** A catalogue searched as the service does: an ISRC finds its song alone, words find titles holding them. */
function catalogue(songs: readonly Song[]) {
  const asked: string[] = [];
  const hit = (s: Song): SearchHit => ({
    resultType: "song",
    videoId: s.videoId,
    title: s.title,
    artists: [{ name: s.artist }],
    duration_seconds: s.seconds,
  });
  const search = async (query: string, filter: "songs" | "videos") => {
    asked.push(`${filter}:${query}`);
    if (filter === "videos") return [];
    const byCode = songs.filter((s) => s.isrc === query);
    if (byCode.length > 0) return byCode.map(hit);
    const words = query.toLowerCase().split(" ");
    return songs
      .filter((s) => words.every((w) => `${s.title} ${s.artist}`.toLowerCase().includes(w)))
      .map(hit);
  };
  return { search, asked };
}

const SONGS: Song[] = [
  { videoId: "aaaaaaaaaaa", title: "Blue Morning", artist: "Ana Lima", seconds: 200, isrc: "USAAA2400001" },
  { videoId: "bbbbbbbbbbb", title: "Red Evening", artist: "Bo Kent", seconds: 180 },
  { videoId: "ccccccccccc", title: "Green Noon", artist: "Cy Dorn", seconds: 240, isrc: "USAAA2400003" },
];

function track(title: string, artist: string, seconds: number, id: string, more: Partial<SongEntry> = {}) {
  return entry(title, [artist], seconds, { serviceId: `spotify:track:${id}`, ...more });
}

describe("songs of other services", () => {
  it("asks the ISRC first and takes what it finds when it is the song", async () => {
    const { search, asked } = catalogue(SONGS);
    const { resolutions, searches } = await resolveEntries(
      [track("Blue Morning", "Ana Lima", 201, "t1", { isrc: "USAAA2400001" })],
      { search, cache: null, overrides: new Map(), now: 1 },
    );
    expect(asked).toEqual(["songs:USAAA2400001"]);
    expect(searches).toBe(1);
    expect(resolutions[0]).toMatchObject({ videoId: "aaaaaaaaaaa", by: "search", key: "spotify:track:t1" });
    expect(resolutions[0]!.reasons[0]).toBe("found by its ISRC");
  });

  it("does not take another recording the ISRC answers with; the words find the song", async () => {
    // The service answered this code with another song: scored, refused, then searched by words.
    const songs = [
      ...SONGS,
      { videoId: "zzzzzzzzzzz", title: "Night Drive", artist: "Zed", seconds: 300, isrc: "GBXXX9900001" },
    ];
    const { search, asked } = catalogue(songs);
    const { resolutions } = await resolveEntries(
      [track("Red Evening", "Bo Kent", 181, "t2", { isrc: "GBXXX9900001" })],
      { search, cache: null, overrides: new Map(), now: 1 },
    );
    expect(asked).toEqual(["songs:GBXXX9900001", "songs:Red Evening Bo Kent"]);
    expect(resolutions[0]).toMatchObject({ videoId: "bbbbbbbbbbb" });
    expect(resolutions[0]!.reasons).not.toContain("found by its ISRC");
  });

  it("keys the cache by the service's id: a renamed song and a list grown by one send one search", async () => {
    const cache = memoryCache();
    const { search, asked } = catalogue(SONGS);
    const deps = { search, cache, overrides: new Map(), now: 1 };
    const week1 = [track("Blue Morning", "Ana Lima", 200, "t1"), track("Red Evening", "Bo Kent", 180, "t2")];
    expect((await resolveEntries(week1, deps)).searches).toBe(2);
    expect(cache.stored.has("spotify:track:t1")).toBe(true);
    // The service retitled a song; the list gained another one.
    const week2 = [
      track("Blue Morning - 2024 Remaster", "Ana Lima", 200, "t1"),
      week1[1]!,
      track("Green Noon", "Cy Dorn", 240, "t3"),
    ];
    asked.length = 0;
    const second = await resolveEntries(week2, deps);
    expect(second.searches).toBe(1);
    expect(asked).toEqual(["songs:Green Noon Cy Dorn"]);
    expect(second.resolutions.map((r) => [r.by, r.videoId])).toEqual([
      ["cache", "aaaaaaaaaaa"],
      ["cache", "bbbbbbbbbbb"],
      ["search", "ccccccccccc"],
    ]);
  });

  it("searches two ids of one song once, and a file's entry of the same words finds it cached", async () => {
    const cache = memoryCache();
    const { search } = catalogue(SONGS);
    const deps = { search, cache, overrides: new Map(), now: 1 };
    const first = await resolveEntries(
      [track("Red Evening", "Bo Kent", 180, "t2"), track("Red Evening", "Bo Kent", 180, "t2-single")],
      deps,
    );
    expect(first.searches).toBe(1);
    expect(first.resolutions.map((r) => r.videoId)).toEqual(["bbbbbbbbbbb", "bbbbbbbbbbb"]);
    const file = await resolveEntries([entry("Red Evening", ["Bo Kent"], 180)], deps);
    expect(file.searches).toBe(0);
    expect(file.resolutions[0]).toMatchObject({ by: "cache", videoId: "bbbbbbbbbbb" });
  });

  it("keeps apart two songs of the same words by their ISRCs, in one run and the next", async () => {
    // One artist's two songs called "Heart", on two albums: the words alone cannot tell them apart.
    const songs: Song[] = [
      { videoId: "hhhhhhhhhh1", title: "Heart", artist: "Paper Machine", seconds: 200, isrc: "USPPM2000001" },
      { videoId: "hhhhhhhhhh2", title: "Heart", artist: "Paper Machine", seconds: 260, isrc: "USPPM2200002" },
    ];
    const cache = memoryCache();
    const { search } = catalogue(songs);
    const deps = { search, cache, overrides: new Map(), now: 1 };
    const one = track("Heart", "Paper Machine", 200, "h1", { isrc: "USPPM2000001" });
    const two = track("Heart", "Paper Machine", 260, "h2", { isrc: "USPPM2200002" });
    const both = await resolveEntries([one, two], deps);
    expect(both.resolutions.map((r) => r.videoId)).toEqual(["hhhhhhhhhh1", "hhhhhhhhhh2"]);
    // The second seen alone later, after the words were cached with the first's video.
    const later = memoryCache();
    const first = await resolveEntries([one], { ...deps, cache: later });
    expect(first.resolutions[0]!.videoId).toBe("hhhhhhhhhh1");
    const next = await resolveEntries([two], { ...deps, cache: later });
    expect(next.resolutions[0]).toMatchObject({ by: "search", videoId: "hhhhhhhhhh2" });
    // Without ISRCs nothing tells them apart: same words, one search.
    const plain = await resolveEntries(
      [track("Red Evening", "Bo Kent", 180, "r1"), track("Red Evening", "Bo Kent", 180, "r2")],
      { ...deps, search: catalogue(SONGS).search, cache: null },
    );
    expect(plain.searches).toBe(1);
  });

  it("takes a correction written by the service's id, or by the words", async () => {
    const { search, asked } = catalogue(SONGS);
    const words = track("Green Noon", "Cy Dorn", 240, "t3");
    const overrides = new Map([
      ["spotify:track:t1", "ccccccccccc"],
      [entryKey(words), "skip" as const],
    ]);
    const { resolutions } = await resolveEntries([track("Blue Morning", "Ana Lima", 200, "t1"), words], {
      search,
      cache: null,
      overrides,
      now: 1,
    });
    expect(asked).toEqual([]);
    expect(resolutions.map((r) => [r.by, r.videoId, r.skipped])).toEqual([
      ["override", "ccccccccccc", false],
      ["override", null, true],
    ]);
  });
});
