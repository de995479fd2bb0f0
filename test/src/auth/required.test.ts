import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthError, ErrorCodes, MusicClient } from "../../../src/index.js";
import { startServer, type TestServer } from "../../support/replay-server.js";

/**
 * Every operation that needs credentials refuses, before sending anything, on a client that has
 * none: the server below counts the requests that reach it.
 */

const SONG = { playbackTracking: { videostatsPlaybackUrl: { baseUrl: "http://127.0.0.1:9/stats" } } };

const NEEDS_AUTH: Array<[string, unknown[]]> = [
  ["getLibraryPlaylists", []],
  ["getLibrarySongs", []],
  ["getLibraryAlbums", []],
  ["getLibraryArtists", []],
  ["getLibrarySubscriptions", []],
  ["getLibraryPodcasts", []],
  ["getLibraryChannels", []],
  ["getLikedSongs", []],
  ["getSavedEpisodes", []],
  ["getHistory", []],
  ["addHistoryItem", [SONG]],
  ["removeHistoryItems", [["token"]]],
  ["rateSong", ["dQw4w9WgXcQ", "LIKE"]],
  ["editSongLibraryStatus", [["token"]]],
  ["ratePlaylist", ["PLx", "LIKE"]],
  ["subscribeArtists", [["UCx"]]],
  ["unsubscribeArtists", [["UCx"]]],
  ["getAccountInfo", []],
  ["createPlaylist", ["title", "description"]],
  ["editPlaylist", ["PLx", { title: "new" }]],
  ["deletePlaylist", ["PLx"]],
  ["addPlaylistItems", ["PLx", ["dQw4w9WgXcQ"]]],
  ["removePlaylistItems", ["PLx", [{ videoId: "dQw4w9WgXcQ", setVideoId: "S1" }]]],
  ["getLibraryUploadSongs", []],
  ["getLibraryUploadArtists", []],
  ["getLibraryUploadAlbums", []],
  ["getLibraryUploadArtist", ["FEmusic_library_privately_owned_artist_detailx"]],
  ["getLibraryUploadAlbum", ["FEmusic_library_privately_owned_release_detailx"]],
  ["uploadSong", ["song.mp3"]],
  ["deleteUploadEntity", ["t_po_x"]],
  ["getTasteProfile", []],
  ["setTasteProfile", [["Artist"]]],
  ["search", ["x", { scope: "library" }]],
  ["search", ["x", { scope: "uploads" }]],
];

describe("operations that need credentials", () => {
  let server: TestServer;
  let client: MusicClient;
  beforeAll(async () => {
    server = await startServer(() => ({ body: {} }));
    client = new MusicClient({ baseUrl: server.url, uploadUrl: server.url });
  });
  afterAll(() => server.close());

  for (const [method, args] of NEEDS_AUTH) {
    it(`${method}(${JSON.stringify(args).slice(1, -1)}) fails before any request`, async () => {
      const call = (client as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method];
      expect(typeof call).toBe("function");
      const error = await call?.apply(client, args).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).code).toBe(ErrorCodes.AUTH_REQUIRED);
      expect(server.requests).toHaveLength(0);
    });
  }
});
