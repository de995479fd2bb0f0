/**
 * What bench/workers.ts sets up for each scenario: a fresh PostgreSQL database, N new accounts on the
 * emulator (stored in the state with sealed credentials, as `musicsync accounts add` stores them),
 * a project whose recipes sync R playlists per account, and the checks made after the workers
 * stopped (one playlist per recipe, no duplicate row, no overlapping writes of an account).
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type pg from "pg";
import { sealAccount, storeAccount } from "../engine/accounts/accounts.js";
import { ACCOUNTS_KEY_VARIABLE, newAccountsKey } from "../engine/accounts/seal.js";
import { openState } from "../engine/state/open.js";
import { MusicClient } from "../src/index.js";

export interface Scenario {
  dir: string;
  projectFile: string;
  stateUrl: string;
  env: Record<string, string>;
  accounts: { name: string; headers: Record<string, string> }[];
  /** The songs each recipe's playlist must hold, by recipe id. */
  desired: Map<string, { account: string; title: string; ids: string[] }>;
}

export interface ScenarioSize {
  accounts: number;
  recipes: number;
  songs: number;
  seed: number;
  /** Least time between two writes of one account (0: pacing off, the engine's own speed). */
  pacingMs: number;
}

/** A small seeded generator, so every scenario's lists are the same for a given seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

function pick(songs: readonly string[], n: number, next: () => number): string[] {
  const chosen = new Set<string>();
  while (chosen.size < n) chosen.add(songs[Math.floor(next() * songs.length)]!);
  return [...chosen];
}

async function createAccounts(emulator: string, count: number, seed: number) {
  const r = await fetch(`${emulator}/_emulator/accounts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ count, seed, playlists: 1, songs: 5, liked: 5 }),
  });
  if (!r.ok) throw new Error(`creating accounts: ${r.status} ${await r.text()}`);
  const body = (await r.json()) as { accounts: { id: number; headers: Record<string, string> }[] };
  return body.accounts.map((a, i) => ({ name: `acc${i + 1}`, headers: a.headers }));
}

function recipeYaml(id: string, account: string, title: string, ids: readonly string[]): string {
  return [
    "apiVersion: musicsync/v1",
    "kind: Recipe",
    `id: ${id}`,
    `account: ${account}`,
    "sources:",
    `  - { id: list, type: static, videoIds: [${ids.join(", ")}] }`,
    "target:",
    "  type: playlist",
    `  playlist: { title: "${title}", privacy: PRIVATE }`,
    "mode: mirror",
    "policy: { batch_size: 5 }",
    "",
  ].join("\n");
}

/** The project: state on PostgreSQL, pacing as asked (off by default: the engine's own speed). */
async function writeProject(
  dir: string,
  stateUrl: string,
  emulator: string,
  first: Scenario["accounts"][0],
  pacingMs: number,
) {
  await writeFile(join(dir, "first.json"), JSON.stringify(first.headers));
  // The schema wants one account in the file; the others are stored in the state.
  const text = [
    "apiVersion: musicsync/v1",
    "kind: Project",
    "accounts:",
    `  ${first.name}: { auth: first.json, base_url: "${emulator}" }`,
    `defaults: { account: ${first.name} }`,
    `pacing: { min_interval_ms: ${pacingMs}, max_writes_per_minute: 100000 }`,
    "recipes: [recipes]",
    `state: "${stateUrl}"`,
    "",
  ].join("\n");
  await writeFile(join(dir, "musicsync.yaml"), text);
}

export async function prepareScenario(
  emulator: string,
  songs: readonly string[],
  stateUrl: string,
  size: ScenarioSize,
): Promise<Scenario> {
  const dir = await mkdtemp(join(tmpdir(), "bench-workers-"));
  await mkdir(join(dir, "recipes"));
  const accounts = await createAccounts(emulator, size.accounts, size.seed);
  const env = { [ACCOUNTS_KEY_VARIABLE]: newAccountsKey() };
  await writeProject(dir, stateUrl, emulator, accounts[0]!, size.pacingMs);
  const state = openState(stateUrl);
  try {
    for (const a of accounts.slice(1)) {
      const input = { auth: JSON.stringify(a.headers), base_url: emulator };
      await storeAccount(state, sealAccount(a.name, input, Date.now(), env));
    }
  } finally {
    await state.close();
  }
  const desired: Scenario["desired"] = new Map();
  const next = rng(size.seed);
  for (const a of accounts) {
    for (let j = 1; j <= size.recipes; j++) {
      const id = `${a.name}-r${j}`;
      const entry = { account: a.name, title: `Bench mix ${j}`, ids: pick(songs, size.songs, next) };
      desired.set(id, entry);
      await writeFile(join(dir, "recipes", `${id}.yaml`), recipeYaml(id, a.name, entry.title, entry.ids));
    }
  }
  return { dir, projectFile: join(dir, "musicsync.yaml"), stateUrl, env, accounts, desired };
}

/** Recipes with a finished, converged sync (what the scenario waits for). */
export async function convergedRecipes(db: pg.Client): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    "SELECT count(DISTINCT recipe_id) AS n FROM runs WHERE kind = 'sync' AND result IN ('converged', 'no_changes')",
  );
  return Number(rows[0]?.n ?? 0);
}

/** Jobs of the run queue by state (created, retry, active, completed, failed…). */
export async function jobStates(db: pg.Client): Promise<Record<string, number>> {
  const { rows } = await db.query<{ state: string; n: string }>(
    "SELECT state, count(*) AS n FROM musicsync_queue.job WHERE name = 'musicsync-recipe-run' GROUP BY state",
  );
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}

export interface Verdict {
  secondPlaylists: number;
  duplicateRows: number;
  wrongPlaylists: number;
  overlaps: number;
}

/** Reads every account's playlists back as its owner sees them, and the emulator's overlap count. */
export async function verify(emulator: string, s: Scenario): Promise<Verdict> {
  const v: Verdict = { secondPlaylists: 0, duplicateRows: 0, wrongPlaylists: 0, overlaps: 0 };
  const byAccount = new Map<string, { title: string; ids: string[] }[]>();
  for (const d of s.desired.values()) byAccount.set(d.account, [...(byAccount.get(d.account) ?? []), d]);
  for (const a of s.accounts) {
    const client = new MusicClient({ auth: a.headers, baseUrl: emulator });
    const lists = await client.getLibraryPlaylists({ limit: null });
    for (const want of byAccount.get(a.name) ?? []) {
      const found = lists.filter((p) => p.title === want.title);
      v.secondPlaylists += Math.max(0, found.length - 1);
      if (found.length === 0) {
        v.wrongPlaylists++;
        continue;
      }
      const rows = (await client.getPlaylist(found[0]!.playlistId, { limit: null })).tracks.map(
        (t) => t.videoId,
      );
      v.duplicateRows += rows.length - new Set(rows).size;
      const same = rows.length === want.ids.length && want.ids.every((id) => rows.includes(id));
      if (!same) v.wrongPlaylists++;
    }
  }
  const o = (await (await fetch(`${emulator}/_emulator/requests/overlaps`)).json()) as { overlaps: number };
  v.overlaps = o.overlaps;
  return v;
}
