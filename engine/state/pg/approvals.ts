/** Plans held for approval on PostgreSQL. */
import { and, desc, eq } from "drizzle-orm";
import { approvalOf } from "../rows.js";
import type { Approval, ApprovalStore } from "../types.js";
import type { PgDb } from "./common.js";
import { serialised, touched } from "./query.js";
import * as schema from "./schema.js";

export class PgApprovalStore implements ApprovalStore {
  constructor(private readonly db: PgDb) {}

  async recordPendingApproval(a: Omit<Approval, "status" | "decidedAt" | "appliedRunId">): Promise<void> {
    const t = schema.approvals;
    // Serialised per recipe: two plans held at once by two processes would otherwise both stay
    // pending (neither UPDATE sees the other's uncommitted row); this way the later supersedes.
    await serialised(this.db, "approvals", a.recipeId, async (tx) => {
      await tx
        .update(t)
        .set({ status: "superseded", decidedAt: a.createdAt })
        .where(and(eq(t.recipeId, a.recipeId), eq(t.status, "pending")));
      await tx.insert(t).values({ ...a, plan: JSON.stringify(a.plan), status: "pending" });
    });
  }

  async approvals(options: { recipeId?: string; all?: boolean } = {}): Promise<Approval[]> {
    const t = schema.approvals;
    const where = and(
      options.recipeId === undefined ? undefined : eq(t.recipeId, options.recipeId),
      options.all ? undefined : eq(t.status, "pending"),
    );
    const rows = await this.db.select().from(t).where(where).orderBy(desc(t.createdAt), desc(t.runId));
    return rows.map(approvalOf);
  }

  async approval(runId: number): Promise<Approval | null> {
    const [r] = await this.db.select().from(schema.approvals).where(eq(schema.approvals.runId, runId));
    return r ? approvalOf(r) : null;
  }

  async supersedeApprovals(recipeId: string, at: number): Promise<number> {
    const t = schema.approvals;
    const changed = await this.db
      .update(t)
      .set({ status: "superseded", decidedAt: at })
      .where(and(eq(t.recipeId, recipeId), eq(t.status, "pending")));
    return changed.rowCount ?? 0;
  }

  async decideApproval(
    runId: number,
    d: { status: "approved" | "refused"; at: number; appliedRunId?: number },
  ): Promise<boolean> {
    const t = schema.approvals;
    // One UPDATE guarded by `pending`: of two processes deciding at once, the second waits for the
    // first's row lock, re-reads the row and finds it no longer pending.
    const changed = await this.db
      .update(t)
      .set({ status: d.status, decidedAt: d.at, appliedRunId: d.appliedRunId ?? null })
      .where(and(eq(t.runId, runId), eq(t.status, "pending")));
    return touched(changed);
  }
}
