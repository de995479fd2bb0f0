/** Plans held for approval on SQLite. */
import { and, desc, eq } from "drizzle-orm";
import { approvalOf } from "../rows.js";
import * as schema from "../schema.js";
import type { Approval, ApprovalStore } from "../types.js";
import { type Db, IMMEDIATE } from "./common.js";

export class SqliteApprovalStore implements ApprovalStore {
  constructor(private readonly db: Db) {}

  async recordPendingApproval(a: Omit<Approval, "status" | "decidedAt" | "appliedRunId">): Promise<void> {
    this.db.transaction((tx) => {
      tx.update(schema.approvals)
        .set({ status: "superseded", decidedAt: a.createdAt })
        .where(and(eq(schema.approvals.recipeId, a.recipeId), eq(schema.approvals.status, "pending")))
        .run();
      tx.insert(schema.approvals)
        .values({ ...a, plan: JSON.stringify(a.plan), status: "pending" })
        .run();
    }, IMMEDIATE);
  }

  async approvals(options: { recipeId?: string; all?: boolean } = {}): Promise<Approval[]> {
    const where = and(
      options.recipeId === undefined ? undefined : eq(schema.approvals.recipeId, options.recipeId),
      options.all ? undefined : eq(schema.approvals.status, "pending"),
    );
    return this.db
      .select()
      .from(schema.approvals)
      .where(where)
      .orderBy(desc(schema.approvals.createdAt), desc(schema.approvals.runId))
      .all()
      .map(approvalOf);
  }

  async approval(runId: number): Promise<Approval | null> {
    const r = this.db.select().from(schema.approvals).where(eq(schema.approvals.runId, runId)).get();
    return r ? approvalOf(r) : null;
  }

  async supersedeApprovals(recipeId: string, at: number): Promise<number> {
    const changed = this.db
      .update(schema.approvals)
      .set({ status: "superseded", decidedAt: at })
      .where(and(eq(schema.approvals.recipeId, recipeId), eq(schema.approvals.status, "pending")))
      .run();
    return changed.changes;
  }

  async decideApproval(
    runId: number,
    d: { status: "approved" | "refused"; at: number; appliedRunId?: number },
  ): Promise<boolean> {
    const changed = this.db
      .update(schema.approvals)
      .set({ status: d.status, decidedAt: d.at, appliedRunId: d.appliedRunId ?? null })
      .where(and(eq(schema.approvals.runId, runId), eq(schema.approvals.status, "pending")))
      .run();
    return changed.changes > 0;
  }
}
