/**
 * resolveEntries over a fake search: each new match is cached as soon as it is found (a run stopped
 * part way through a long file keeps what it searched), and progress is told once per entry.
 */
import { describe, expect, it } from "vitest";
import { draftOverrides, parseOverrides } from "../../../engine/files/overrides.js";
import { SONGS_SHOWN } from "../../../engine/match/choices.js";
import { entryKey } from "../../../engine/match/key.js";
import { resolveEntries } from "../../../engine/match/resolve.js";
import type { SearchResultItem } from "../../../engine/sources/reader.js";
import { entry, memoryCache } from "./candidates.js";

const ENTRIES = [entry("Blue Morning", ["Ana Lima"], 200), entry("Red Evening", ["Bo Kent"], 180)];

/** The service's answer for one entry: the song itself. */
function found(title: string, artist: string, seconds: number): SearchResultItem[] {
  const id = title.replace(/\W/g, "").slice(0, 11).padEnd(11, "x");
  return [
    {
      resultType: "song",
      videoId: id,
      title,
      artists: [{ name: artist, id: null }],
      duration_seconds: seconds,
    } as unknown as SearchResultItem,
  ];
}

describe("resolveEntries", () => {
  it("caches each match when it is found, so a run that fails later keeps the searches it made", async () => {
    const cache = memoryCache();
    let calls = 0;
    const search = async (query: string) => {
      calls += 1;
      if (query.includes("Red Evening")) throw new Error("connection reset");
      return found("Blue Morning", "Ana Lima", 200);
    };
    await expect(resolveEntries(ENTRIES, { search, cache, overrides: new Map(), now: 1 })).rejects.toThrow(
      "connection reset",
    );
    expect([...cache.stored.keys()]).toEqual([entryKey(ENTRIES[0]!)]);
    expect(cache.stored.get(entryKey(ENTRIES[0]!))?.videoId).toBe("BlueMorning");

    // The next run searches only the entry the failed one did not reach.
    const before = calls;
    const second = await resolveEntries(ENTRIES, {
      search: async (q) => (q.includes("Red") ? found("Red Evening", "Bo Kent", 180) : []),
      cache,
      overrides: new Map(),
      now: 2,
    });
    expect(calls).toBe(before);
    expect(second.searches).toBe(1);
    expect(second.resolutions.map((r) => [r.by, r.videoId])).toEqual([
      ["cache", "BlueMorning"],
      ["search", "RedEveningx"],
    ]);
  });

  it("tells progress once per entry, cached or searched", async () => {
    const seen: string[] = [];
    await resolveEntries([...ENTRIES, ENTRIES[0]!], {
      search: async (q) => (q.includes("Red") ? found("Red Evening", "Bo Kent", 180) : []),
      cache: null,
      overrides: new Map(),
      now: 1,
      onProgress: (done, total) => seen.push(`${done}/${total}`),
    });
    expect(seen).toEqual(["1/3", "2/3", "3/3"]);
  });

  it("drops a result whose id is not a video id: it never reaches matches.yaml as a line of its own", async () => {
    const hostile = found("Blue Morning", "Ana Lima", 200).map((r) => ({
      ...r,
      videoId: 'dQw4w9WgXcQ\n"red evening - bo kent": skip',
    }));
    const { resolutions } = await resolveEntries([ENTRIES[0]!], {
      search: async () => hostile,
      cache: null,
      overrides: new Map(),
      now: 1,
    });
    expect(resolutions[0]!.videoId).toBeNull();
    expect(resolutions[0]!.candidates).toEqual([]);
    const drafted = draftOverrides(null, resolutions, "2026-12-01", SONGS_SHOWN)!;
    expect(parseOverrides("matches.yaml", drafted).size).toBe(0);
    expect(drafted).not.toContain("red evening");
  });
});
