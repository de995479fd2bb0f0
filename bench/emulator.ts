/**
 * Emulator benchmark (`npx tsx bench/emulator.ts`): the time to generate the 100,000-song
 * catalogue, then requests per second for a 100-track getPlaylist, a filtered search and an
 * add-items write, each under concurrent load from a second process on loopback.
 *
 * Options: --size N (songs, default 100000), --seconds S per scenario (default 5),
 * --concurrency C (default 32), --max N requests per scenario (default 50000), --uncached (turn
 * the emulator's response cache off, so that every read is rendered from the database),
 * --no-row-cache (also turn off the cache of serialized playlist rows, so that every row is rendered
 * and serialized again: the emulator as it was before that cache).
 *
 * The load sends `accept-encoding: gzip`, as the client does, so responses travel compressed.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import { startEmulator } from "../emulator/index.js";
import type { LoadJob, LoadResult } from "./emulator-load.js";

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : Number.NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

const size = flag("size", 100_000);
const seconds = flag("seconds", 5);
const concurrency = flag("concurrency", 32);
const maxRequests = flag("max", 50_000);
const cache = !process.argv.includes("--uncached");
const rowCache = !process.argv.includes("--no-row-cache");

function load(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL("./emulator-load.ts", import.meta.url)), [], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${job.name}: load process did not finish`));
    }, job.durationMs + 60_000);
    child.once("message", (m) => {
      clearTimeout(timer);
      const result = m as LoadResult & { error?: string };
      if (result.error) reject(new Error(result.error));
      else resolve(result);
    });
    child.once("error", reject);
    child.send(job);
  });
}

async function main() {
  const emu = await startEmulator({ catalogueSize: size, seed: 1, cache, rowCache });
  console.log(`catalogue: ${size} songs generated in ${(emu.generationMs / 1000).toFixed(2)} s`);
  try {
    const store = emu.state.store;
    const chart = store
      .st(
        "SELECT p.playlist_id AS id FROM playlists p WHERE (SELECT count(*) FROM playlist_items i WHERE i.playlist_id = p.playlist_id) = 100 LIMIT 1",
      )
      .get() as { id: string };
    const headers = (await (await request(`${emu.url}/_emulator/accounts/1/headers`)).body.json()) as Record<
      string,
      string
    >;
    const context = {
      client: { clientName: "WEB_REMIX", clientVersion: "1.20260101.01.00", hl: "en" },
      user: {},
    };
    const api = (endpoint: string, body: object) => ({
      path: `/youtubei/v1/${endpoint}?alt=json&prettyPrint=false`,
      body: JSON.stringify({ context, ...body }),
    });
    // Writes go to 50 fresh playlists in turn, so no list nears the 5,000-item limit.
    const targets: string[] = [];
    for (let i = 0; i < 50; i++) {
      const r = await request(`${emu.url}/youtubei/v1/playlist/create`, {
        method: "POST",
        body: JSON.stringify({ context, title: `bench ${i}`, privacyStatus: "PRIVATE" }),
        headers: { "content-type": "application/json", ...headers },
      });
      targets.push(((await r.body.json()) as { playlistId: string }).playlistId);
    }
    const videos = (store.st("SELECT video_id AS v FROM songs LIMIT 200").all() as { v: string }[]).map(
      (r) => r.v,
    );
    const words = ["the", "golden", "river", "night", "blue", "fire", "echo", "wild", "heart", "city"];
    const common = { url: emu.url, concurrency, durationMs: seconds * 1000, maxRequests };
    const jobs: LoadJob[] = [
      {
        ...common,
        name: "getPlaylist (100 tracks)",
        headers: {},
        requests: [api("browse", { browseId: `VL${chart.id}` })],
      },
      {
        ...common,
        name: "search (songs filter)",
        headers: {},
        requests: words.map((q) => api("search", { query: q, params: "EgWKAQIIAWoMEA4QChADEAQQCRAF" })),
      },
      {
        ...common,
        name: "addPlaylistItems (write)",
        headers,
        requests: Array.from({ length: 500 }, (_, i) =>
          api("browse/edit_playlist", {
            playlistId: targets[i % targets.length],
            actions: [
              {
                action: "ACTION_ADD_VIDEO",
                addedVideoId: videos[i % videos.length],
                dedupeOption: "DEDUPE_OPTION_SKIP",
              },
            ],
          }),
        ),
      },
    ];
    console.log(
      `load: ${concurrency} concurrent requests from a second process, ${seconds} s or ${maxRequests} requests per scenario, ` +
        `response cache ${cache ? "on" : "off"}, row cache ${rowCache ? "on" : "off"}`,
    );
    for (const job of jobs) {
      const r = await load(job);
      console.log(
        `${r.name.padEnd(28)} ${r.perSecond.toFixed(0).padStart(6)} req/s  ${String(r.requests).padStart(6)} requests  ` +
          `${r.errors} errors  p50 ${r.p50ms.toFixed(1)} ms  p99 ${r.p99ms.toFixed(1)} ms  ` +
          `${(r.bytes / r.requests / 1024).toFixed(0)} KiB/response`,
      );
    }
  } finally {
    await emu.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
