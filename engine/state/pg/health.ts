/** Account and recipe health, conditions, generations, the next run and source reads on PostgreSQL. */
import { asc, desc, eq, sql } from "drizzle-orm";
import { freshAccount, freshRecipe } from "../rows.js";
import type { AccountHealth, Condition, ConditionType, HealthStore, RecipeHealth } from "../types.js";
import type { PgDb } from "./common.js";
import { bytewise, lastOfEach, type PgTx, serialised } from "./query.js";
import * as schema from "./schema.js";

type Q = PgDb | PgTx;

export class PgHealthStore implements HealthStore {
  constructor(private readonly db: PgDb) {}

  async recordGeneration(recipeId: string, hash: string, at: number): Promise<number> {
    // Serialised per recipe: two processes seeing a new hash at once must not both number it.
    return serialised(this.db, "recipe_generations", recipeId, async (tx) => {
      const t = schema.recipeGenerations;
      const [last] = await tx
        .select()
        .from(t)
        .where(eq(t.recipeId, recipeId))
        .orderBy(desc(t.generation))
        .limit(1);
      if (last && last.hash === hash) return last.generation;
      const generation = (last?.generation ?? 0) + 1;
      await tx.insert(t).values({ recipeId, generation, hash, seenAt: at });
      return generation;
    });
  }

  async setCondition(recipeId: string, c: Omit<Condition, "changedAt">, at: number): Promise<void> {
    const t = schema.conditions;
    // One statement, so no other writer comes between the read of the status and the write.
    // changedAt moves only when the status does: "False since 3 days" stays true across runs.
    await this.db
      .insert(t)
      .values({
        recipeId,
        type: c.type,
        status: c.status,
        reason: c.reason,
        message: c.message,
        changedAt: at,
      })
      .onConflictDoUpdate({
        target: [t.recipeId, t.type],
        set: {
          status: sql`excluded.status`,
          reason: sql`excluded.reason`,
          message: sql`excluded.message`,
          changedAt: sql`case when ${t.status} = excluded.status then ${t.changedAt} else excluded.changed_at end`,
        },
      });
  }

  async conditions(recipeId: string): Promise<Condition[]> {
    const t = schema.conditions;
    const rows = await this.db
      .select()
      .from(t)
      .where(eq(t.recipeId, recipeId))
      .orderBy(asc(bytewise(t.type)));
    return rows.map((r) => ({
      type: r.type as ConditionType,
      status: r.status as Condition["status"],
      reason: r.reason,
      message: r.message,
      changedAt: r.changedAt,
    }));
  }

  async health(account: string): Promise<AccountHealth> {
    return readHealth(this.db, account);
  }

  async recordFailure(
    account: string,
    at: number,
    reason: string,
    options: { suspendAfter: number; authExpired?: boolean },
  ): Promise<AccountHealth> {
    return serialised(this.db, "account_health", account, async (tx) => {
      const h = await readHealth(tx, account);
      const failures = h.consecutiveFailures + 1;
      const suspend =
        h.suspendedAt === null && (options.authExpired === true || failures >= options.suspendAfter);
      return saveHealth(tx, {
        account,
        consecutiveFailures: failures,
        suspendedAt: suspend ? at : h.suspendedAt,
        suspendedReason: suspend ? reason : h.suspendedReason,
      });
    });
  }

  async recordSuccess(account: string): Promise<AccountHealth> {
    return serialised(this.db, "account_health", account, async (tx) => {
      const h = await readHealth(tx, account);
      return saveHealth(tx, { ...h, consecutiveFailures: 0 });
    });
  }

  async resume(account: string): Promise<void> {
    await this.db
      .update(schema.accountHealth)
      .set({ consecutiveFailures: 0, suspendedAt: null, suspendedReason: null })
      .where(eq(schema.accountHealth.account, account));
  }

  async accountHealth(): Promise<AccountHealth[]> {
    const t = schema.accountHealth;
    return this.db
      .select()
      .from(t)
      .orderBy(asc(bytewise(t.account)));
  }

  async recipeHealth(recipeId: string): Promise<RecipeHealth> {
    return readRecipeHealth(this.db, recipeId);
  }

  async recordRecipeFailure(
    recipeId: string,
    account: string,
    at: number,
    reason: string,
    options: { suspendAfter: number },
  ): Promise<RecipeHealth> {
    return this.updateRecipeHealth(recipeId, at, (h) => {
      const failures = h.consecutiveFailures + 1;
      const suspend = h.suspendedAt === null && failures >= options.suspendAfter;
      return {
        ...h,
        account,
        consecutiveFailures: failures,
        suspendedAt: suspend ? at : h.suspendedAt,
        suspendedReason: suspend
          ? `${failures} consecutive failed runs; the last: ${reason}`
          : h.suspendedReason,
      };
    });
  }

  async recordRecipeSuccess(recipeId: string, account: string, at: number): Promise<RecipeHealth> {
    return this.updateRecipeHealth(recipeId, at, (h) => ({ ...h, account, consecutiveFailures: 0 }));
  }

  async resumeRecipe(recipeId: string, at: number): Promise<boolean> {
    let resumed = false;
    await this.updateRecipeHealth(recipeId, at, (h) => {
      if (h.suspendedAt === null) return null;
      resumed = true;
      return { ...h, consecutiveFailures: 0, suspendedAt: null, suspendedReason: null };
    });
    return resumed;
  }

  async setNextRun(
    recipeId: string,
    account: string,
    next: { at: number | null; reason: "schedule" | "retry" | null; by: string | null },
    now: number,
  ): Promise<void> {
    await this.updateRecipeHealth(recipeId, now, (h) => ({
      ...h,
      account,
      nextRunAt: next.at,
      nextRunReason: next.reason,
      plannedBy: next.by,
    }));
  }

  /**
   * Reads a recipe's health, changes it and writes it back, serialised per recipe: the daemon's
   * setNextRun and a CLI run's recordRecipeFailure, in two processes, must not undo each other.
   * `change` returning null writes nothing (and the record as read is returned).
   */
  private updateRecipeHealth(
    recipeId: string,
    at: number,
    change: (h: RecipeHealth) => RecipeHealth | null,
  ): Promise<RecipeHealth> {
    return serialised(this.db, "recipe_health", recipeId, async (tx) => {
      const h = await readRecipeHealth(tx, recipeId);
      const next = change(h);
      if (next === null) return h;
      const values = { ...next, account: next.account ?? "", updatedAt: at };
      await tx
        .insert(schema.recipeHealth)
        .values(values)
        .onConflictDoUpdate({ target: schema.recipeHealth.recipeId, set: values });
      return next;
    });
  }

  async sourceReads(recipeId: string): Promise<Map<string, number>> {
    const t = schema.sourceReads;
    const rows = await this.db
      .select()
      .from(t)
      .where(eq(t.recipeId, recipeId))
      .orderBy(asc(bytewise(t.sourceId)));
    return new Map(rows.map((r) => [r.sourceId, r.items]));
  }

  async recordSourceReads(
    recipeId: string,
    reads: readonly { sourceId: string; items: number }[],
    at: number,
  ): Promise<void> {
    const rows = lastOfEach(reads, (r) => r.sourceId).map((r) => ({
      recipeId,
      sourceId: r.sourceId,
      items: r.items,
      readAt: at,
    }));
    if (rows.length === 0) return;
    const t = schema.sourceReads;
    await this.db
      .insert(t)
      .values(rows)
      .onConflictDoUpdate({
        target: [t.recipeId, t.sourceId],
        set: { items: sql`excluded.items`, readAt: sql`excluded.read_at` },
      });
  }
}

async function readHealth(q: Q, account: string): Promise<AccountHealth> {
  const t = schema.accountHealth;
  const [r] = await q.select().from(t).where(eq(t.account, account));
  return r ?? freshAccount(account);
}

async function saveHealth(q: Q, h: AccountHealth): Promise<AccountHealth> {
  await q
    .insert(schema.accountHealth)
    .values(h)
    .onConflictDoUpdate({ target: schema.accountHealth.account, set: h });
  return h;
}

async function readRecipeHealth(q: Q, recipeId: string): Promise<RecipeHealth> {
  const t = schema.recipeHealth;
  const [r] = await q.select().from(t).where(eq(t.recipeId, recipeId));
  if (!r) return freshRecipe(recipeId);
  const { updatedAt: _u, ...rest } = r;
  return { ...rest, nextRunReason: r.nextRunReason as RecipeHealth["nextRunReason"] };
}
