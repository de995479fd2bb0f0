/**
 * What a seed's fleet does: after which run a fleet of real `musicsync worker` processes
 * takes the seed's recipes (and a few of its own, of the same account and of a second one) from the
 * queue, and what happens to PostgreSQL and to the workers meanwhile. Pure.
 *
 * Drawn from a generator of its own (neither the seed's main one nor attacks.ts's), so that a seed's
 * story and its other attacks stay what they were whether or not it has a fleet.
 */
import { chance, int, pick, type Random, rng, shuffled } from "./generate.js";

/** What is done to the database or the workers at one moment of the fleet. */
export type FleetFault =
  /** The sessions holding advisory locks of the seed's database ended (the accounts' locks). */
  | { kind: "cut-locks" }
  /** Every session of the seed's database ended. */
  | { kind: "cut-all" }
  /** The database refuses connections for `downMs` (every session ended): a per-database restart. */
  | { kind: "blink"; downMs: number }
  /** The seed's own server stopped and started again (only with a server of the seed's own). */
  | { kind: "restart"; downMs: number; mode: "fast" | "immediate" }
  /** One worker SIGKILLed (and replaced by a new one). */
  | { kind: "kill" };

export interface FleetEvent {
  /** Milliseconds after the fleet's first confirmed write. */
  atMs: number;
  fault: FleetFault;
}

/** A recipe of the fleet's own: a static mirror into a private playlist. */
export interface FleetRecipe {
  id: string;
  /** `default` is the seed's account; `other` a second emulator account made for the fleet. */
  account: "default" | "other";
  title: string;
  ids: string[];
  batch: number;
  /** Reshuffled on every run, so that every run has writes to make (and to be cut in). */
  shuffle: boolean;
  /** A yearly schedule: what shows whether the workers' schedulers still work after the faults. */
  scheduled: boolean;
}

export interface FleetPlan {
  /** The fleet runs after this run of the seed (1-based), before the next run's edits. */
  after: number;
  workers: number;
  concurrency: number;
  recipes: FleetRecipe[];
  /** Latency the emulator adds to every write, so that a run is long enough to be cut. */
  slowMs: number;
  /** The database's idle_session_timeout while the fleet runs (null: none). */
  idleTimeoutMs: number | null;
  events: FleetEvent[];
  /** Enqueue rounds at most: the recipes are enqueued again while faults are still to come. */
  rounds: number;
  light: boolean;
}

/**
 * `auto`: one PostgreSQL seed in two, drawn; `always`: every seed; `light`: a short fleet (2
 * workers, one lock cut) in every seed, for `npm test`; `none`: no fleet.
 */
export type FleetMode = "auto" | "always" | "light" | "none";

/** The fleet's generator (see the header comment). */
export const fleetRng = (seed: number): Random => rng(seed + 0xf1ee7);

/**
 * The seed's fleet, or null. `restart`: the seed has a server of its own, which the fleet may
 * stop and start (at least once).
 */
export function fleetPlanOf(
  seed: number,
  runs: number,
  songs: readonly string[],
  mode: FleetMode,
  restart: boolean,
): FleetPlan | null {
  const r = fleetRng(seed);
  if (mode === "none" || (mode === "auto" && !chance(r, 0.5))) return null;
  const after = int(r, 1, runs);
  if (mode === "light") return lightPlan(r, seed, after, songs);
  const recipes = fleetRecipes(r, seed, songs, int(r, 2, 3), chance(r, 0.7) ? int(r, 1, 3) : 0);
  return {
    after,
    workers: int(r, 2, 3),
    concurrency: int(r, 1, 2),
    recipes,
    slowMs: int(r, 20, 80),
    idleTimeoutMs: chance(r, 0.25) ? int(r, 300, 1500) : null,
    events: events(r, restart),
    rounds: 4,
    light: false,
  };
}

/**
 * Two workers, one lock cut. Its recipes are all of the seed's account and long (a write per song,
 * every run), so that when the lock is cut one worker is mid-run while the other wants the account.
 */
function lightPlan(r: Random, seed: number, after: number, songs: readonly string[]): FleetPlan {
  const recipes = fleetRecipes(r, seed, songs, 3, 0).map((x) => ({
    ...x,
    ids: songs.slice(0, 30),
    batch: 1,
    shuffle: true,
  }));
  return {
    after,
    workers: 2,
    concurrency: 1,
    recipes,
    slowMs: 90,
    idleTimeoutMs: null,
    events: [{ atMs: 1000, fault: { kind: "cut-locks" } }],
    rounds: 2,
    light: true,
  };
}

function fleetRecipes(
  r: Random,
  seed: number,
  songs: readonly string[],
  same: number,
  other: number,
): FleetRecipe[] {
  const accounts: FleetRecipe["account"][] = [
    ...Array<"default">(same).fill("default"),
    ...Array<"other">(other).fill("other"),
  ];
  return accounts.map((account, i) => ({
    id: `fleet-${seed}-${i + 1}`,
    account,
    title: `Fleet ${seed}-${i + 1}`,
    ids: shuffled(r, songs).slice(0, int(r, 8, 18)),
    batch: pick(r, [1, 1, 2, 3]),
    shuffle: chance(r, 0.5),
    // One recipe carries the schedule the scheduler check watches.
    scheduled: i === 0,
  }));
}

/** 1–3 database faults, a worker killed now and then, a real restart when the seed has its own server. */
function events(r: Random, restart: boolean): FleetEvent[] {
  const faults: FleetFault[] = [];
  for (let i = int(r, 1, 3); i > 0; i--) {
    const kind = pick(r, ["cut-locks", "cut-locks", "cut-all", "blink"] as const);
    faults.push(kind === "blink" ? { kind, downMs: int(r, 1000, 4000) } : { kind });
  }
  if (chance(r, 0.4)) faults.push({ kind: "kill" });
  if (restart)
    for (let i = chance(r, 0.3) ? 2 : 1; i > 0; i--)
      faults.push({
        kind: "restart",
        downMs: int(r, 500, 3000),
        mode: chance(r, 0.5) ? "fast" : "immediate",
      });
  const times = faults.map(() => int(r, 200, 6000)).sort((a, b) => a - b);
  return shuffled(r, faults).map((fault, i) => ({ atMs: times[i]!, fault }));
}

/** One line for the seed's report: what the fleet was and what was done to it. */
export function describeFleet(plan: FleetPlan, done: readonly FleetFault[]): string {
  const count = (kind: FleetFault["kind"]) => done.filter((f) => f.kind === kind).length;
  const cuts = count("cut-locks") + count("cut-all");
  const parts = [
    `fleet ${plan.workers}×${plan.concurrency} workers`,
    ...(cuts > 0 ? [`${cuts} cut`] : []),
    ...(count("blink") > 0 ? [`${count("blink")} blink`] : []),
    ...(count("restart") > 0 ? [`${count("restart")} restart`] : []),
    ...(count("kill") > 0 ? [`${count("kill")} worker killed`] : []),
    ...(plan.idleTimeoutMs !== null ? [`idle timeout ${plan.idleTimeoutMs} ms`] : []),
  ];
  return parts.join(", ");
}
