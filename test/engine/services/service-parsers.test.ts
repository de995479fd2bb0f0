/**
 * The readers' pure parts on the documented examples (test/fixtures/services/): what each
 * service's row becomes, the shapes that vary (an identifier as a string or a list, a page of one
 * written bare, a now-playing row, "" and "0" for unknown) included.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isNowPlaying, lastfmTrack, rowsOf } from "../../../engine/services/lastfm/tracks.js";
import { jspfTracks, playlistInfo } from "../../../engine/services/listenbrainz/jspf.js";
import { statsPage } from "../../../engine/services/listenbrainz/stats.js";

const fixture = (path: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../fixtures/services/${path}`, import.meta.url), "utf8"));

describe("ListenBrainz JSPF and statistics", () => {
  it("reads a track: recording MBID, the credit's artists, album, duration in seconds", () => {
    const { entries } = jspfTracks(fixture("listenbrainz/playlist.json"));
    expect(entries).toEqual([
      {
        title: "Example Song",
        artists: ["Example Artist", "Guest Singer"],
        album: "Example Album",
        durationSeconds: 214,
        explicit: null,
        isrc: null,
        mbid: "6d1f0c2a-58b4-4e3f-8a71-0c9e2b5d4f13",
        serviceId: "musicbrainz:recording:6d1f0c2a-58b4-4e3f-8a71-0c9e2b5d4f13",
      },
    ]);
    expect(jspfTracks(fixture("listenbrainz/playlist-string-identifier.json")).entries).toEqual(entries);
  });

  it("recognises a series by source_patch, and by title where the patch is missing", () => {
    const raw = fixture("listenbrainz/createdfor.json") as {
      playlists: { playlist: Record<string, unknown> }[];
    };
    const info = playlistInfo(raw.playlists[0]);
    expect(info).toMatchObject({ series: "weekly-exploration", createdFor: "example-user", public: true });
    const bare = { playlist: { ...raw.playlists[0]!.playlist, extension: {} } };
    expect(playlistInfo(bare)?.series).toBe("weekly-exploration");
    const renamed = {
      playlist: { ...raw.playlists[0]!.playlist, title: "Weekly Jams for x, week of 2026-03-02 Mon" },
    };
    // The recorded patch wins over a title that says otherwise.
    expect(playlistInfo(renamed)?.series).toBe("weekly-exploration");
  });

  it("keeps an unmapped listen by its names", () => {
    const page = statsPage(fixture("listenbrainz/stats-recordings.json"));
    expect([page.count, page.total, page.sent]).toEqual([2, 120, 2]);
    expect(page.rows[1]).toMatchObject({
      mbid: null,
      artists: ["Unmapped Band"],
      serviceId: "listenbrainz:listen:Unmapped Band/A Listen Without MBIDs",
    });
  });
});

describe("Last.fm rows", () => {
  it("reads names under 'name' or '#text', '' and '0' as unknown, keyed by the track's address", () => {
    const top = rowsOf(
      (fixture("lastfm/user.gettoptracks.json") as { toptracks: { track: unknown } }).toptracks.track,
    );
    const [a, b] = top.map(lastfmTrack);
    expect(a).toMatchObject({
      mbid: "6d1f0c2a-58b4-4e3f-8a71-0c9e2b5d4f13",
      durationSeconds: 214,
      album: null,
    });
    expect(b).toMatchObject({
      mbid: null,
      durationSeconds: null,
      serviceId: "lastfm:track:Example+Artist/Other+Song",
    });
    const recent = rowsOf(
      (fixture("lastfm/user.getrecenttracks.json") as { recenttracks: { track: unknown } }).recenttracks
        .track,
    );
    expect(recent.map(isNowPlaying)).toEqual([true, false]);
    expect(lastfmTrack(recent[1])).toMatchObject({ artists: ["Example Artist"], album: "Example Album" });
  });

  it("takes a page of one written bare as a list of one", () => {
    const raw = fixture("lastfm/user.getlovedtracks-one.json") as { lovedtracks: { track: unknown } };
    expect(rowsOf(raw.lovedtracks.track)).toHaveLength(1);
    expect(rowsOf(undefined)).toEqual([]);
  });
});
