/**
 * The engine reads through `SourceClient`; the real client must fit it. The assignment below is
 * checked by `tsc --noEmit` (a mismatch in a result field's type fails the type check); the test
 * checks at run time that every method the engine calls exists on MusicClient.
 */
import { describe, expect, it } from "vitest";
import type { SourceClient } from "../../../engine/sources/reader.js";
import { MusicClient } from "../../../src/index.js";

const READS: (keyof SourceClient)[] = [
  "getPlaylist",
  "getLikedSongs",
  "getSavedEpisodes",
  "getCharts",
  "search",
  "getWatchPlaylist",
  "getLibrarySongs",
  "getLibraryAlbums",
  "getLibraryArtists",
  "getLibrarySubscriptions",
  "getLibraryPlaylists",
  "getLibraryPodcasts",
  "getHistory",
  "getPodcast",
  "getEpisodesPlaylist",
  "getAlbum",
  "getAlbumBrowseId",
  "getArtist",
  "getArtistAlbums",
  "getMoodCategories",
  "getMoodPlaylists",
];

describe("MusicClient as the engine's source client", () => {
  // The annotation is the type check: a MusicClient must be usable wherever a SourceClient is.
  const client: SourceClient = new MusicClient();

  it.each(READS)("has %s", (name) => {
    expect(typeof client[name]).toBe("function");
  });
});
