/**
 * A seed's fleet: between two runs of a PostgreSQL seed, 2–3 real `musicsync worker`
 * processes take the seed's recipes and the fleet's own (fleet-plan.ts) from the queue, fed by
 * `musicsync enqueue --all`, while the soak ends their database sessions, makes the database refuse
 * connections, sets an idle-session timeout, restarts the seed's own server (pg-faults.ts) and
 * SIGKILLs a worker. Then, the queue drained (or not, within a bound): the promises of
 * fleet-checks.ts, the seed's own checks of its recipes, the credential scans, and a fault-free run
 * of the fleet's recipes that must settle them. soak.ts calls it through a FleetContext.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Clock } from "../../engine/apply/pacer.js";
import { credentialSecrets, findCredentialPieces } from "../support/credential-leaks.js";
import type { PostgresServer } from "../support/postgres-server.js";
import type { Harness } from "../support/sync-harness.js";
import {
  checkJobsCompleted,
  checkOverlaps,
  checkScheduler,
  checkStopped,
  checkWorkersLived,
  fleetStuck,
  lastWords,
  printedStack,
} from "./fleet-checks.js";
import { describeFleet, type FleetEvent, type FleetFault, type FleetPlan } from "./fleet-plan.js";
import { settleFleetRecipes } from "./fleet-settle.js";
import {
  type FleetProject,
  faultsOff,
  readyEmulator,
  writeFleetProject,
  writeOverlaps,
} from "./fleet-setup.js";
import { forgetNextRun, nextRunOf, openJobs, queueJobs, suspensionOf } from "./fleet-state.js";
import {
  alive,
  type FleetWorker,
  killWorker,
  type LogLine,
  startWorker,
  stopWorker,
} from "./fleet-workers.js";
import { checkNoRunning, type Found } from "./invariants.js";
import { runKilled } from "./kill.js";
import { findLeaks, secretsOfHeaders } from "./leaks.js";
import { advisoryLocks, databaseFault, type FaultTarget, faultTarget, setIdleTimeout } from "./pg-faults.js";
import { ReusedSession } from "./pg-session.js";
import { stateQuarantine, stateRuns } from "./state.js";

export interface FleetContext {
  /** The run the fleet follows (its violations carry this run's number). */
  run: number;
  h: Harness;
  stateUrl: string;
  server: PostgresServer;
  command: readonly string[];
  seedRecipesDir: string;
  /** The seed's clock: moved on by the time the fleet took, as the engine's next runs would see. */
  clock: Clock;
  trace(line: string): void;
  addSecrets(secrets: readonly string[]): void;
  /** Every secret the seed knows of now (the harness's, the second account's, the echo's). */
  secrets(): readonly string[];
  leaks(where: string, text: string): void;
  report(recipe: string, found: readonly Found[]): void;
  /** The seed's checks of each of its recipes, as after a run that said nothing (a killed one). */
  checkSeedRecipes(): Promise<void>;
  scanState(): Promise<void>;
}

interface Fleet {
  ctx: FleetContext;
  plan: FleetPlan;
  project: FleetProject;
  target: FaultTarget;
  workers: FleetWorker[];
  /** Workers that died by themselves and were replaced already. */
  replaced: Set<number>;
  done: FleetFault[];
  started: number;
  firstWrite: number | null;
  rounds: number;
}

/** A killed worker's job comes back after this; longer than a run on a loaded machine. */
const LEASE = "12s";
/** How long the queue may take to drain (bounded: a fleet that does not is a violation). */
const DRAIN_MS = { light: 90_000, full: 150_000 };
/** Waits after the drain: runs to be recorded finished, a scheduler to plan again, a worker to stop. */
const SETTLE_MS = 10_000;
const STOP_GRACE_MS = 20_000;
/** Dead workers replaced at most (a worker that cannot start must not make a loop). */
const MAX_REPLACEMENTS = 6;

/** The fleet's workers' own flags: quick polling, retries and busy turns, so that a fleet drains in seconds. */
function workerArgs(f: Fleet): string[] {
  return [
    ...["-p", f.project.projectFile, "--concurrency", String(f.plan.concurrency), "--lease", LEASE],
    ...["--poll", "0.5s", "--busy-retry", "500ms", "--retry-delay", "500ms", "--max-retry-delay", "2s"],
    ...["--tick", "1s"],
  ];
}

/** The fleet, run and judged; a line saying what it was and what was done to it. */
export async function runFleet(ctx: FleetContext, plan: FleetPlan): Promise<string> {
  const project = await writeFleetProject(ctx.h, plan, ctx.seedRecipesDir, ctx.stateUrl);
  if (project.otherHeaders)
    ctx.addSecrets([...credentialSecrets(project.otherHeaders), ...secretsOfHeaders(project.otherHeaders)]);
  const f: Fleet = {
    ctx,
    plan,
    project,
    target: faultTarget(ctx.server, ctx.stateUrl),
    workers: [],
    replaced: new Set(),
    done: [],
    started: Date.now(),
    firstWrite: null,
    rounds: 0,
  };
  ctx.trace(
    `fleet after run ${ctx.run}: ${plan.workers} workers × ${plan.concurrency}, writes slowed ${plan.slowMs} ms` +
      `${plan.idleTimeoutMs === null ? "" : `, idle_session_timeout ${plan.idleTimeoutMs} ms`}; recipes ` +
      `${plan.recipes.map((r) => `${r.id} (${r.account}, ${r.ids.length} songs)`).join(", ")}; events ` +
      `${plan.events.map((e) => `+${e.atMs} ms ${e.fault.kind}`).join(", ")}`,
  );
  // The fleet refuses no write: a song quarantined by the end must have been so before it began.
  const quarantinedBefore = await stateQuarantine({ setting: ctx.stateUrl, server: ctx.server }, "default");
  try {
    await readyEmulator(ctx.h, plan.slowMs);
    if (plan.idleTimeoutMs !== null) await setIdleTimeout(f.target, plan.idleTimeoutMs);
    // The workers start while the first jobs are sent: both take seconds on a busy machine.
    for (let n = 1; n <= plan.workers; n++) f.workers.push(startWorker(ctx.command, workerArgs(f), n, true));
    if (await enqueue(f, true)) {
      const drained = await drive(f);
      await setIdleTimeout(f.target, null);
      await whileAlive(f, drained);
      await stopAll(f);
      await afterStop(f, drained);
    }
  } finally {
    for (const w of f.workers) await killWorker(w);
    await setIdleTimeout(f.target, null).catch(() => undefined);
    await faultsOff(ctx.h).catch(() => undefined);
  }
  await ctx.checkSeedRecipes();
  await settleFleetRecipes(ctx, plan, project, quarantinedBefore);
  await ctx.scanState();
  return describeFleet(plan, f.done);
}

/** `musicsync enqueue --all`; false when it failed (a violation in the first round, else noted). */
async function enqueue(f: Fleet, first: boolean): Promise<boolean> {
  const p = await runKilled(f.ctx.command, ["enqueue", "--all", "-p", f.project.projectFile], null, 0);
  f.ctx.leaks("enqueue stdout", p.stdout);
  f.ctx.leaks("enqueue stderr", p.stderr);
  const said = quoted(f, (p.exitCode === 0 ? p.stdout : p.stderr).trim().split("\n").pop() ?? "");
  f.ctx.trace(`  fleet +${Date.now() - f.started} ms: enqueue, exit ${p.exitCode}: ${said.slice(0, 200)}`);
  if (p.exitCode === 0) f.rounds++;
  else if (first)
    f.ctx.report("fleet", [
      { invariant: "fleet-enqueue", detail: `enqueue --all exit ${p.exitCode}: ${said}` },
    ]);
  return p.exitCode === 0;
}

/**
 * What a worker or the queue said, fit to print in the seed's trace or a violation: withheld
 * whole when it holds a piece of a credential (the credential scan reports that by itself).
 */
function quoted(f: Fleet, text: string): string {
  const secrets = f.ctx.secrets();
  const leak = findCredentialPieces(text, secrets).length > 0 || findLeaks(text, secrets).length > 0;
  return leak ? "(withheld: it holds a piece of a credential)" : text;
}

const logged = (f: Fleet, msg: string) =>
  f.workers.reduce((n, w) => n + w.logs.filter((l) => l.msg === msg).length, 0);
const CONFIRMED = "write batch confirmed";

/**
 * Until the queue is empty and every event was done (bounded): events at their time after the
 * fleet's first confirmed write, dead workers replaced, the recipes enqueued again while events
 * are still to come. Whether it drained.
 */
async function drive(f: Fleet): Promise<boolean> {
  const deadline = Date.now() + (f.plan.light ? DRAIN_MS.light : DRAIN_MS.full);
  const pending = [...f.plan.events];
  const queue = new ReusedSession(f.ctx.stateUrl);
  try {
    while (Date.now() < deadline) {
      replaceDead(f);
      if (f.firstWrite === null && logged(f, CONFIRMED) > 0) f.firstWrite = Date.now();
      const jobs = await queueJobs(queue).catch(() => null);
      if (jobs !== null && openJobs(jobs).length === 0) {
        if (pending.length === 0) return true;
        // Faults are still to come: work for them to land in.
        if (f.rounds < f.plan.rounds) await enqueue(f, false);
      }
      // Without any write after 30 s the events go by the fleet's start.
      const zero = f.firstWrite ?? f.started + 30_000;
      if (pending[0] && Date.now() >= zero + pending[0].atMs) await fire(f, pending.shift()!);
      else await sleep(250);
    }
    return false;
  } finally {
    await queue.close();
  }
}

function replaceDead(f: Fleet) {
  for (const w of [...f.workers]) {
    if (alive(w) || w.endedBy !== null || f.replaced.has(w.n) || f.replaced.size >= MAX_REPLACEMENTS)
      continue;
    f.replaced.add(w.n);
    f.ctx.trace(
      `  fleet +${Date.now() - f.started} ms: worker ${w.n} ended by itself (${JSON.stringify(w.exit)}); a new one takes its place`,
    );
    // Node's own words on an uncaught error (not log lines): where to look.
    const raw = w
      .stderr()
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.startsWith("{"));
    if (raw.length > 0) f.ctx.trace(`    its last words: ${quoted(f, raw.slice(0, 14).join("\n      "))}`);
    f.workers.push(startWorker(f.ctx.command, workerArgs(f), f.workers.length + 1, false));
  }
}

/**
 * One event. A lock cut waits (a little) for two workers to want one account, when it matters
 * most; a killed worker is the one that confirmed a write last (mid-run, most likely), and a new
 * one takes its place — without the scheduler, so that the scheduler check sees only the workers
 * that lived through the faults.
 */
async function fire(f: Fleet, event: FleetEvent): Promise<void> {
  const { fault } = event;
  let what: string;
  if (fault.kind === "kill") {
    const victim = lastWriter(f);
    if (!victim) {
      f.ctx.trace("  fleet: no live worker to kill");
      return;
    }
    await killWorker(victim);
    f.workers.push(startWorker(f.ctx.command, workerArgs(f), f.workers.length + 1, false));
    what = `worker ${victim.n} SIGKILLed, worker ${f.workers.length} started`;
  } else {
    if (fault.kind === "cut-locks") await lockHeld(f);
    what = await databaseFault(f.target, fault);
  }
  f.done.push(fault);
  f.ctx.trace(`  fleet +${Date.now() - f.started} ms: ${what}`);
}

/**
 * Waits (bounded) for the moment a lock cut matters most: a run has just made the first writes of
 * many, so that it goes on writing while another worker, which found the account busy, can now
 * take it. Failing that, for any lock to be held.
 */
async function lockHeld(f: Fleet): Promise<void> {
  const seen = f.workers.map((w) => w.logs.length);
  const early = (l: LogLine) => l.msg === CONFIRMED && Number(l.seq) <= 2 && Number(l.total) >= 6;
  const started = () => f.workers.some((w, i) => w.logs.slice(seen[i] ?? 0).some(early));
  for (const until = Date.now() + 6_000; Date.now() < until; await sleep(20)) if (started()) return;
  const admin = new ReusedSession(f.target.server.url);
  try {
    for (const until = Date.now() + 5_000; Date.now() < until; await sleep(50))
      if ((await advisoryLocks(f.target, admin).catch(() => 0)) > 0) return;
  } finally {
    await admin.close();
  }
}

function lastWriter(f: Fleet): FleetWorker | null {
  const lastWrite = (w: FleetWorker) => Number(w.logs.findLast((l) => l.msg === CONFIRMED)?.time ?? 0);
  return f.workers.filter(alive).sort((a, b) => lastWrite(b) - lastWrite(a))[0] ?? null;
}

/**
 * With the workers still alive (once they are gone, opening the state closes their runs): no run
 * left `running` once the queue drained, and a scheduler that still plans.
 */
async function whileAlive(f: Fleet, drained: boolean): Promise<void> {
  const { ctx } = f;
  let running = await runningRuns(ctx);
  for (const until = Date.now() + SETTLE_MS; running.length > 0 && Date.now() < until; await sleep(500))
    running = await runningRuns(ctx);
  if (!drained) {
    const open = await queueJobs(ctx.stateUrl)
      .then(openJobs)
      .catch(() => null);
    ctx.report("fleet", [
      fleetStuck(
        Math.round((Date.now() - f.started) / 1000),
        open,
        running.map((r) => `${r.id} of ${r.recipe}`),
      ),
    ]);
    return;
  }
  ctx.report("*", checkNoRunning(running));
  await checkSchedulers(f);
}

async function runningRuns(ctx: FleetContext) {
  const runs = await stateRuns({ setting: ctx.stateUrl, server: ctx.server });
  return runs.filter((r) => r.result === "running");
}

/**
 * The scheduled recipe's next run forgotten: a live scheduler must plan it again within a few ticks.
 * Not when the recipe or its account is suspended: the scheduler rightly skips it until `musicsync
 * resume` (docs/ENGINE.md#the-daemon), and the seed's own runs suspend its account now and then (a
 * file source whose links loop, say) — the account of the scheduled recipe.
 */
async function checkSchedulers(f: Fleet): Promise<void> {
  const scheduled = f.plan.recipes.find((r) => r.scheduled);
  if (!scheduled || !f.workers.some((w) => w.scheduling && alive(w))) return;
  const suspended = await suspensionOf(f.ctx.stateUrl, scheduled.id, scheduled.account);
  if (suspended !== null) {
    f.ctx.trace(`  fleet: scheduler not checked, ${quoted(f, suspended).slice(0, 200)}`);
    return;
  }
  await forgetNextRun(f.ctx.stateUrl, scheduled.id, scheduled.account);
  let planned = false;
  for (const until = Date.now() + SETTLE_MS; !planned && Date.now() < until; await sleep(250))
    planned = (await nextRunOf(f.ctx.stateUrl, scheduled.id)).at !== null;
  f.ctx.report(scheduled.id, checkScheduler(scheduled.id, planned, SETTLE_MS));
}

/** SIGTERM to every live worker; which ones had died by themselves before, and how each stopped. */
async function stopAll(f: Fleet): Promise<void> {
  f.ctx.report(
    "fleet",
    checkWorkersLived(
      f.workers.map((w) => ({
        n: w.n,
        endedBy: w.endedBy,
        exit: w.exit,
        started: w.logs.some((l) => l.msg === "worker started"),
        crashed: printedStack(w.stderr()),
        lastWords: quoted(f, lastWords(w.logs, w.stderr())),
      })),
    ),
  );
  const live = f.workers.filter(alive);
  const stops = await Promise.all(
    live.map(async (w) => ({
      n: w.n,
      ...(await stopWorker(w, STOP_GRACE_MS)),
      lastWords: quoted(f, lastWords(w.logs, w.stderr())),
    })),
  );
  f.ctx.report("fleet", checkStopped(stops));
}

/** Once the workers are gone: the write tally, the jobs, and every word they said scanned. */
async function afterStop(f: Fleet, drained: boolean): Promise<void> {
  const { ctx } = f;
  const tally = await writeOverlaps(ctx.h);
  ctx.trace(`  fleet: ${tally.writes} writes, ${tally.overlaps} overlapping; ${f.done.length} events done`);
  ctx.report("fleet", checkOverlaps(tally));
  if (drained) {
    const jobs = await queueJobs(ctx.stateUrl);
    ctx.report(
      "fleet",
      checkJobsCompleted(jobs.map((j) => ({ ...j, output: j.output && quoted(f, j.output) }))),
    );
  }
  for (const w of f.workers) {
    ctx.leaks(`worker ${w.n} stdout`, w.stdout());
    ctx.leaks(`worker ${w.n} stderr`, w.stderr());
  }
  await faultsOff(ctx.h);
  // The engine's next runs are on the seed's virtual clock: it must not be behind what the workers wrote.
  await ctx.clock.sleep(Math.max(0, Date.now() - ctx.clock.now()));
}
