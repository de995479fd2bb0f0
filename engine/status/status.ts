/**
 * `musicsync status`: for each recipe, when it runs next, how its last run went, and its conditions
 * (Ready, Degraded, AuthValid, SourceComplete) with reasons — gathered from the state, rendered as
 * text or JSON. Reads only.
 */
import type { LoadedRecipe } from "../recipe/types.js";
import { openApprovals } from "../run/approval.js";
import { withPartRecipes } from "../run/split.js";
import { holderGone } from "../state/holder.js";
import type { Condition, ConditionType, EngineState, LockInfo, RunRecord } from "../state/types.js";
import { duration, instant, plural, relative } from "./format.js";
import { nextRunOf } from "./next-run.js";

export const CONDITION_TYPES: readonly ConditionType[] = ["Ready", "Degraded", "AuthValid", "SourceComplete"];

export interface RunBrief {
  id: number;
  kind: string;
  result: string;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  counts: Record<string, number> | null;
  error: string | null;
}

export interface RecipeStatus {
  recipe: string;
  account: string;
  file: string;
  schedule: { cron: string; timezone: string | null; jitterSeconds: number } | null;
  /** Null when the recipe has no schedule or is suspended. */
  nextRun: { at: string; reason: "schedule" | "retry"; plannedBy: string | null } | null;
  suspended: { scope: "recipe" | "account"; since: string; reason: string } | null;
  consecutiveFailures: number;
  lastRun: RunBrief | null;
  lastSuccess: { id: number; at: string } | null;
  conditions: {
    type: ConditionType;
    status: string;
    reason: string;
    message: string;
    since: string | null;
  }[];
}

export interface LockStatus {
  account: string;
  lockId: string;
  holder: string;
  host: string | null;
  pid: number | null;
  acquiredAt: string;
  heartbeatAt: string;
}

/** A plan held for a person (`policy.require_approval`), newest first. */
export interface ApprovalStatus {
  recipe: string;
  account: string;
  runId: number;
  reason: string;
  heldAt: string;
  /** What applies it. */
  command: string;
}

export interface StatusReport {
  at: string;
  recipes: RecipeStatus[];
  /** Held plans of the listed recipes that can still be approved. */
  approvals: ApprovalStatus[];
  locks: LockStatus[];
}

export function runBrief(r: RunRecord): RunBrief {
  return {
    id: r.id,
    kind: r.kind,
    result: r.result,
    startedAt: new Date(r.startedAt).toISOString(),
    finishedAt: r.finishedAt === null ? null : new Date(r.finishedAt).toISOString(),
    durationMs: r.finishedAt === null ? null : r.finishedAt - r.startedAt,
    counts: r.counts,
    error: r.error,
  };
}

/** The lock's holder is `host:pid` (see the runner's withLock). */
export function lockStatus(l: LockInfo): LockStatus {
  const m = /^(.*):(\d+)$/.exec(l.holder);
  return {
    account: l.account,
    lockId: l.lockId,
    holder: l.holder,
    host: m ? m[1]! : null,
    pid: m ? Number(m[2]) : null,
    acquiredAt: new Date(l.acquiredAt).toISOString(),
    heartbeatAt: new Date(l.heartbeatAt).toISOString(),
  };
}

/** Results of a run that did not leave the target as its recipe wants. */
const UNFINISHED: ReadonlySet<string> = new Set(["failed", "partial", "refused", "interrupted"]);

/**
 * The recorded conditions, with Ready never True after a run that did not finish: a run cut short
 * before it could record its conditions (its process killed, its state database gone away) is
 * closed later as `interrupted`, and the Ready of the run before it must not speak for it.
 */
export function readyAfterLastRun(recorded: readonly Condition[], last: RunRecord | undefined): Condition[] {
  return recorded.map((c) => {
    if (c.type !== "Ready" || c.status !== "True" || !last || !UNFINISHED.has(last.result)) return c;
    const why = last.error ? `: ${last.error}` : "";
    return {
      ...c,
      status: "False",
      reason: "LastRunUnfinished",
      message: `the last run (${last.id}) ended ${last.result}${why}`,
      changedAt: last.finishedAt ?? last.startedAt,
    };
  });
}

function conditionsOf(recorded: readonly Condition[]): RecipeStatus["conditions"] {
  return CONDITION_TYPES.map((type) => {
    const c = recorded.find((x) => x.type === type);
    return c
      ? {
          type,
          status: c.status,
          reason: c.reason,
          message: c.message,
          since: new Date(c.changedAt).toISOString(),
        }
      : {
          type,
          status: "Unknown",
          reason: "NotObserved",
          message: "no run has reported it yet",
          since: null,
        };
  });
}

export async function collectStatus(
  state: EngineState,
  recipes: readonly LoadedRecipe[],
  now: number,
): Promise<StatusReport> {
  const out: RecipeStatus[] = [];
  // A split recipe's further parts are runs of their own (engine/run/split.ts): each is listed.
  for (const loaded of await withPartRecipes(state, recipes)) {
    const { id, account, schedule } = loaded.recipe;
    const [health, accountHealth, runs, conditions] = await Promise.all([
      state.recipeHealth(id),
      state.health(account),
      state.runs(id, 50),
      state.conditions(id),
    ]);
    const suspended: RecipeStatus["suspended"] =
      accountHealth.suspendedAt !== null
        ? {
            scope: "account",
            since: new Date(accountHealth.suspendedAt).toISOString(),
            reason: accountHealth.suspendedReason ?? "",
          }
        : health.suspendedAt !== null
          ? {
              scope: "recipe",
              since: new Date(health.suspendedAt).toISOString(),
              reason: health.suspendedReason ?? "",
            }
          : null;
    let nextRun: RecipeStatus["nextRun"] = null;
    if (schedule && !suspended) {
      // A daemon's own plan (jitter-free time or a retry) when it is current and its daemon still
      // runs (one of this machine killed left its plan behind); else the schedule's.
      if (
        health.nextRunAt !== null &&
        health.nextRunReason !== null &&
        health.nextRunAt >= now - 60_000 &&
        !holderGone(health.plannedBy)
      ) {
        nextRun = {
          at: new Date(health.nextRunAt).toISOString(),
          reason: health.nextRunReason,
          plannedBy: health.plannedBy,
        };
      } else {
        const next = nextRunOf(schedule);
        if (next) nextRun = { at: next.toISOString(), reason: "schedule", plannedBy: null };
      }
    }
    const success = runs.find((r) => r.result === "converged" || r.result === "no_changes");
    out.push({
      recipe: id,
      account,
      file: loaded.file,
      schedule: schedule
        ? { cron: schedule.cron, timezone: schedule.timezone, jitterSeconds: schedule.jitter_seconds ?? 0 }
        : null,
      nextRun,
      suspended,
      consecutiveFailures: health.consecutiveFailures,
      lastRun: runs[0] ? runBrief(runs[0]) : null,
      lastSuccess: success
        ? { id: success.id, at: new Date(success.finishedAt ?? success.startedAt).toISOString() }
        : null,
      conditions: conditionsOf(readyAfterLastRun(conditions, runs[0])),
    });
  }
  const locks = (await state.locks()).map(lockStatus);
  const approvals = await approvalsOf(state, recipes);
  return { at: new Date(now).toISOString(), recipes: out, approvals, locks };
}

async function approvalsOf(state: EngineState, recipes: readonly LoadedRecipe[]): Promise<ApprovalStatus[]> {
  const ids = new Set(recipes.map((r) => r.recipe.id));
  return (await openApprovals(state))
    .filter((a) => ids.has(a.recipeId))
    .map((a) => ({
      recipe: a.recipeId,
      account: a.account,
      runId: a.runId,
      reason: a.reason,
      heldAt: new Date(a.createdAt).toISOString(),
      command: `musicsync approve ${a.runId}`,
    }));
}

function approvalLines(report: StatusReport, now: number): string[] {
  if (report.approvals.length === 0) return [];
  const lines = ["Waiting for approval"];
  for (const a of report.approvals) {
    const at = Date.parse(a.heldAt);
    lines.push(
      `  ${a.recipe}: run #${a.runId} held ${instant(at)} (${relative(at, now)}): ${a.reason}`,
      `    apply it with: ${a.command}`,
    );
  }
  lines.push("");
  return lines;
}

/** ` — 5 actions, 3 requests, 3 confirmed, 2 not sent`: a run's counts in words. */
export function countsText(counts: Record<string, number> | null): string {
  if (!counts) return "";
  const parts: string[] = [];
  if (counts.actions !== undefined) parts.push(plural(counts.actions, "action"));
  if (counts.requests !== undefined) parts.push(plural(counts.requests, "request"));
  // What became of them: confirmed by the service, refused, sent without an answer, never sent.
  if (counts.confirmed !== undefined && counts.actions) parts.push(`${counts.confirmed} confirmed`);
  if (counts.failed) parts.push(`${counts.failed} failed`);
  if (counts.unknown) parts.push(`${counts.unknown} unanswered`);
  if (counts.notSent) parts.push(`${counts.notSent} not sent`);
  if (counts.quarantined) parts.push(`${counts.quarantined} quarantined`);
  return parts.length > 0 ? ` — ${parts.join(", ")}` : "";
}

/** Who will run a next run: the daemon or worker that planned it, or nothing seen yet. */
export function plannedByText(next: NonNullable<RecipeStatus["nextRun"]>): string {
  return next.plannedBy
    ? `planned by ${next.plannedBy}`
    : "by its schedule; no daemon or worker has planned it (nothing runs it until one does)";
}

/** Every scheduled recipe's next run, soonest first: what runs next across recipes. */
export function upcomingLines(report: StatusReport): string[] {
  const now = Date.parse(report.at);
  const next = report.recipes
    .flatMap((r) => (r.nextRun ? [{ recipe: r.recipe, run: r.nextRun, at: Date.parse(r.nextRun.at) }] : []))
    .sort((a, b) => a.at - b.at || a.recipe.localeCompare(b.recipe));
  if (next.length === 0) return [];
  const width = Math.max(...next.map((n) => n.recipe.length));
  const lines = ["Next runs"];
  for (const n of next) {
    const why = n.run.reason === "retry" ? " (retry)" : "";
    lines.push(
      `  ${instant(n.at)} ${relative(n.at, now).padEnd(16)} ${n.recipe.padEnd(width)}${why}  ${plannedByText(n.run)}`,
    );
  }
  lines.push("");
  return lines;
}

export function renderStatusText(report: StatusReport): string {
  const now = Date.parse(report.at);
  const lines: string[] = [...upcomingLines(report)];
  if (report.recipes.length === 0) lines.push("No recipes.");
  for (const r of report.recipes) {
    lines.push(`${r.recipe} (account ${r.account})`);
    const s = r.schedule;
    const tz = s?.timezone ? ` ${s.timezone}` : "";
    const jitter = s?.jitterSeconds ? `, jitter ${duration(s.jitterSeconds * 1000)}` : "";
    lines.push(`  schedule     ${s ? `${s.cron}${tz}${jitter}` : "none (runs by hand only)"}`);
    if (r.suspended) {
      const what = r.suspended.scope === "account" ? `account ${r.account}` : r.recipe;
      lines.push(
        `  next run     suspended since ${instant(Date.parse(r.suspended.since))}: ${r.suspended.reason}`,
        `               lift with: musicsync resume ${r.suspended.scope === "account" ? r.account : r.recipe} (${what})`,
      );
    } else if (r.nextRun) {
      const at = Date.parse(r.nextRun.at);
      const why = r.nextRun.reason === "retry" ? " (retry)" : "";
      lines.push(`  next run     ${instant(at)} ${relative(at, now)}${why}, ${plannedByText(r.nextRun)}`);
    } else lines.push("  next run     —");
    if (r.lastRun) {
      const l = r.lastRun;
      const took = l.durationMs !== null ? ` in ${duration(l.durationMs)}` : "";
      const start = Date.parse(l.startedAt);
      lines.push(
        `  last run     #${l.id} ${l.kind} ${l.result.replace("_", " ")} ${instant(start)} (${relative(start, now)})${took}${countsText(l.counts)}`,
      );
      if (l.error) lines.push(`               ${l.error}`);
    } else lines.push("  last run     never");
    if (r.lastSuccess && r.lastRun && r.lastSuccess.id !== r.lastRun.id) {
      lines.push(`  last success #${r.lastSuccess.id} ${instant(Date.parse(r.lastSuccess.at))}`);
    }
    if (r.consecutiveFailures > 0) lines.push(`  failures     ${r.consecutiveFailures} in a row`);
    lines.push("  conditions");
    for (const c of r.conditions) {
      const since = c.since ? ` since ${instant(Date.parse(c.since))}` : "";
      lines.push(`    ${c.type.padEnd(15)}${c.status.padEnd(8)}${c.reason}${since}: ${c.message}`);
    }
    lines.push("");
  }
  lines.push(...approvalLines(report, now));
  if (report.locks.length > 0) {
    lines.push("Locks");
    for (const l of report.locks) {
      const beat = Date.parse(l.heartbeatAt);
      lines.push(
        `  ${l.account}: ${l.lockId} held by ${l.host ?? l.holder}${l.pid !== null ? ` pid ${l.pid}` : ""}, heartbeat ${relative(beat, now)}`,
      );
    }
    lines.push("");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
