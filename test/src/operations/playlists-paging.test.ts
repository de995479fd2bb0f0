import { describe, expect, it } from "vitest";
import {
  buildPlaylistPages,
  fixturesPresent,
  startPlaylistServer,
  videoIdOf,
} from "../../../bench/playlist.js";
import { MusicClient } from "../../../src/index.js";

/**
 * The benchmark's 5,000-track playlist (pages built from the real continuation capture's shape) read
 * with `limit: null`: every track arrives, once, in order. Timing is the benchmark's business.
 */
(fixturesPresent ? describe : describe.skip)(
  `getPlaylist paging a 5,000-track playlist${fixturesPresent ? "" : " (skipped: ../shared/fixtures is absent)"}`,
  () => {
    it("reads all 50 pages and keeps the tracks in order", async () => {
      const pages = buildPlaylistPages(5000, 100);
      const server = await startPlaylistServer(pages);
      try {
        const client = new MusicClient({ baseUrl: server.url, retry: false });
        const playlist = await client.getPlaylist("PL0jp-uZ7a4g9FQWW5R_u0pz4yzV4RiOXu", { limit: null });
        expect(playlist.tracks).toHaveLength(5000);
        expect(playlist.tracks.map((t) => t.videoId)).toEqual(
          Array.from({ length: 5000 }, (_, i) => videoIdOf(i)),
        );
        expect(playlist.title).toBe("The Beatles - Beatles 100 (Official Playlist)");
      } finally {
        await server.close();
      }
    });

    it("stops after the page that reaches the limit", async () => {
      const pages = buildPlaylistPages(1000, 100);
      const server = await startPlaylistServer(pages);
      try {
        const client = new MusicClient({ baseUrl: server.url, retry: false });
        const playlist = await client.getPlaylist("PL0jp-uZ7a4g9FQWW5R_u0pz4yzV4RiOXu", { limit: 250 });
        expect(playlist.tracks).toHaveLength(300);
        expect(playlist.tracks[299]?.videoId).toBe(videoIdOf(299));
      } finally {
        await server.close();
      }
    });
  },
);
