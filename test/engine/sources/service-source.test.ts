/**
 * readServiceSource over a fake service and a fake search: songs matched as items in the list's
 * order, what could not stand for a song and what nothing was found for as notes, corrections read
 * before the service is asked, and a list that came back short held as truncated.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchHit } from "../../../engine/match/resolve.js";
import type { ServiceSource } from "../../../engine/recipe/types.js";
import type {
  ServiceAlbum,
  ServiceArtist,
  ServiceList,
  ServiceTrack,
} from "../../../engine/services/types.js";
import { readServiceSource, type ServiceReaders } from "../../../engine/sources/service-source.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "service-source-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function spec(overrides: string, limit: number | null = null): ServiceSource {
  return { id: "mine", type: "lastfm", user: "rj", list: "loved", period: "overall", limit, overrides };
}

function track(title: string, artist: string, n: number): ServiceTrack {
  return {
    title,
    artists: [artist],
    album: null,
    durationSeconds: 200,
    explicit: null,
    isrc: null,
    mbid: null,
    serviceId: `lastfm:track:${artist}/${title}`.replace(/ /g, "+") + n,
  };
}

const TRACKS = [
  track("Blue Morning", "Ana Lima", 1),
  track("Made Up Song", "Nobody", 2),
  track("Red Evening", "Bo Kent", 3),
];

/** Finds a song when the query holds its title. */
async function search(query: string, filter: "songs" | "videos"): Promise<SearchHit[]> {
  if (filter !== "songs") return [];
  const known: [string, string, string][] = [
    ["Blue Morning", "Ana Lima", "aaaaaaaaaaa"],
    ["Red Evening", "Bo Kent", "bbbbbbbbbbb"],
  ];
  return known
    .filter(([t]) => query.includes(t))
    .map(([title, name, videoId]) => ({
      resultType: "song",
      videoId,
      title,
      artists: [{ name }],
      duration_seconds: 200,
    }));
}

function readers(list: ServiceList, asked: string[] = []): ServiceReaders {
  return {
    async songs(s) {
      asked.push(s.id);
      return list;
    },
    albums: () => Promise.reject(new Error("no albums here")),
    artists: () => Promise.reject(new Error("no artists here")),
  };
}

describe("readServiceSource", () => {
  it("matches the songs in order and notes what it could not", async () => {
    const list = { entries: TRACKS, expected: 4, skipped: [{ reason: "local files skipped", count: 1 }] };
    const read = await readServiceSource(spec(join(dir, "none.yaml")), readers(list), {
      search,
      cache: null,
      now: 1,
    });
    expect(read.items.map((i) => [i.videoId, i.rank, i.title])).toEqual([
      ["aaaaaaaaaaa", 1, "Blue Morning"],
      ["bbbbbbbbbbb", 2, "Red Evening"],
    ]);
    expect(read.truncated).toBe(false);
    expect(read.notes?.map((n) => [n.kind, n.text])).toEqual([
      ["unreadable", "lastfm: 1 local files skipped"],
      ["unmatched", '"Nobody - Made Up Song" (no search results)'],
    ]);
  });

  it("holds a list that came back shorter than the service said as truncated", async () => {
    const read = await readServiceSource(
      spec(join(dir, "none.yaml")),
      readers({ entries: TRACKS, expected: 5 }),
      {
        search,
        cache: null,
        now: 1,
      },
    );
    expect(read.truncated).toBe(true);
  });

  it("takes corrections by the service's id, and refuses a broken matches.yaml before asking the service", async () => {
    const good = join(dir, "matches.yaml");
    await writeFile(good, `"${TRACKS[1]!.serviceId}": ccccccccccc\n`);
    const read = await readServiceSource(spec(good, 2), readers({ entries: TRACKS, expected: null }), {
      search,
      cache: null,
      now: 1,
    });
    expect(read.items.map((i) => i.videoId)).toEqual(["aaaaaaaaaaa", "ccccccccccc"]);

    const bad = join(dir, "bad.yaml");
    await writeFile(bad, "[not a mapping\n");
    const asked: string[] = [];
    await expect(
      readServiceSource(spec(bad), readers({ entries: TRACKS, expected: null }, asked), {
        search,
        cache: null,
        now: 1,
      }),
    ).rejects.toThrow(/bad\.yaml:2:1/);
    expect(asked).toEqual([]);
  });
});

describe("readServiceSource of a Spotify library's albums and artists", () => {
  const library = (kind: "albums" | "artists"): ServiceSource => ({
    id: "mine",
    type: "spotify",
    playlist: null,
    library: kind,
    limit: null,
    overrides: join(dir, "none.yaml"),
  });
  const albums: ServiceList<ServiceAlbum> = {
    entries: [
      {
        title: "Valley (Deluxe Edition)",
        artists: ["Ana Lima"],
        year: 1978,
        trackCount: 14,
        albumType: "album",
        upc: null,
        serviceId: "spotify:album:valley",
      },
      {
        title: "Nowhere",
        artists: ["Ana Lima"],
        year: 1990,
        trackCount: 10,
        albumType: "album",
        upc: null,
        serviceId: "spotify:album:nowhere",
      },
    ],
    expected: 2,
  };
  const artists: ServiceList<ServiceArtist> = {
    entries: [{ name: "Bo Kent", serviceId: "spotify:artist:bo" }],
    expected: 1,
  };
  const readersOf: ServiceReaders = {
    songs: () => Promise.reject(new Error("not songs")),
    albums: async () => albums,
    artists: async () => artists,
  };
  const catalogue = async (query: string, filter: string): Promise<SearchHit[]> => {
    if (filter === "albums" && query.startsWith("Valley"))
      return [
        {
          resultType: "album",
          title: "Valley",
          type: "Album",
          year: "1978",
          browseId: "MPREb_valley00001",
          playlistId: "OLAK5uy_valley",
          artists: [{ name: "Ana Lima" }],
        },
      ];
    if (filter === "artists" && query === "Bo Kent")
      return [{ resultType: "artist", artist: "Bo Kent", browseId: `UC${"b".repeat(22)}` }];
    return [];
  };

  it("makes saved albums album items (browseId, the playlist the search gave) and notes the one not found", async () => {
    const read = await readServiceSource(library("albums"), readersOf, {
      search: catalogue,
      cache: null,
      now: 1,
    });
    expect(read.items.map((i) => [i.kind, i.browseId, i.playlistId, i.title, i.rank])).toEqual([
      ["album", "MPREb_valley00001", "OLAK5uy_valley", "Valley (Deluxe Edition)", 1],
    ]);
    expect(read.notes).toEqual([
      { source: "mine", kind: "unmatched", text: '"Ana Lima - Nowhere" (no search results)' },
    ]);
  });

  it("makes followed artists artist items with their channel", async () => {
    const read = await readServiceSource(library("artists"), readersOf, {
      search: catalogue,
      cache: null,
      now: 1,
    });
    expect(read.items.map((i) => [i.kind, i.browseId, i.title])).toEqual([
      ["artist", `UC${"b".repeat(22)}`, "Bo Kent"],
    ]);
  });
});
