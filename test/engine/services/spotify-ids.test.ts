import { describe, expect, it } from "vitest";
import { looksEditorial, spotifyObject, spotifyPlaylistId } from "../../../engine/services/spotify/ids.js";

const ID = "3cEYpjA9oz9GiPac4AsH4n";

describe("spotifyPlaylistId", () => {
  it.each([
    [ID],
    [` ${ID}\n`],
    [`https://open.spotify.com/playlist/${ID}`],
    [`https://open.spotify.com/playlist/${ID}?si=1a2b3c4d5e6f7a8b`],
    [`https://open.spotify.com/intl-de/playlist/${ID}`],
    [`https://open.spotify.com/embed/playlist/${ID}`],
    [`https://open.spotify.com/user/spotify/playlist/${ID}`],
    [`spotify:playlist:${ID}`],
    [`spotify:user:someone:playlist:${ID}`],
  ])("reads %j", (text) => {
    expect(spotifyPlaylistId(text)).toBe(ID);
  });

  it.each([
    [""],
    [`${ID}x`],
    [ID.slice(1)],
    [`https://open.spotify.com/album/${ID}`],
    [`https://open.spotify.com/playlist/${ID}/tracks`],
    [`https://evil.example/playlist/${ID}`],
    [`https://open.spotify.com.evil.example/playlist/${ID}`],
    [`ftp://open.spotify.com/playlist/${ID}`],
    [`spotify:track:${ID}`],
    [`spotify:playlist:${ID}:extra`],
    ["37i9dQZF1DXcBWIGoYBM5M!"],
  ])("refuses %j", (text) => {
    expect(spotifyPlaylistId(text)).toBeNull();
  });

  it("names the kind of other objects", () => {
    expect(spotifyObject(`https://open.spotify.com/track/${ID}?si=x`)).toEqual({ kind: "track", id: ID });
    expect(spotifyObject(`spotify:album:${ID}`)).toEqual({ kind: "album", id: ID });
  });

  it("tells Spotify's own editorial playlists by their ids", () => {
    expect(looksEditorial("37i9dQZF1DXcBWIGoYBM5M")).toBe(true);
    expect(looksEditorial(ID)).toBe(false);
  });
});
