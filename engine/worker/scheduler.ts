/**
 * The workers' schedule: recipes with a `schedule` become jobs when their time comes. Every worker
 * runs this tick, but only the one holding the scheduler's advisory lock acts, so a time sends one
 * job whatever the number of workers; if that worker dies its session ends, the lock with it, and
 * another worker's next tick takes over. Times are kept as each recipe's next run in the state
 * (what `status` shows), so a new scheduler carries on where the last one stopped.
 */
import { createTask } from "node-cron";
import pg from "pg";
import type { LoadedRecipe } from "../recipe/types.js";
import type { EngineState } from "../state/types.js";
import type { JobQueue } from "./queue.js";

/**
 * The scheduler's connection of its own (its advisory lock is a session's), made again when lost: a
 * restart of the server ends it — and the lock with it, so another worker may take the schedule
 * meanwhile — and the worker goes on scheduling without being restarted itself.
 */
export class SchedulerSession {
  private client: pg.Client | null = null;

  constructor(
    private readonly url: string,
    private readonly onLost: (e: Error) => void,
  ) {}

  /** The live connection, or a new one (which fails while the server cannot be reached). */
  async get(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({
      connectionString: this.url,
      application_name: "musicsync scheduler",
      keepAlive: true,
    });
    const drop = () => {
      if (this.client === client) this.client = null;
    };
    // Heard, or an ended connection's error would end the process.
    client.on("error", (e) => {
      drop();
      this.onLost(e);
      client.end().catch(() => undefined);
    });
    client.on("end", drop);
    await client.connect();
    this.client = client;
    return client;
  }

  async end(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

/** The key of the scheduler's session advisory lock (any fixed number no other lock uses). */
const SCHEDULER_LOCK = 0x6d73_7363; // "mssc"

/** The recipe's next scheduled time after now (epoch ms), or null without a schedule. */
export function nextScheduled(loaded: LoadedRecipe): number | null {
  const s = loaded.recipe.schedule;
  if (!s) return null;
  const task = createTask(s.cron, () => {}, s.timezone ? { timezone: s.timezone } : {});
  try {
    return task.getNextRuns(1)[0]?.getTime() ?? null;
  } finally {
    void task.destroy();
  }
}

/** What the tick does with one recipe, decided from its health alone (pure). */
export type Due = "skip" | "plan" | "send";

export function dueNow(
  health: { suspendedAt: number | null; nextRunAt: number | null; nextRunReason: string | null },
  accountSuspended: boolean,
  now: number,
  leaseMs: number,
): Due {
  if (health.suspendedAt !== null || accountSuspended) return "skip";
  if (health.nextRunAt === null || health.nextRunReason === null) return "plan";
  // A retry is sent by the worker whose run failed; one long overdue was lost with that worker.
  if (health.nextRunReason === "retry") return health.nextRunAt + leaseMs < now ? "send" : "skip";
  return health.nextRunAt <= now ? "send" : "skip";
}

export interface SchedulerDeps {
  state: EngineState;
  queue: JobQueue;
  /** A connection of this worker's own, for the session lock. */
  session: pg.Client;
  recipes(): LoadedRecipe[];
  holder: string;
  leaseMs: number;
  now(): number;
}

/** One tick; resolves to the number of jobs sent (0 when another worker holds the scheduler). */
export async function scheduleTick(d: SchedulerDeps): Promise<number> {
  const { rows } = await d.session.query<{ got: boolean }>("SELECT pg_try_advisory_lock($1) AS got", [
    SCHEDULER_LOCK,
  ]);
  if (!rows[0]?.got) return 0;
  try {
    let sent = 0;
    for (const loaded of d.recipes()) {
      if (!loaded.recipe.schedule) continue;
      if (await scheduleOne(d, loaded)) sent++;
    }
    return sent;
  } finally {
    await d.session.query("SELECT pg_advisory_unlock($1)", [SCHEDULER_LOCK]);
  }
}

async function scheduleOne(d: SchedulerDeps, loaded: LoadedRecipe): Promise<boolean> {
  const { id, account } = loaded.recipe;
  const now = d.now();
  const health = await d.state.recipeHealth(id);
  const accountSuspended = (await d.state.health(account)).suspendedAt !== null;
  const due = dueNow(health, accountSuspended, now, d.leaseMs);
  if (due === "skip") return false;
  if (due === "send") {
    const jitter = (loaded.recipe.schedule?.jitter_seconds ?? 0) * 1000 * Math.random();
    await d.queue.send({ recipeId: id, trigger: "schedule", attempt: 1 }, jitter);
  }
  const next = nextScheduled(loaded);
  await d.state.setNextRun(
    id,
    account,
    { at: next, reason: next === null ? null : "schedule", by: next === null ? null : d.holder },
    now,
  );
  return due === "send";
}
