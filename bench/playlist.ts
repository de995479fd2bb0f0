/**
 * Paging through a long playlist: a local server on 127.0.0.1 serves a playlist of 5,000 tracks in
 * pages of 100, built from the real captures' shapes (the 2025 header page `yt_get_playlist_20250604`
 * and the continuation page `yt_get_playlist_continuation_20250604`: rows cloned from the captured
 * row, a trailing `continuationItemRenderer` on every page but the last). The client reads it with
 * `limit: null`; the script prints the time taken and the client process's peak memory.
 *
 *   npx tsx bench/playlist.ts [tracks] [perPage]
 *
 * A benchmark never fails the test run; `test/src/operations/playlists-paging.test.ts` checks the same
 * paging for correctness (all tracks, in order).
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { MusicClient } from "../src/index.js";
import { commandLine } from "./args.js";

const FIXTURES = fileURLToPath(new URL("../../shared/fixtures/responses/", import.meta.url));
const FIRST = "yt_get_playlist_20250604";
const CONTINUATION = "yt_get_playlist_continuation_20250604";

export const fixturesPresent = existsSync(`${FIXTURES}${CONTINUATION}.json`);

type Json = Record<string, unknown>;

function load(name: string): Json {
  return JSON.parse(readFileSync(`${FIXTURES}${name}.json`, "utf8")) as Json;
}

/** The 11-character video id of track `n` (deterministic, distinct for every n). */
export function videoIdOf(n: number): string {
  return `t${String(n).padStart(10, "0")}`;
}

/** A generated playlist: its first page and continuation pages, rendered on demand (as JSON text). */
export interface PlaylistPages {
  readonly tracks: number;
  readonly pages: number;
  /** Page 0 is the playlist page with its header; pages 1… answer continuation tokens. */
  page(index: number): string;
  /** The page a continuation token asks for, or null for an unknown token. */
  pageOfToken(token: string): number | null;
}

/**
 * Builds a playlist of `tracks` tracks in pages of `perPage`, from the captures: the header page
 * keeps its header and loses its rows; every row is the captured row with the video id and title
 * replaced; each page but the last ends with the captured continuation item carrying our token.
 */
export function buildPlaylistPages(tracks = 5000, perPage = 100): PlaylistPages {
  const first = load(FIRST);
  const continuation = load(CONTINUATION);
  const items = (
    continuation as {
      onResponseReceivedActions: Array<{ appendContinuationItemsAction: { continuationItems: Json[] } }>;
    }
  ).onResponseReceivedActions[0]?.appendContinuationItemsAction.continuationItems;
  if (items === undefined) throw new Error(`${CONTINUATION} has no continuation items`);
  const row = items[0] as Json;
  const templateId = ((row.musicResponsiveListItemRenderer as Json).playlistItemData as Json)
    .videoId as string;
  const rowText = JSON.stringify(row);
  const endText = JSON.stringify(items[items.length - 1]);
  const templateToken = (
    ((items[items.length - 1] as Json).continuationItemRenderer as Json).continuationEndpoint as {
      continuationCommand: { token: string };
    }
  ).continuationCommand.token;
  const pageCount = Math.ceil(tracks / perPage);

  const rowsOf = (index: number): string => {
    const parts: string[] = [];
    const start = index * perPage;
    for (let n = start; n < Math.min(start + perPage, tracks); n++) {
      parts.push(rowText.split(templateId).join(videoIdOf(n)));
    }
    if (index < pageCount - 1) parts.push(endText.split(templateToken).join(`bench-page-${index + 1}`));
    return parts.join(",");
  };

  // The header page with an empty shelf; its rows are spliced in as text per request.
  const shelf = (
    (
      (first.contents as Json).twoColumnBrowseResultsRenderer as {
        secondaryContents: { sectionListRenderer: { contents: Array<{ musicPlaylistShelfRenderer: Json }> } };
      }
    ).secondaryContents.sectionListRenderer.contents[0] as { musicPlaylistShelfRenderer: Json }
  ).musicPlaylistShelfRenderer;
  const marker = "__BENCH_ROWS__";
  shelf.contents = [marker];
  const [before, after] = JSON.stringify(first).split(`"${marker}"`) as [string, string];
  const appendedBefore =
    '{"onResponseReceivedActions":[{"appendContinuationItemsAction":{"continuationItems":[';
  const appendedAfter = "]}}]}";

  return {
    tracks,
    pages: pageCount,
    page: (index) =>
      index === 0 ? `${before}${rowsOf(0)}${after}` : `${appendedBefore}${rowsOf(index)}${appendedAfter}`,
    pageOfToken: (token) => {
      const match = /^bench-page-(\d+)$/.exec(token);
      const index = match ? Number(match[1]) : Number.NaN;
      return Number.isInteger(index) && index > 0 && index < pageCount ? index : null;
    },
  };
}

/** Serves the pages on 127.0.0.1: a browse with `browseId` gets page 0, one with `continuation` its page. */
export async function startPlaylistServer(
  pages: PlaylistPages,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (!req.url?.startsWith("/youtubei/v1/")) {
        res.writeHead(200, { "content-type": "text/html" });
        res.end('<html><script>ytcfg.set({"VISITOR_DATA":"bench"});</script></html>');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as { continuation?: string };
      const index = body.continuation === undefined ? 0 : pages.pageOfToken(body.continuation);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(index === null ? "{}" : pages.page(index));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<void> {
  if (!fixturesPresent) {
    console.log(
      "skipped: ../shared/fixtures is not beside the repository (the pages are built from its captures)",
    );
    return;
  }
  const { tracks = 5000, perPage = 100 } = commandLine({
    script: "bench/playlist",
    positionals: [
      { name: "tracks", flag: { default: 5000 } },
      { name: "perPage", flag: { default: 100 } },
    ],
  }).positionals;
  const pages = buildPlaylistPages(tracks, perPage);
  const server = await startPlaylistServer(pages);
  const client = new MusicClient({ baseUrl: server.url, retry: false });
  global.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 5);
  const started = performance.now();
  const playlist = await client.getPlaylist("PL0jp-uZ7a4g9FQWW5R_u0pz4yzV4RiOXu", { limit: null });
  const elapsed = performance.now() - started;
  clearInterval(sampler);
  const after = process.memoryUsage();
  peakRss = Math.max(peakRss, after.rss);
  peakHeap = Math.max(peakHeap, after.heapUsed);
  await server.close();
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const inOrder = playlist.tracks.every((track, i) => track.videoId === videoIdOf(i));
  console.log(
    `playlist paging: ${playlist.tracks.length} tracks in ${pages.pages} pages (${perPage} per page)`,
  );
  console.log(`  time        ${elapsed.toFixed(0)} ms (${(elapsed / pages.pages).toFixed(1)} ms per page)`);
  console.log(`  peak heap   ${mb(peakHeap)} (start ${mb(before.heapUsed)}, end ${mb(after.heapUsed)})`);
  console.log(`  peak rss    ${mb(peakRss)} (start ${mb(before.rss)})`);
  console.log(`  all tracks in order: ${inOrder ? "yes" : "NO"}`);
  console.log("  (server and client share the process: the peak includes the page being served)");
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
