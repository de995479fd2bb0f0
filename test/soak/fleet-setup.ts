/**
 * The fleet's project: a folder beside the seed's project whose `musicsync.yaml` names
 * the seed's account (`default`), a second emulator account made for the fleet (`other`), the
 * seed's recipes and the fleet's own, and the seed's PostgreSQL state; and the emulator readied for
 * the fleet (its write tally cleared, every write slowed so that a run lasts long enough to be cut).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type HarnessAnswer, harnessFetch } from "../support/harness-fetch.js";
import { recipeYaml } from "../support/recipe-yaml.js";
import { type Harness, WRITE_ENDPOINTS } from "../support/sync-harness.js";
import type { FleetPlan, FleetRecipe } from "./fleet-plan.js";

export interface FleetProject {
  dir: string;
  projectFile: string;
  /** The fleet's own recipes, apart from the seed's (which its in-process runs load alone). */
  recipesDir: string;
  /** The second account's browser headers (null when no recipe is of it). */
  otherHeaders: Record<string, string> | null;
}

/** A yearly time: the scheduler plans it, and no run of it comes due while the fleet runs. */
const YEARLY = "0 0 1 1 *";

export function fleetRecipeYaml(r: FleetRecipe): string {
  return recipeYaml({
    id: r.id,
    account: r.account,
    title: r.title,
    ids: r.ids,
    batch: r.batch,
    reshuffle: r.shuffle,
    ...(r.scheduled ? { cron: YEARLY } : {}),
  });
}

/** A new, empty login of the emulator, for the fleet's second account. */
async function newAccount(h: Harness): Promise<Record<string, string>> {
  // Not idempotent (each POST makes an account): sent once, a failure named with its cause.
  const r = await harnessFetch(`${h.emulator.url}/_emulator/accounts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ count: 1, playlists: 0, liked: 0 }),
  });
  if (!r.ok) throw new Error(`fleet: making the second account: ${r.status}`);
  return (JSON.parse(r.text) as { accounts: { headers: Record<string, string> }[] }).accounts[0]!.headers;
}

export async function writeFleetProject(
  h: Harness,
  plan: FleetPlan,
  seedRecipesDir: string,
  stateUrl: string,
): Promise<FleetProject> {
  const dir = join(h.dir, "fleet");
  const recipesDir = join(dir, "recipes");
  await mkdir(recipesDir, { recursive: true });
  const otherHeaders = plan.recipes.some((r) => r.account === "other") ? await newAccount(h) : null;
  await writeFile(join(dir, "default.json"), JSON.stringify(h.headers));
  if (otherHeaders) await writeFile(join(dir, "other.json"), JSON.stringify(otherHeaders));
  for (const r of plan.recipes) await writeFile(join(recipesDir, `${r.id}.yaml`), fleetRecipeYaml(r));
  const account = (name: string) => `  ${name}: { auth: ${name}.json, base_url: "${h.emulator.url}" }`;
  const text = [
    "apiVersion: musicsync/v1",
    "kind: Project",
    "accounts:",
    account("default"),
    ...(otherHeaders ? [account("other")] : []),
    "defaults: { account: default }",
    // No pacing: a worker waiting out the per-minute budget would only stretch the fleet.
    "pacing: { min_interval_ms: 0, max_writes_per_minute: 100000 }",
    `recipes: [${JSON.stringify(seedRecipesDir)}, recipes]`,
    `state: ${JSON.stringify(stateUrl)}`,
    "",
  ].join("\n");
  const projectFile = join(dir, "musicsync.yaml");
  await writeFile(projectFile, text);
  return { dir, projectFile, recipesDir, otherHeaders };
}

/** A read, a DELETE (the tally reset) or a POST that sets the faults: each may be sent again. */
async function control(h: Harness, path: string, method: string, body?: unknown): Promise<HarnessAnswer> {
  const r = await harnessFetch(
    `${h.emulator.url}/_emulator/${path}`,
    {
      method,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    { idempotent: true },
  );
  if (!r.ok) throw new Error(`fleet: ${method} ${path}: ${r.status} ${r.text}`);
  return r;
}

/** The write tally from zero, and every write slowed by `slowMs`. */
export async function readyEmulator(h: Harness, slowMs: number): Promise<void> {
  await control(h, "requests", "DELETE");
  await control(h, "faults", "POST", {
    config: { rate: 1, kinds: ["slow"], endpoints: WRITE_ENDPOINTS, delayMs: slowMs },
  });
}

export interface Overlaps {
  writes: number;
  overlaps: number;
  worst: { account: number; inFlight: number; overlaps: number }[];
}

/** The emulator's count of writes sent while another of the same account was unanswered. */
export async function writeOverlaps(h: Harness): Promise<Overlaps> {
  return JSON.parse((await control(h, "requests/overlaps", "GET")).text) as Overlaps;
}

export async function faultsOff(h: Harness): Promise<void> {
  await control(h, "faults", "DELETE");
}
