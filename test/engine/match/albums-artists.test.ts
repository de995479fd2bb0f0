/**
 * Albums and artists of another service matched to the service's: the edition a person saved
 * ("Deluxe Edition", "2011 Remaster") is the same album, an album the catalogue lacks is left
 * unmatched, a single named like its album is not the album, and two artists of one name are left
 * to the person. Then the pipeline around them: one search, the cache and matches.yaml by the
 * service's id.
 */
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../../cli/musicsync/match-interactive.js";
import { draftOverrides, parseOverrides, withChoice } from "../../../engine/files/overrides.js";
import {
  ALBUMS,
  type AlbumCandidate,
  type AlbumEntry,
  decideAlbum,
  entryReleaseType,
} from "../../../engine/match/album.js";
import { ARTISTS, type ArtistCandidate, decideArtist } from "../../../engine/match/artist.js";
import { shownOf } from "../../../engine/match/choices.js";
import { resolveWith, type SearchHit } from "../../../engine/match/resolve.js";
import { memoryCache } from "./candidates.js";

function saved(title: string, fields: Partial<AlbumEntry> = {}): AlbumEntry {
  return {
    title,
    artists: ["The Electric Wires"],
    year: 1978,
    trackCount: 11,
    albumType: "album",
    upc: null,
    serviceId: `spotify:album:${title.replace(/\W/g, "").padEnd(22, "x").slice(0, 22)}`,
    ...fields,
  };
}

let next = 0;
function album(title: string, fields: Partial<AlbumCandidate> = {}): AlbumCandidate {
  next += 1;
  return {
    browseId: `MPREb_album${String(next).padStart(6, "0")}`,
    title,
    artists: ["The Electric Wires"],
    year: 1978,
    type: "Album",
    playlistId: null,
    ...fields,
  };
}

const artist = (name: string, id: string): ArtistCandidate => ({
  name,
  browseId: `UC${id.padEnd(22, "x")}`,
});

describe("albums", () => {
  it("takes the album for its Deluxe edition, and the Deluxe edition when the catalogue has both", () => {
    const plain = album("Valley");
    const alone = decideAlbum(saved("Valley (Deluxe Edition)"), [plain]);
    expect(alone.accepted?.candidate).toBe(plain);
    expect(alone.accepted?.reasons.join(", ")).toMatch(/edition differs slightly/);

    const deluxe = album("Valley (Deluxe Edition)");
    const both = decideAlbum(saved("Valley (Deluxe Edition)"), [plain, deluxe]);
    expect(both.accepted?.candidate).toBe(deluxe);
    expect(both.tied).toEqual([]);
    // And the plain one for a person who saved the plain one.
    expect(decideAlbum(saved("Valley"), [deluxe, plain]).accepted?.candidate).toBe(plain);
  });

  it("takes the original for a remaster released decades later", () => {
    const original = album("Valley");
    const d = decideAlbum(saved("Valley (2011 Remaster)", { year: 2011 }), [original]);
    expect(d.accepted?.candidate).toBe(original);
    const suffixed = decideAlbum(saved("Valley - Remastered", { year: 2011 }), [original]);
    expect(suffixed.accepted?.candidate).toBe(original);
  });

  it("leaves an album the catalogue lacks unmatched, though its artist's other albums come back", () => {
    const d = decideAlbum(saved("Ocean Drive"), [
      album("Valley"),
      album("Thunder"),
      album("Empty Orbit Thunder"),
    ]);
    expect(d.accepted).toBeNull();
    expect(d.best?.reasons[0]).toMatch(/title differs/);
  });

  it("leaves a live album for the studio one, and another artist's album of the same title", () => {
    expect(decideAlbum(saved("Valley"), [album("Valley (Live)")]).accepted).toBeNull();
    expect(
      decideAlbum(saved("Valley"), [album("Valley", { artists: ["Western Kingdom"] })]).accepted,
    ).toBeNull();
  });

  it("never takes another number of a series: a sequel, a volume, a Greatest Hits II", () => {
    for (const [mine, theirs] of [
      ["Valley II", "Valley III"],
      ["Valley", "Valley II"],
      ["Valley Vol. 1", "Valley Vol. 2"],
      ["Hits of the Year 10", "Hits of the Year 11"],
    ] as const) {
      const other = album(theirs);
      const d = decideAlbum(saved(mine), [other]);
      expect(d.accepted, `${mine} taken as ${theirs}`).toBeNull();
      expect(d.best?.reasons[0]).toMatch(/number differs/);
      // With its own among the results, its own is taken, not left as a tie.
      const own = album(mine);
      expect(decideAlbum(saved(mine), [other, own]).accepted?.candidate).toBe(own);
    }
    // The same number written as a Roman numeral or as digits is not another number.
    const roman = decideAlbum(saved("Valley 2"), [album("Valley II")]);
    expect(roman.best?.reasons.join(", ")).not.toMatch(/number differs/);
    // A remaster's year or an edition's number is not the title's.
    const plain = album("Valley");
    expect(decideAlbum(saved("Valley (2011 Remaster)"), [plain]).accepted?.candidate).toBe(plain);
    expect(decideAlbum(saved("Valley (50th Anniversary Edition)"), [plain]).accepted?.candidate).toBe(plain);
  });

  it("tells a single from the album of the same title, both ways", () => {
    const single = album("Thunder", { type: "Single" });
    const lp = album("Thunder");
    expect(decideAlbum(saved("Thunder"), [single, lp]).accepted?.candidate).toBe(lp);
    const one = saved("Thunder", { albumType: "single", trackCount: 1 });
    expect(decideAlbum(one, [lp, single]).accepted?.candidate).toBe(single);
    // The single alone is not the album a person saved.
    const d = decideAlbum(saved("Thunder"), [single]);
    expect(d.accepted).toBeNull();
    expect(d.best?.reasons[0]).toMatch(/type differs: a single, not an album/);
  });

  it("reads a release's type from Spotify's words and its track count", () => {
    expect(entryReleaseType({ albumType: "single", trackCount: 2 })).toBe("Single");
    expect(entryReleaseType({ albumType: "single", trackCount: 5 })).toBe("EP");
    expect(entryReleaseType({ albumType: "compilation", trackCount: 30 })).toBe("Album");
    expect(entryReleaseType({ albumType: null, trackCount: 12 })).toBe("Album");
    expect(entryReleaseType({ albumType: null, trackCount: null })).toBeNull();
  });
});

describe("artists", () => {
  const entry = { name: "Nirvana", serviceId: "spotify:artist:6olE6TJLqED3rqDCT0FyPh" };

  it("takes the artist of the same name, 'The' or a Topic channel's suffix aside", () => {
    const one = artist("Nirvana", "a");
    expect(decideArtist(entry, [artist("Nirvana Tribute Band", "b"), one]).accepted?.candidate).toBe(one);
    const topic = artist("Electric Wires - Topic", "c");
    const wires = decideArtist({ name: "The Electric Wires", serviceId: "spotify:artist:x" }, [topic]);
    expect(wires.accepted?.candidate).toBe(topic);
  });

  it("leaves two artists of one name to the person, both offered", () => {
    const d = decideArtist(entry, [artist("Nirvana", "a"), artist("Nirvana", "b")]);
    expect(d.accepted).toBeNull();
    expect(d.tied.map((t) => t.candidate.browseId)).toHaveLength(2);
    expect(d.best?.reasons[0]).toMatch(/^two candidates equally good/);
  });

  it("leaves a near name unmatched: another artist more often than a slip", () => {
    const d = decideArtist({ name: "Adele", serviceId: "spotify:artist:y" }, [artist("Adelle", "a")]);
    expect(d.accepted).toBeNull();
    expect(d.best?.reasons[0]).toMatch(/name differs/);
  });

  it("leaves a long near name unmatched too: one letter more is another artist, whatever the length", () => {
    for (const [mine, theirs] of [
      ["Jackson Browne", "Jackson Brown"],
      ["Chris Brown", "Chris Browne"],
    ]) {
      const d = decideArtist({ name: mine!, serviceId: "spotify:artist:y" }, [artist(theirs!, "a")]);
      expect(d.accepted, `${mine} taken as ${theirs}`).toBeNull();
      expect(d.best?.reasons[0]).toMatch(/name nearly equal/);
    }
  });
});

describe("the pipeline for albums and artists", () => {
  const hit = (c: AlbumCandidate): SearchHit => ({
    resultType: "album",
    title: c.title,
    browseId: c.browseId,
    artists: c.artists.map((name) => ({ name })),
    year: String(c.year),
    type: c.type,
    playlistId: "OLAK5uy_valley",
  });

  it("searches once among albums, caches by the service id, and takes matches.yaml's album or skip", async () => {
    const valley = album("Valley");
    const asked: [string, string][] = [];
    const search = async (query: string, filter: string) => {
      asked.push([query, filter]);
      return [hit(valley)];
    };
    const cache = memoryCache();
    const entries = [saved("Valley (Deluxe Edition)"), saved("Thunder")];
    const deps = { search, cache, overrides: new Map<string, string>(), now: 1 };
    const first = await resolveWith(ALBUMS, entries, deps);
    expect(asked).toEqual([
      ["Valley The Electric Wires", "albums"],
      ["Thunder The Electric Wires", "albums"],
    ]);
    expect(first.resolutions.map((r) => r.videoId)).toEqual([valley.browseId, null]);
    expect([...cache.stored.keys()]).toEqual(entries.map((e) => e.serviceId));

    const again = await resolveWith(ALBUMS, entries, deps);
    expect(again.searches).toBe(0);
    expect(again.resolutions.map((r) => r.by)).toEqual(["cache", "cache"]);

    const overrides = parseOverrides(
      "matches.yaml",
      `"${entries[0]!.serviceId}": skip\n"${entries[1]!.serviceId}": MPREb_thunder01\n`,
    );
    const fixed = await resolveWith(ALBUMS, entries, { ...deps, overrides });
    expect(fixed.resolutions.map((r) => [r.videoId, r.skipped, r.reasons[0]])).toEqual([
      [null, true, "matches.yaml says skip"],
      ["MPREb_thunder01", false, "matches.yaml names the album"],
    ]);
  });

  it("matches.yaml wants an album for an album's key and a channel for an artist's", () => {
    expect(() => parseOverrides("m.yaml", '"spotify:album:abc": dQw4w9WgXcQ\n')).toThrow(
      /m\.yaml:1:\d+: .*give an album's browseId \(MPRE…\) or skip/,
    );
    expect(() => parseOverrides("m.yaml", '"spotify:artist:abc": MPREb_thunder01\n')).toThrow(
      /give an artist's channel id \(UC…\) or skip/,
    );
    const ok = parseOverrides("m.yaml", `"spotify:artist:abc": UC${"a".repeat(22)}\n`);
    expect(ok.get("spotify:artist:abc")).toBe(`UC${"a".repeat(22)}`);
  });

  it("searches an artist once by name and takes only an artist result", async () => {
    const asked: string[] = [];
    const search = async (query: string, filter: string) => {
      asked.push(`${filter}:${query}`);
      return [
        { resultType: "album", title: "Nirvana", browseId: "MPREb_nirvana01" },
        { resultType: "artist", artist: "Nirvana", browseId: `UC${"n".repeat(22)}` },
      ];
    };
    const r = await resolveWith(ARTISTS, [{ name: "Nirvana", serviceId: "spotify:artist:n" }], {
      search,
      cache: null,
      overrides: new Map(),
      now: 1,
    });
    expect(asked).toEqual(["artists:Nirvana"]);
    expect(r.resolutions[0]!.videoId).toBe(`UC${"n".repeat(22)}`);
  });

  it("a tie of two namesakes: drafted as one commented line each, chosen by number, taken with no search", async () => {
    const [one, two] = [`UC${"a".repeat(22)}`, `UC${"b".repeat(22)}`];
    const hits = [
      { resultType: "artist", artist: "Mira", browseId: one },
      { resultType: "artist", artist: "Mira", browseId: two },
    ];
    const entries = [{ name: "Mira", serviceId: "spotify:artist:mira" }];
    const deps = { cache: null, now: 1 };
    const { resolutions } = await resolveWith(ARTISTS, entries, {
      ...deps,
      search: async () => hits,
      overrides: new Map(),
    });
    const shown = shownOf(ARTISTS);
    const draft = draftOverrides(null, resolutions, "2026-12-01", shown)!;
    expect(draft).toContain("# tie for Mira: two candidates equally good");
    expect(draft).toContain(`# "spotify:artist:mira": ${two}  # 1.00 Mira <${two}>: name equal`);
    expect(parseOverrides("m.yaml", draft).size).toBe(0);
    const r = resolutions[0]!;
    expect(readAnswer("2", r, shown.idOf)).toEqual({ value: two });
    const chosen = withChoice("m.yaml", draft, { resolution: r, value: two }, "2026-12-01", true, shown)!;
    const overrides = parseOverrides("m.yaml", chosen);
    let searched = 0;
    const again = await resolveWith(ARTISTS, entries, {
      ...deps,
      search: async () => {
        searched++;
        return hits;
      },
      overrides,
    });
    expect(searched).toBe(0);
    expect(again.resolutions[0]!.videoId).toBe(two);
  });
});
