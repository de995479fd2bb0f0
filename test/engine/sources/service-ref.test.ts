import { describe, expect, it } from "vitest";
import { looksLikeServiceList, serviceListNamed } from "../../../engine/sources/service-ref.js";

const ID = "3cEYpjA9oz9GiPac4AsH4n";
const MBID = "3a3e44d4-4f4b-4b69-9d42-1c9f0e1b2c3d";
const at = (text: string) => serviceListNamed(text, "/p/matches.yaml");

describe("serviceListNamed", () => {
  it("reads each service's lists into the source a recipe would hold", () => {
    expect(at(`spotify:playlist:${ID}`)).toMatchObject({ type: "spotify", playlist: ID, library: null });
    expect(at(`https://open.spotify.com/playlist/${ID}?si=x`)).toMatchObject({ playlist: ID });
    expect(at("spotify:liked")).toMatchObject({ type: "spotify", playlist: null, library: "liked" });
    expect(at("spotify:albums")).toMatchObject({ type: "spotify", playlist: null, library: "albums" });
    expect(at("spotify:artists")).toMatchObject({ type: "spotify", playlist: null, library: "artists" });
    expect(at(`listenbrainz:playlist:${MBID.toUpperCase()}`)).toMatchObject({ playlist: MBID, user: null });
    expect(at("listenbrainz:rob:weekly-exploration")).toMatchObject({
      user: "rob",
      series: "weekly-exploration",
    });
    expect(at("listenbrainz:rob:top:month")).toMatchObject({ user: "rob", top: "month", series: null });
    expect(at("lastfm:rj:loved")).toMatchObject({ type: "lastfm", user: "rj", list: "loved" });
    expect(at("lastfm:rj:top:7day")).toMatchObject({ list: "top", period: "7day" });
    expect(at("lastfm:rj:top")).toMatchObject({
      list: "top",
      period: "overall",
      overrides: "/p/matches.yaml",
    });
  });

  it.each([
    `spotify:album:${ID}`,
    "spotify:album",
    "spotify:albums:mine",
    "spotify:playlist:short",
    `https://open.spotify.com/track/${ID}`,
    "listenbrainz:playlist:not-an-mbid",
    "listenbrainz:rob:weekly-mixtape",
    "listenbrainz:rob:top:decade",
    "lastfm:rj:hated",
    "lastfm:rj:top:7day:more",
    "lastfm:rj:loved:7day",
    "lastfm::loved",
  ])("refuses %j, which looks like a service's list", (text) => {
    expect(looksLikeServiceList(text)).toBe(true);
    expect(at(text)).toBeNull();
  });

  it("leaves paths alone", () => {
    for (const path of ["playlist.csv", "./spotify/export.csv", "C:\\music\\list.m3u", "spotify.csv"]) {
      expect(looksLikeServiceList(path)).toBe(false);
      expect(at(path)).toBeNull();
    }
  });
});
