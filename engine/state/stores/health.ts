/** Account and recipe health, conditions, generations, the next run and source reads. */
import { desc, eq, getTableColumns, sql } from "drizzle-orm";
import {
  byteOrderRead,
  type Db,
  type Dialect,
  inByteOrder,
  lastOfEach,
  oneRow,
  placeholders,
  prepared,
  type Read,
  type Stored,
  send,
} from "../dialect.js";
import type { Row, Tables } from "../tables.js";
import type { AccountHealth, Condition, HealthStore, KnownGeneration, RecipeHealth } from "../types.js";

const RECIPE = placeholders("recipeId", "at");
const BOTH = placeholders("recipeId", "account");
/** A condition's own columns. */
const COLUMNS = ["type", "status", "reason", "message"] as const;

export const healthStore: HealthStore & ThisType<Stored> = {
  async recordGeneration(recipeId, hash, at, last) {
    // Nearly every run finds its recipe's hash last already: one read, no transaction (a new
    // generation another process adds meanwhile is as if it came just after this read), or none
    // where the run read it with the target's memory.
    const known = last !== undefined ? last : await lastGeneration(this.d.db, this.d.t, recipeId);
    if (known && known.hash === hash) return known.generation;
    // Guarded per recipe: two processes seeing a new hash at once must not both number it.
    return this.d.guarded("recipe_generations", recipeId, async (tx) => {
      const g = this.d.t.recipeGenerations;
      const last = await lastGeneration(tx, this.d.t, recipeId);
      if (last && last.hash === hash) return last.generation;
      const generation = (last?.generation ?? 0) + 1;
      await tx.insert(g).values({ recipeId, generation, hash, seenAt: at });
      return generation;
    });
  },

  async setCondition(recipeId, conditions, at) {
    const c = this.d.t.conditions;
    const rows = lastOfEach([conditions].flat(), (row) => row.type);
    if (rows.length === 0) return;
    // Prepared for each count of rows: their values are numbered placeholders.
    const values = Object.fromEntries(rows.flatMap((row, i) => COLUMNS.map((k) => [k + i, row[k]])));
    const row = (i: number) => {
      const slot = (k: (typeof COLUMNS)[number]) => sql.placeholder(k + i) as never;
      const own = {
        type: slot("type"),
        status: slot("status"),
        reason: slot("reason"),
        message: slot("message"),
      };
      return { ...own, recipeId: RECIPE.recipeId, changedAt: RECIPE.at };
    };
    // One statement, so no other writer comes between the read of the status and the write.
    // changedAt moves only when the status does: "False since 3 days" stays true across runs.
    const build = (q: Db) =>
      q
        .insert(c)
        .values(rows.map((_, i) => row(i)))
        .onConflictDoUpdate({
          target: [c.recipeId, c.type],
          set: {
            status: sql`excluded.status`,
            reason: sql`excluded.reason`,
            message: sql`excluded.message`,
            changedAt: sql`case when ${c.status} = excluded.status then ${c.changedAt} else excluded.changed_at end`,
          },
        });
    const key = `conditions.set(${rows.length})`;
    await send(this.d, { table: c, key, build, values: { ...values, recipeId, at } });
  },

  async conditions(recipeId) {
    const c = this.d.t.conditions;
    const rows = await inByteOrder(this, c, c.type, { recipeId });
    return rows.map(({ recipeId: _r, ...condition }): Condition => condition);
  },

  async health(account) {
    return readHealth(this.d.db, this.d.t, account);
  },

  async recordFailure(account, at, reason, options) {
    const suspendAfter = options.authExpired === true ? 1 : options.suspendAfter;
    return updateAccountHealth(this, account, (h) => failedOnce(h, at, suspendAfter, () => reason));
  },

  async recordSuccess(account) {
    // A record with no failure counted has nothing to change: read without the guard, no write (a
    // failure recorded meanwhile is as if it came just after this success).
    const table = this.d.t.accountHealth;
    const known = await oneRow(this.d.db, table, { account });
    if (known?.consecutiveFailures === 0) return known;
    return updateAccountHealth(this, account, (h) => ({ ...h, consecutiveFailures: 0 }));
  },

  async resume(account) {
    const { db, t } = this.d;
    await db.update(t.accountHealth).set(NOT_FAILING).where(eq(t.accountHealth.account, account));
  },

  async accountHealth() {
    return inByteOrder(this, this.d.t.accountHealth, this.d.t.accountHealth.account);
  },

  async recipeHealth(recipeId) {
    return readRecipeHealth(this.d.db, this.d.t, recipeId);
  },

  /** Both in one statement: each run's start asks whether either is suspended. */
  async healthOf(recipeId, account) {
    const { recipeHealth: rh, accountHealth: ah } = this.d.t;
    const build = (q: Db) =>
      q
        .select({ recipe: getTableColumns(rh), account: getTableColumns(ah) })
        .from(sql`(select 1) as one`)
        .leftJoin(rh, eq(rh.recipeId, BOTH.recipeId))
        .leftJoin(ah, eq(ah.account, BOTH.account));
    const [row] = await prepared(this.d.db, "health(recipe,account)", build, { recipeId, account });
    return {
      recipe: row?.recipe ? recipeHealthOf(row.recipe) : freshRecipe(recipeId),
      account: row?.account ?? freshAccount(account),
    };
  },

  async recordRecipeFailure(recipeId, account, at, reason, options) {
    const why = (failures: number) => `${failures} consecutive failed runs; the last: ${reason}`;
    return updateRecipeHealth(this, recipeId, at, (h) =>
      failedOnce({ ...h, account }, at, options.suspendAfter, why),
    );
  },

  async recordRecipeSuccess(recipeId, account, at) {
    // A recipe with no failures counted has nothing to change: read without a transaction, and
    // only a change takes the guarded read-and-write (a failure recorded meanwhile is as if it
    // came just after this success).
    const known = await readRecipeHealth(this.d.db, this.d.t, recipeId);
    if (known.consecutiveFailures === 0 && known.account === account) return known;
    return updateRecipeHealth(this, recipeId, at, (h) => ({ ...h, account, consecutiveFailures: 0 }));
  },

  async resumeRecipe(recipeId, at) {
    let resumed = false;
    await updateRecipeHealth(this, recipeId, at, (h) => {
      if (h.suspendedAt === null) return null;
      resumed = true;
      return { ...h, ...NOT_FAILING };
    });
    return resumed;
  },

  async setNextRun(recipeId, account, next, now) {
    await updateRecipeHealth(this, recipeId, now, (h) => ({
      ...h,
      account,
      nextRunAt: next.at,
      nextRunReason: next.reason,
      plannedBy: next.by,
    }));
  },

  async sourceReads(recipeId) {
    return sourceCounts(
      await inByteOrder(this, this.d.t.sourceReads, this.d.t.sourceReads.sourceId, { recipeId }),
    );
  },

  async recordSourceReads(recipeId, reads, at) {
    const { db, t } = this.d;
    const rows = lastOfEach(reads, (r) => r.sourceId).map((r) => ({
      recipeId,
      sourceId: r.sourceId,
      items: r.items,
      readAt: at,
    }));
    if (rows.length === 0) return;
    await db
      .insert(t.sourceReads)
      .values(rows)
      .onConflictDoUpdate({
        target: [t.sourceReads.recipeId, t.sourceReads.sourceId],
        set: { items: sql`excluded.items`, readAt: sql`excluded.read_at` },
      });
  },
};

/**
 * Reads a recipe's health, changes it and writes it back, guarded per recipe (the daemon's setNextRun
 * and a CLI run's failure must not undo each other). `change` returning null writes nothing.
 */
function updateRecipeHealth(
  s: Stored,
  recipeId: string,
  at: number,
  change: (h: RecipeHealth) => RecipeHealth | null,
): Promise<RecipeHealth> {
  return s.d.guarded("recipe_health", recipeId, async (tx) => {
    const h = await readRecipeHealth(tx, s.d.t, recipeId);
    const next = change(h);
    if (next === null) return h;
    const values = { ...next, account: next.account ?? "", updatedAt: at };
    await tx
      .insert(s.d.t.recipeHealth)
      .values(values)
      .onConflictDoUpdate({ target: s.d.t.recipeHealth.recipeId, set: values });
    return next;
  });
}

/** The read of a recipe's source reads (`sourceCounts` makes them the store's answer). */
export function sourceReadsRead(d: Dialect, recipeId: string): Read {
  return byteOrderRead(d, d.t.sourceReads, d.t.sourceReads.sourceId, { recipeId });
}

export const sourceCounts = (rows: readonly unknown[]): Map<string, number> =>
  new Map((rows as Row<"sourceReads">[]).map((row) => [row.sourceId, row.items]));

/** The read of the recipe's last generation (none, or one row). */
export function lastGenerationRead(t: Tables, recipeId: string): Read {
  const g = t.recipeGenerations;
  const build = (db: Db) =>
    db.select().from(g).where(eq(g.recipeId, RECIPE.recipeId)).orderBy(desc(g.generation)).limit(1);
  return { key: "recipe_generations(last)", build, values: { recipeId } };
}

/** `lastGenerationRead`'s rows as the generation and hash, or null. */
export function generationOf(rows: readonly unknown[]): KnownGeneration | null {
  const [last] = rows as Row<"recipeGenerations">[];
  return last ? { generation: last.generation, hash: last.hash } : null;
}

async function lastGeneration(q: Db, t: Tables, recipeId: string) {
  const r = lastGenerationRead(t, recipeId);
  return generationOf(await prepared(q, r.key, r.build, r.values));
}

async function readHealth(q: Db, t: Tables, account: string): Promise<AccountHealth> {
  return (await oneRow(q, t.accountHealth, { account })) ?? freshAccount(account);
}

/** Reads an account's health, changes it and writes it back, guarded per account. */
function updateAccountHealth(
  s: Stored,
  account: string,
  change: (h: AccountHealth) => AccountHealth,
): Promise<AccountHealth> {
  return s.d.guarded("account_health", account, async (tx) => {
    const t = s.d.t.accountHealth;
    const h = change(await readHealth(tx, s.d.t, account));
    await tx.insert(t).values(h).onConflictDoUpdate({ target: t.account, set: h });
    return h;
  });
}

/** One more failure in a row; suspended at `suspendAfter` unless already (the first suspension stays). */
function failedOnce<H extends AccountHealth | RecipeHealth>(
  h: H,
  at: number,
  suspendAfter: number,
  why: (failures: number) => string,
): H {
  const consecutiveFailures = h.consecutiveFailures + 1;
  const suspend = h.suspendedAt === null && consecutiveFailures >= suspendAfter;
  if (!suspend) return { ...h, consecutiveFailures };
  return { ...h, consecutiveFailures, suspendedAt: at, suspendedReason: why(consecutiveFailures) };
}

async function readRecipeHealth(q: Db, t: Tables, recipeId: string): Promise<RecipeHealth> {
  const r = await oneRow(q, t.recipeHealth, { recipeId });
  return r ? recipeHealthOf(r) : freshRecipe(recipeId);
}

const recipeHealthOf = ({ updatedAt: _u, ...rest }: Row<"recipeHealth">): RecipeHealth => rest;

/** No failure, not suspended: an account or recipe with no health record yet. */
const NOT_FAILING = { consecutiveFailures: 0, suspendedAt: null, suspendedReason: null } as const;

const freshAccount = (account: string): AccountHealth => ({ account, ...NOT_FAILING });

/** A recipe with no health record yet also has no next run planned. */
const freshRecipe = (recipeId: string): RecipeHealth => ({
  recipeId,
  account: null,
  ...NOT_FAILING,
  nextRunAt: null,
  nextRunReason: null,
  plannedBy: null,
});
