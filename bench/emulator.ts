/**
 * bench/emulator — how fast the emulator answers reads, cached and uncached, and how long the engine
 * takes to follow a 10 % change of a 5,000-item playlist against it.
 *
 *   npx tsx bench/emulator.ts [--size N] [--seconds S] [--max N] [--concurrency C] [--runs R]
 *                             [--churn-size N] [--no-churn]
 *
 * Reads: a 100-track playlist page (signed in, as its owner), a songs search and an unfiltered search
 * (every category's shelf), each cycling through ten words, sent from a second process
 * (bench/emulator-load.ts) over loopback through a keep-alive undici Agent with `accept-encoding:
 * gzip` as the client sends it, for S seconds or N requests, whichever ends first. "cached" is the emulator as started by default; "uncached" is one started
 * with `cache: false`, which renders every response from the database as a read after a write
 * does (users' tests write between reads). The row cache stays on in both, as by default.
 *
 * Moves: one editPlaylist request of 100 ACTION_MOVE_VIDEO_BEFORE on a 5,000-row playlist.
 *
 * Churn: the engine's mirror of a 5,000-item static list (test/support/sync-harness.ts, as in
 * test/engine/run/sync-scale.test.ts), then a seeded random 10 % of its items replaced by others and
 * synced again; the second sync's time is the figure.
 *
 * Prints medians of R runs of each read scenario. Never fails on a slow figure; a scenario whose
 * requests failed prints its error count.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import type { RunningEmulator } from "../emulator/index.js";
import { syncRecipe } from "../engine/run/runner.js";
import {
  catalogueSongs,
  type Harness,
  bigMirror as mirror,
  recipe,
  startHarness,
} from "../test/support/sync-harness.js";
import { commandLine } from "./args.js";
import type { LoadJob, LoadResult } from "./emulator-load.js";

const args = commandLine({
  script: "bench/emulator",
  numbers: {
    size: { default: 100_000 },
    seconds: { default: 3 },
    max: { default: 20_000 },
    concurrency: { default: 8 },
    runs: { default: 3 },
    "churn-size": { default: 5000 },
  },
  switches: ["no-churn"],
});
const { size, seconds, max: maxRequests, concurrency, runs, "churn-size": churnSize } = args.numbers;
const churn = !args.switches["no-churn"];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 4294967296;
  };
}

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

const CONTEXT = {
  client: { clientName: "WEB_REMIX", clientVersion: "1.20260101.01.00", hl: "en" },
  user: {},
};
const api = (endpoint: string, body: object) => ({
  path: `/youtubei/v1/${endpoint}?alt=json&prettyPrint=false`,
  body: JSON.stringify({ context: CONTEXT, ...body }),
});

async function post(emu: RunningEmulator, headers: Record<string, string>, endpoint: string, body: object) {
  const r = api(endpoint, body);
  const res = await request(emu.url + r.path, {
    method: "POST",
    body: r.body,
    headers: { "content-type": "application/json", ...headers },
  });
  const json = (await res.body.json()) as Record<string, unknown>;
  if (res.statusCode !== 200) throw new Error(`${endpoint}: ${res.statusCode} ${JSON.stringify(json)}`);
  return json;
}

/** A private playlist of `videoIds` owned by the harness's account; its id. */
async function createPlaylist(h: Harness, title: string, videoIds: string[]): Promise<string> {
  const r = await post(h.emulator, h.headers, "playlist/create", {
    title,
    privacyStatus: "PRIVATE",
    videoIds,
  });
  return r.playlistId as string;
}

/** The setVideoIds of a playlist in order, through the client (all continuations). */
async function setVideoIds(h: Harness, playlistId: string): Promise<string[]> {
  const p = await h.person.getPlaylist(playlistId, { limit: null });
  return p.tracks.map((t) => t.setVideoId ?? "");
}

const WORDS = ["the", "golden", "river", "night", "blue", "fire", "echo", "wild", "heart", "city"];
const SONGS_FILTER = "EgWKAQIIAWoMEA4QChADEAQQCRAF";

/** Read scenarios against one emulator: reads per second, medians of `runs`. */
async function reads(cache: boolean): Promise<Record<string, number>> {
  const h = await startHarness({ catalogueSize: size, seed: 1, cache });
  try {
    const playlistId = await createPlaylist(h, "bench page", catalogueSongs(h, 100));
    const common = { url: h.emulator.url, concurrency, durationMs: seconds * 1000, maxRequests };
    const jobs: LoadJob[] = [
      {
        ...common,
        name: "playlist page (100 tracks)",
        headers: h.headers,
        requests: [api("browse", { browseId: `VL${playlistId}` })],
      },
      {
        ...common,
        name: "search (songs filter)",
        headers: {},
        requests: WORDS.map((q) => api("search", { query: q, params: SONGS_FILTER })),
      },
      {
        // Every category's shelf: the playlist shelves look through the playlists' songs too.
        ...common,
        name: "search (all categories)",
        headers: {},
        requests: WORDS.map((q) => api("search", { query: q })),
      },
    ];
    const out: Record<string, number> = {};
    for (const job of jobs) {
      const figures: number[] = [];
      for (let run = 0; run < runs; run++) {
        const r = await load(job);
        figures.push(r.perSecond);
        if (r.errors > 0) console.log(`  ${job.name}: ${r.errors} of ${r.requests} requests failed`);
        if (run === 0)
          console.log(`  ${job.name}: ${(r.bytes / Math.max(1, r.requests) / 1024).toFixed(0)} KiB/response`);
      }
      out[job.name] = median(figures);
    }
    return out;
  } finally {
    await h.stop();
  }
}

/** Milliseconds of one editPlaylist request moving 100 rows of a `churnSize`-row playlist; median of 5. */
async function moves(h: Harness): Promise<number> {
  const songs = catalogueSongs(h, churnSize);
  const playlistId = await createPlaylist(h, "bench moves", songs);
  const rows = await setVideoIds(h, playlistId);
  const next = random(7);
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    const actions = Array.from({ length: 100 }, () => ({
      action: "ACTION_MOVE_VIDEO_BEFORE",
      setVideoId: rows[Math.floor(next() * rows.length)],
      movedSetVideoIdSuccessor: rows[Math.floor(next() * rows.length)],
    })).filter((a) => a.setVideoId !== a.movedSetVideoIdSuccessor);
    const t0 = performance.now();
    await post(h.emulator, h.headers, "browse/edit_playlist", { playlistId, actions });
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** The engine's churn sync: milliseconds of the first sync and of the one after a random 10 % change. */
async function churnSync(): Promise<{ first: number; churn: number; moveMs: number; summary: string }> {
  const h = await startHarness({ catalogueSize: Math.ceil(churnSize * 1.2) });
  try {
    const env = h.env();
    const songs = catalogueSongs(h, Math.ceil(churnSize * 1.1));
    const first = songs.slice(0, churnSize);
    const t0 = performance.now();
    const r1 = await syncRecipe(recipe(h.project, mirror(first)), env);
    const t1 = performance.now();
    if (r1.outcome !== "converged") throw new Error(`first sync: ${r1.outcome} ${r1.error ?? ""}`);
    // A random 10 %: that many positions, drawn without repeats, get songs not in the playlist.
    const next = random(11);
    const changed = new Set<number>();
    while (changed.size < churnSize / 10) changed.add(Math.floor(next() * churnSize));
    let fresh = churnSize;
    const wanted = first.map((id, i) => (changed.has(i) ? songs[fresh++]! : id));
    const t2 = performance.now();
    const r2 = await syncRecipe(recipe(h.project, mirror(wanted)), env);
    const t3 = performance.now();
    if (r2.outcome !== "converged") throw new Error(`churn sync: ${r2.outcome} ${r2.error ?? ""}`);
    const s = r2.plan!.summary;
    const summary = `${s.remove} removes, ${s.add} adds, ${s.move} moves in ${s.requests} requests`;
    return { first: t1 - t0, churn: t3 - t2, moveMs: await moves(h), summary };
  } finally {
    await h.stop();
  }
}

async function main() {
  console.log(
    `reads: catalogue ${size} songs, ${concurrency} concurrent requests from a second process, ` +
      `${seconds} s or ${maxRequests} requests per run, median of ${runs} runs`,
  );
  const cached = await reads(true);
  const uncached = await reads(false);
  for (const name of Object.keys(cached)) {
    console.log(
      `${name.padEnd(28)} cached ${cached[name]!.toFixed(0).padStart(6)} reads/s   ` +
        `uncached ${uncached[name]!.toFixed(0).padStart(6)} reads/s`,
    );
  }
  if (!churn) return;
  const c = await churnSync();
  console.log(
    `churn sync (${churnSize} items, random 10 %: ${c.summary}): ${Math.round(c.churn)} ms ` +
      `(first sync ${Math.round(c.first)} ms)`,
  );
  console.log(`100 moves in one request on a ${churnSize}-row playlist: ${c.moveMs.toFixed(1)} ms`);
}

main().catch((error: unknown) => {
  // A bench prints figures; a failure is reported, never a non-zero exit that would fail a run.
  console.error(error);
});
