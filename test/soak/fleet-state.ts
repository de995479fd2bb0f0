/**
 * What the fleet's database says: the run queue's jobs, read from pg-boss's table, and a
 * scheduled recipe's next run, cleared and read back through the engine's own state API. Every read
 * opens a connection of its own and closes it (or a polling loop's session that reconnects after a
 * failure), so a database that blinks only fails that read.
 */
import { openState } from "../../engine/state/open.js";
import { QUEUE_SCHEMA, RUN_QUEUE } from "../../engine/worker/queue.js";
import { type Reader, withSession } from "./pg-session.js";

export interface Job {
  recipe: string;
  state: string;
  /** What pg-boss kept of a failed job (its error), else null. */
  output: string | null;
}

/**
 * Every job of the run queue, oldest first (none when the queue's tables are not made yet): read
 * on a connection of its own (a URL), or on a session a polling loop keeps (pg-session.ts).
 */
export async function queueJobs(from: string | Reader): Promise<Job[]> {
  if (typeof from === "string") return withSession(from, queueJobs);
  const made = await from.query<{ t: string | null }>("SELECT to_regclass($1) AS t", [`${QUEUE_SCHEMA}.job`]);
  if (made.rows[0]?.t === null) return [];
  const { rows } = await from.query<Job>(
    `SELECT data->>'recipeId' AS recipe, state::text AS state, output::text AS output
       FROM ${QUEUE_SCHEMA}.job WHERE name = $1 ORDER BY created_on`,
    [RUN_QUEUE],
  );
  return rows;
}

const OPEN = new Set(["created", "retry", "active"]);
export const openJobs = (jobs: readonly Job[]) => jobs.filter((j) => OPEN.has(j.state));

/** Forgets the recipe's next run, as if never planned: only a working scheduler plans it again. */
export async function forgetNextRun(url: string, recipeId: string, account: string): Promise<void> {
  const state = openState(url);
  try {
    await state.setNextRun(recipeId, account, { at: null, reason: null, by: null }, Date.now());
  } finally {
    await state.close();
  }
}

/**
 * Why the scheduler leaves the recipe alone, if it does: the recipe or its account suspended (by
 * the seed's own runs, or by failures during the fleet's faults) until `musicsync resume`.
 */
export async function suspensionOf(url: string, recipeId: string, account: string): Promise<string | null> {
  const state = openState(url);
  try {
    const recipe = await state.recipeHealth(recipeId);
    if (recipe.suspendedAt !== null) return `recipe ${recipeId} suspended: ${recipe.suspendedReason ?? ""}`;
    const owner = await state.health(account);
    if (owner.suspendedAt !== null) return `account ${account} suspended: ${owner.suspendedReason ?? ""}`;
    return null;
  } finally {
    await state.close();
  }
}

/** The recipe's next run as recorded, and who planned it. */
export async function nextRunOf(
  url: string,
  recipeId: string,
): Promise<{ at: number | null; by: string | null }> {
  const state = openState(url);
  try {
    const h = await state.recipeHealth(recipeId);
    return { at: h.nextRunAt, by: h.plannedBy };
  } finally {
    await state.close();
  }
}
