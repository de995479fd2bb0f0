/** Account and recipe health, conditions, generations, the next run and source reads on SQLite. */
import { and, asc, desc, eq } from "drizzle-orm";
import { freshAccount, freshRecipe } from "../rows.js";
import * as schema from "../schema.js";
import type { AccountHealth, Condition, ConditionType, HealthStore, RecipeHealth } from "../types.js";
import { type Db, IMMEDIATE } from "./common.js";

export class SqliteHealthStore implements HealthStore {
  constructor(private readonly db: Db) {}

  async recordGeneration(recipeId: string, hash: string, at: number): Promise<number> {
    return this.db.transaction((tx) => {
      const last = tx
        .select()
        .from(schema.recipeGenerations)
        .where(eq(schema.recipeGenerations.recipeId, recipeId))
        .orderBy(desc(schema.recipeGenerations.generation))
        .limit(1)
        .get();
      if (last && last.hash === hash) return last.generation;
      const generation = (last?.generation ?? 0) + 1;
      tx.insert(schema.recipeGenerations).values({ recipeId, generation, hash, seenAt: at }).run();
      return generation;
    }, IMMEDIATE);
  }

  async setCondition(recipeId: string, c: Omit<Condition, "changedAt">, at: number): Promise<void> {
    const where = and(eq(schema.conditions.recipeId, recipeId), eq(schema.conditions.type, c.type));
    const current = this.db.select().from(schema.conditions).where(where).get();
    // changedAt moves only when the status does: "False since 3 days" stays true across runs.
    const changedAt = current && current.status === c.status ? current.changedAt : at;
    const values = {
      recipeId,
      type: c.type,
      status: c.status,
      reason: c.reason,
      message: c.message,
      changedAt,
    };
    this.db
      .insert(schema.conditions)
      .values(values)
      .onConflictDoUpdate({ target: [schema.conditions.recipeId, schema.conditions.type], set: values })
      .run();
  }

  async conditions(recipeId: string): Promise<Condition[]> {
    return this.db
      .select()
      .from(schema.conditions)
      .where(eq(schema.conditions.recipeId, recipeId))
      .orderBy(asc(schema.conditions.type))
      .all()
      .map((r) => ({
        type: r.type as ConditionType,
        status: r.status as Condition["status"],
        reason: r.reason,
        message: r.message,
        changedAt: r.changedAt,
      }));
  }

  async health(account: string): Promise<AccountHealth> {
    const r = this.db
      .select()
      .from(schema.accountHealth)
      .where(eq(schema.accountHealth.account, account))
      .get();
    return r ?? freshAccount(account);
  }

  private saveHealth(h: AccountHealth): AccountHealth {
    this.db
      .insert(schema.accountHealth)
      .values(h)
      .onConflictDoUpdate({ target: schema.accountHealth.account, set: h })
      .run();
    return h;
  }

  async recordFailure(
    account: string,
    at: number,
    reason: string,
    options: { suspendAfter: number; authExpired?: boolean },
  ): Promise<AccountHealth> {
    const h = await this.health(account);
    const failures = h.consecutiveFailures + 1;
    const suspend =
      h.suspendedAt === null && (options.authExpired === true || failures >= options.suspendAfter);
    return this.saveHealth({
      account,
      consecutiveFailures: failures,
      suspendedAt: suspend ? at : h.suspendedAt,
      suspendedReason: suspend ? reason : h.suspendedReason,
    });
  }

  async recordSuccess(account: string): Promise<AccountHealth> {
    const h = await this.health(account);
    return this.saveHealth({ ...h, consecutiveFailures: 0 });
  }

  async resume(account: string): Promise<void> {
    this.db
      .update(schema.accountHealth)
      .set({ consecutiveFailures: 0, suspendedAt: null, suspendedReason: null })
      .where(eq(schema.accountHealth.account, account))
      .run();
  }

  async accountHealth(): Promise<AccountHealth[]> {
    return this.db.select().from(schema.accountHealth).orderBy(asc(schema.accountHealth.account)).all();
  }

  async recipeHealth(recipeId: string): Promise<RecipeHealth> {
    return this.readRecipeHealth(recipeId);
  }

  /** Synchronous, so that it can run inside a transaction. */
  private readRecipeHealth(recipeId: string): RecipeHealth {
    const r = this.db
      .select()
      .from(schema.recipeHealth)
      .where(eq(schema.recipeHealth.recipeId, recipeId))
      .get();
    if (!r) return freshRecipe(recipeId);
    const { updatedAt: _u, ...rest } = r;
    return { ...rest, nextRunReason: r.nextRunReason as RecipeHealth["nextRunReason"] };
  }

  private saveRecipeHealth(h: RecipeHealth, at: number): RecipeHealth {
    const values = { ...h, account: h.account ?? "", updatedAt: at };
    this.db
      .insert(schema.recipeHealth)
      .values(values)
      .onConflictDoUpdate({ target: schema.recipeHealth.recipeId, set: values })
      .run();
    return h;
  }

  async recordRecipeFailure(
    recipeId: string,
    account: string,
    at: number,
    reason: string,
    options: { suspendAfter: number },
  ): Promise<RecipeHealth> {
    return this.db.transaction(() => {
      const h = this.readRecipeHealth(recipeId);
      const failures = h.consecutiveFailures + 1;
      const suspend = h.suspendedAt === null && failures >= options.suspendAfter;
      return this.saveRecipeHealth(
        {
          ...h,
          account,
          consecutiveFailures: failures,
          suspendedAt: suspend ? at : h.suspendedAt,
          suspendedReason: suspend
            ? `${failures} consecutive failed runs; the last: ${reason}`
            : h.suspendedReason,
        },
        at,
      );
    }, IMMEDIATE);
  }

  async recordRecipeSuccess(recipeId: string, account: string, at: number): Promise<RecipeHealth> {
    const h = await this.recipeHealth(recipeId);
    return this.saveRecipeHealth({ ...h, account, consecutiveFailures: 0 }, at);
  }

  async resumeRecipe(recipeId: string, at: number): Promise<boolean> {
    const h = await this.recipeHealth(recipeId);
    if (h.suspendedAt === null) return false;
    this.saveRecipeHealth({ ...h, consecutiveFailures: 0, suspendedAt: null, suspendedReason: null }, at);
    return true;
  }

  async setNextRun(
    recipeId: string,
    account: string,
    next: { at: number | null; reason: "schedule" | "retry" | null; by: string | null },
    now: number,
  ): Promise<void> {
    const h = await this.recipeHealth(recipeId);
    this.saveRecipeHealth(
      { ...h, account, nextRunAt: next.at, nextRunReason: next.reason, plannedBy: next.by },
      now,
    );
  }

  async sourceReads(recipeId: string): Promise<Map<string, number>> {
    const rows = this.db
      .select()
      .from(schema.sourceReads)
      .where(eq(schema.sourceReads.recipeId, recipeId))
      .all();
    return new Map(rows.map((r) => [r.sourceId, r.items]));
  }

  async recordSourceReads(
    recipeId: string,
    reads: readonly { sourceId: string; items: number }[],
    at: number,
  ): Promise<void> {
    for (const r of reads) {
      this.db
        .insert(schema.sourceReads)
        .values({ recipeId, sourceId: r.sourceId, items: r.items, readAt: at })
        .onConflictDoUpdate({
          target: [schema.sourceReads.recipeId, schema.sourceReads.sourceId],
          set: { items: r.items, readAt: at },
        })
        .run();
    }
  }
}
