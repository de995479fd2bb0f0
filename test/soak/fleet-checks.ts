/**
 * The fleet's promises, checked once it drained: never two writers on one account (the
 * emulator's tally), every worker alive unless the soak killed it and stopping when told, every job
 * completed, the schedulers still scheduling, and each of the fleet's own recipes one playlist with
 * exactly its songs once a fault-free run followed. Pure: each takes what was read and answers the
 * broken promises.
 */
import type { FleetRecipe } from "./fleet-plan.js";
import type { Overlaps } from "./fleet-setup.js";
import type { Job } from "./fleet-state.js";
import type { Exit, LogLine } from "./fleet-workers.js";
import { checkDuplicates, checkOnePlaylist, type Found, newModel, type Row } from "./invariants.js";
import type { LibraryPlaylist } from "./readback.js";

export function checkOverlaps(o: Overlaps): Found[] {
  if (o.overlaps === 0) return [];
  const worst = o.worst
    .filter((w) => w.overlaps > 0)
    .map((w) => `account ${w.account}: ${w.overlaps} overlapping, up to ${w.inFlight} in flight`);
  return [
    {
      invariant: "no-overlapping-writes",
      detail: `${o.overlaps} of ${o.writes} writes were sent while another write of the same account was unanswered (${worst.join("; ")})`,
    },
  ];
}

/**
 * Its last warnings and errors, and the first line it wrote that is not a log line (an uncaught
 * error's message), for a violation's detail: messages only, cut short.
 */
export function lastWords(logs: readonly LogLine[], stderr: string): string {
  const said = logs
    .filter((l) => l.level >= 40)
    .slice(-2)
    .map((l) => `${l.msg}${typeof l.error === "string" ? `: ${l.error.slice(0, 160)}` : ""}`);
  const crash = uncaught(stderr);
  const words = [...said, ...(crash ? [`uncaught: ${crash}`] : [])];
  return words.length > 0 ? words.join(" | ") : "no warning logged";
}

/**
 * What Node printed of an uncaught error, in short: its message and, for an unheard 'error'
 * event, on what it was emitted (the lines of stderr that are not log lines).
 */
export function uncaught(stderr: string): string | null {
  const raw = stderr.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("{"));
  const said = raw.filter((l) => /^\w*(error|Error)\b.*:|^Emitted 'error' event/.test(l.trim()));
  if (raw.length === 0) return null;
  return (said.length > 0 ? said : raw.slice(0, 2)).map((l) => l.trim().slice(0, 160)).join(" ⏎ ");
}

/** Whether stderr holds a stack trace (Node's report of an uncaught error). */
export const printedStack = (stderr: string) => /^\s+at .+[:)]/m.test(stderr);

export interface WorkerEnd {
  n: number;
  endedBy: "kill" | "stop" | null;
  exit: Exit | null;
  /** Whether it had said "worker started" (its database reached, its queue open). */
  started: boolean;
  /** Whether Node printed a stack: an error nobody caught, not the command's own one-line refusal. */
  crashed: boolean;
  lastWords: string;
}

const exitText = (e: Exit) => (e.signal ? `signal ${e.signal}` : `exit ${e.code}`);

/**
 * A worker that ended while the fleet ran, and not by the soak's hand, died of what was done to
 * it. One started while the database was down may refuse to start, in one clear line: that is no
 * death (a stack printed is).
 */
export function checkWorkersLived(ends: readonly WorkerEnd[]): Found[] {
  return ends
    .filter((w) => w.exit !== null && w.endedBy === null && (w.started || w.crashed))
    .map((w) => ({
      invariant: "worker-died",
      detail: `worker ${w.n} ended by itself (${exitText(w.exit!)}): ${w.lastWords}`,
    }));
}

/**
 * SIGTERM: the worker finishes the write in flight and exits 0, within the grace the soak gives it
 * (one told while still starting, before it took any job, may end by the signal itself).
 */
export function checkStopped(
  stops: readonly { n: number; forced: boolean; exit: Exit; lastWords?: string }[],
): Found[] {
  const clean = (e: Exit) => e.code === 0 || e.signal === "SIGTERM";
  return stops
    .filter((s) => s.forced || !clean(s.exit))
    .map((s) => ({
      invariant: "worker-stops",
      detail: s.forced
        ? `worker ${s.n} did not stop within the grace after SIGTERM (SIGKILLed)`
        : `worker ${s.n} stopped with ${exitText(s.exit)} after SIGTERM${s.lastWords ? `: ${s.lastWords}` : ""}`,
    }));
}

/** Every job the fleet was given ended completed: none failed, none left waiting or active. */
export function checkJobsCompleted(jobs: readonly Job[]): Found[] {
  const bad = jobs.filter((j) => j.state !== "completed");
  if (bad.length === 0) return [];
  const list = bad
    .slice(0, 6)
    .map((j) => `${j.recipe} ${j.state}${j.output ? ` (${j.output.slice(0, 160)})` : ""}`);
  return [
    {
      invariant: "jobs-completed",
      detail: `${bad.length} of ${jobs.length} jobs did not complete: ${list.join("; ")}`,
    },
  ];
}

/** The fleet did not drain within its time: what was left. */
export function fleetStuck(seconds: number, open: readonly Job[] | null, running: readonly string[]): Found {
  const jobs =
    open === null ? "the queue could not be read" : open.map((j) => `${j.recipe} ${j.state}`).join(", ");
  return {
    invariant: "fleet-stuck",
    detail: `not drained after ${seconds} s; jobs left: ${jobs || "none"}; runs running: ${running.join(", ") || "none"}`,
  };
}

export function checkScheduler(recipeId: string, planned: boolean, waitedMs: number): Found[] {
  return planned
    ? []
    : [
        {
          invariant: "scheduler-works",
          detail: `no worker's scheduler planned ${recipeId}'s next run within ${waitedMs} ms of it being cleared (its connection not rebuilt?)`,
        },
      ];
}

/** A fleet recipe as the soak's generic checks know a recipe: a static mirror into its own playlist. */
const modelOf = (r: FleetRecipe) =>
  newModel({
    id: r.id,
    mode: "mirror",
    target: { type: "playlist", title: r.title },
    source: { type: "static", ids: r.ids },
    dedupe: false,
    limit: null,
    policy: { order: "source", on_drift: "revert", batch_size: r.batch, max_removals: 100 },
  });

/** What the fault-free run of a fleet recipe said: its outcome, and the ids it reported quarantined. */
export interface Settled {
  outcome: string;
  quarantined: ReadonlySet<string>;
  /** Ids its account had quarantined (as the state held them) before the fleet began. */
  earlier: ReadonlySet<string>;
}

/**
 * After a fault-free run of it: one playlist carries the recipe, with each of its songs once and
 * nothing else, and the run said so. A song may be absent only if the run reported it quarantined
 * (the engine skips it, saying so) and it was quarantined before the fleet began: the seed's own
 * runs are judged for such quarantines, and the fleet refuses nothing, so one made during it is a loss.
 */
export function checkFleetRecipe(
  r: FleetRecipe,
  library: readonly LibraryPlaylist[],
  rows: readonly Row[] | null,
  settled: Settled,
): Found[] {
  const one = checkOnePlaylist(r.id, r.title, library);
  if (one.length > 0) return one;
  if (rows === null) return [{ invariant: "fleet-settles", detail: `no playlist carries ${r.id}` }];
  const out = checkDuplicates(modelOf(r), rows);
  const { outcome, quarantined, earlier } = settled;
  const excused = (id: string) => quarantined.has(id) && earlier.has(id);
  const got = new Set(rows.map((x) => x.videoId));
  const missing = r.ids.filter((id) => !got.has(id) && !excused(id));
  const extra = [...got].filter((id) => !r.ids.includes(id));
  const skipped = r.ids.filter(excused).length;
  const why = (id: string) =>
    quarantined.has(id) ? `missing ${id} (quarantined during the fleet)` : `missing ${id}`;
  if (!["converged", "no_changes"].includes(outcome))
    out.push({ invariant: "fleet-settles", detail: `a fault-free run ended ${outcome}` });
  else if (missing.length > 0 || extra.length > 0)
    out.push({
      invariant: "fleet-settles",
      detail: `${outcome} but the playlist holds ${got.size} songs, not the recipe's ${r.ids.length}${skipped > 0 ? ` (${skipped} quarantined)` : ""}: ${[...missing.map(why), ...extra.map((id) => `extra ${id}`)].slice(0, 6).join(", ")}`,
    });
  return out;
}
