/** Plans held for approval. */
import { and, desc, eq } from "drizzle-orm";
import { changed, type Db, oneRow, placeholders, type Stored, send } from "../dialect.js";
import type { Row } from "../tables.js";
import type { Approval, ApprovalStore } from "../types.js";

const approvalOf = (r: Row<"approvals">): Approval => ({ ...r, plan: JSON.parse(r.plan) });

export const approvalStore: ApprovalStore & ThisType<Stored> = {
  async recordPendingApproval(a) {
    const p = this.d.t.approvals;
    // Guarded per recipe: two plans held at once by two processes would otherwise both stay
    // pending (neither UPDATE sees the other's uncommitted row); this way the later supersedes.
    await this.d.guarded("approvals", a.recipeId, async (tx) => {
      await tx
        .update(p)
        .set({ status: "superseded", decidedAt: a.createdAt })
        .where(and(eq(p.recipeId, a.recipeId), eq(p.status, "pending")));
      await tx.insert(p).values({ ...a, plan: JSON.stringify(a.plan), status: "pending" });
    });
  },

  async approvals(options = {}) {
    const { db, t } = this.d;
    const where = and(
      options.recipeId === undefined ? undefined : eq(t.approvals.recipeId, options.recipeId),
      options.all ? undefined : eq(t.approvals.status, "pending"),
    );
    const rows = await db
      .select()
      .from(t.approvals)
      .where(where)
      .orderBy(desc(t.approvals.createdAt), desc(t.approvals.runId));
    return rows.map(approvalOf);
  },

  async approval(runId) {
    const row = await oneRow(this.d.db, this.d.t.approvals, { runId });
    return row && approvalOf(row);
  },

  async supersedeApprovals(recipeId, at) {
    const a = this.d.t.approvals;
    const { id, at: decidedAt } = placeholders("id", "at");
    const build = (q: Db) =>
      q
        .update(a)
        .set({ status: "superseded", decidedAt })
        .where(and(eq(a.recipeId, id), eq(a.status, "pending")));
    return send(this.d, { table: a, key: "approvals.supersede", build, values: { id: recipeId, at } });
  },

  /** One UPDATE guarded by `pending`: a second decider waits for the first, then finds it decided. */
  async decideApproval(runId, d) {
    const { db, t } = this.d;
    const r = await db
      .update(t.approvals)
      .set({ status: d.status, decidedAt: d.at, appliedRunId: d.appliedRunId ?? null })
      .where(and(eq(t.approvals.runId, runId), eq(t.approvals.status, "pending")));
    return changed(r) > 0;
  },
};
