/**
 * bench/match — how well musicsync matches playlist-file entries to songs on the emulator.
 *
 *   npx tsx bench/match.ts [--size N] [--entries N] [--seed S]
 *
 * Starts an emulator (catalogue of N songs, default 2000, with its versions, covers, karaoke
 * takes, shared titles, featured artists and titles in other scripts), builds `--entries` (default
 * 400) entries with known answers and real exports' disturbances (bench/match-entries.ts), and
 * resolves them as a `file` source does: search through the real client, songs first then videos,
 * results cached in a state database. Then resolves the same entries again on that cache.
 *
 * Prints the misses by kind (the three most common first), the second run's searches, and as its
 * last line `precision P recall R entries N searches S`: P = correct among accepted, R = accepted
 * and correct among the entries the catalogue has, S = search requests the emulator received.
 * Goals (docs/ENGINE.md#sources): P >= 0.98, R >= 0.92, S/N <= 1.2, and 0 searches on the second run.
 */
import { Rng } from "../emulator/random.js";
import { type Resolution, resolveEntries } from "../engine/match/resolve.js";
import { openSqliteState } from "../engine/state/sqlite.js";
import { MusicClient } from "../src/index.js";
import { startHarness } from "../test/support/sync-harness.js";
import { commandLine } from "./args.js";
import { type BenchEntry, benchEntries } from "./match-entries.js";

const args = commandLine({
  script: "bench/match",
  numbers: { size: { default: 2000 }, entries: { default: 400 }, seed: { default: 7, zero: true } },
});
const { size, entries: count, seed } = args.numbers;

/** What went wrong with one entry, if anything. */
function miss(b: BenchEntry, r: Resolution): string | null {
  if (r.videoId === b.answer) return null;
  if (b.answer === null) return `${b.kind}: matched something (false match)`;
  if (r.videoId === null)
    return `${b.kind}: not matched (${r.reasons[0] ?? "?"})`.replace(/\d+(\.\d+)?/g, "#");
  return `${b.kind}: matched the wrong song (false match)`;
}

function report(bench: readonly BenchEntry[], resolutions: readonly Resolution[]) {
  let accepted = 0;
  let correct = 0;
  const kinds = new Map<string, number>();
  for (const [i, b] of bench.entries()) {
    const r = resolutions[i]!;
    if (r.videoId) accepted++;
    if (r.videoId && r.videoId === b.answer) correct++;
    const m = miss(b, r);
    if (m) kinds.set(m, (kinds.get(m) ?? 0) + 1);
  }
  const existing = bench.filter((b) => b.answer !== null).length;
  return { precision: correct / Math.max(1, accepted), recall: correct / Math.max(1, existing), kinds };
}

async function searchesSent(url: string): Promise<number> {
  const stats = (await (await fetch(`${url}/_emulator/stats`)).json()) as {
    requests: Record<string, number>;
  };
  return stats.requests.search ?? 0;
}

const h = await startHarness({ catalogueSize: size, seed });
try {
  const answers = h.emulator.state.store.catalogue.matchAnswers();
  const bench = benchEntries(new Rng(seed), answers, count);
  const client = new MusicClient({ baseUrl: h.emulator.url });
  const state = openSqliteState(":memory:");
  const deps = {
    search: (query: string, filter: "songs" | "videos") => client.search(query, { filter, limit: 20 }),
    cache: state,
    overrides: new Map<string, string>(),
    now: Date.now(),
  };
  const entries = bench.map((b) => b.entry);
  const before = await searchesSent(h.emulator.url);
  const started = performance.now();
  const first = await resolveEntries(entries, deps);
  const ms = performance.now() - started;
  const searches = (await searchesSent(h.emulator.url)) - before;
  const second = await resolveEntries(entries, deps);
  const again = (await searchesSent(h.emulator.url)) - before - searches;
  const { precision, recall, kinds } = report(bench, first.resolutions);
  console.log(`catalogue ${size} songs (seed ${seed}), ${answers.length} songs with answers`);
  console.log(`first run: ${(ms / 1000).toFixed(1)} s; ${(searches / count).toFixed(2)} searches per entry`);
  console.log("misses by kind, most common first:");
  for (const [kind, n] of [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 8))
    console.log(`  ${String(n).padStart(4)}  ${kind}`);
  console.log(
    `second run over the same file: ${again} searches (${second.searches} reported by the resolver)`,
  );
  await state.close();
  console.log(
    `precision ${precision.toFixed(3)} recall ${recall.toFixed(3)} entries ${count} searches ${searches}`,
  );
} finally {
  await h.stop();
}
