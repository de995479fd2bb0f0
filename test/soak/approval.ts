/**
 * Plans held for approval in the soak: some recipes get `policy.require_approval`
 * (surfaces.ts draws the thresholds), so that a plan that removes more is held. What must hold:
 * - a run that says `pending_approval` sent no write and is recorded so in the state;
 * - no run applies a plan over the thresholds unless approved (`sync --approve`, `approve`, the
 *   page's approve, `apply --approve`), and none is held under them — judged by the soak's own
 *   reading of the rule (README: removals, and removals as a share of the target's rows);
 * - a saved plan (`plan -o`) says which recipes it would hold (`heldForApproval`), and `apply` of
 *   it without `--approve` holds them as `sync` does: exit 5, no write for them, the run recorded
 *   as pending approval; `apply --approve` then applies it, judged as any run.
 */
import type { Plan } from "../../engine/plan/types.js";
import type { Found } from "./invariants.js";
import { type ProcessRun, runKilled } from "./kill.js";
import type { ApprovalRule } from "./surfaces.js";

/** What the plan takes away: rows and entries removed, ratings taken back. */
function removalsOf(plan: Plan): number {
  const unrated = plan.actions.filter((a) => a.kind === "rate_song" && a.rating === "INDIFFERENT").length;
  return plan.summary.remove + unrated;
}

/** Whether the rule holds this plan, by the README's words. */
export function overRule(plan: Plan, rule: ApprovalRule): boolean {
  const removals = removalsOf(plan);
  if (removals === 0) return false;
  if (rule.removals !== undefined && removals > rule.removals) return true;
  const rows = plan.target.rows;
  return rule.removals_percent !== undefined && rows > 0 && (removals / rows) * 100 > rule.removals_percent;
}

const APPLIED = new Set(["converged", "partial"]);

/** One run of a recipe under a rule: held ones wrote nothing and are recorded; none bypassed the rule. */
export function judgeApproval(
  rule: ApprovalRule,
  run: { outcome: string; plan: Plan | null; writes: number; recorded: string | null },
  approved: boolean,
): Found[] {
  const out: Found[] = [];
  const { plan } = run;
  if (run.outcome === "pending_approval") {
    if (run.writes > 0)
      out.push({
        invariant: "held-writes-nothing",
        detail: `held for approval, yet ${run.writes} write requests sent`,
      });
    if (run.recorded !== "pending_approval")
      out.push({
        invariant: "held-writes-nothing",
        detail: `held for approval, but the state records the run ${run.recorded}`,
      });
    if (plan && !overRule(plan, rule))
      out.push({
        invariant: "approval-rule",
        detail: `held with ${removalsOf(plan)} removals of ${plan.target.rows} rows, not over ${JSON.stringify(rule)}`,
      });
  } else if (!approved && plan && APPLIED.has(run.outcome) && overRule(plan, rule))
    out.push({
      invariant: "approval-rule",
      detail: `${run.outcome} without approval with ${removalsOf(plan)} removals of ${plan.target.rows} rows, over ${JSON.stringify(rule)}`,
    });
  return out;
}

/** The recipes a saved plan file says would be held when applied. */
export function heldInPlanFile(text: string): string[] {
  try {
    const doc = JSON.parse(text) as { plans?: { recipe: { id: string }; heldForApproval?: string }[] };
    return (doc.plans ?? []).filter((p) => typeof p.heldForApproval === "string").map((p) => p.recipe.id);
  } catch {
    return [];
  }
}

export interface HeldApplyContext {
  command: readonly string[];
  projectFile: string;
  /** Reads the plan file `plan -o` wrote. */
  readPlan(file: string): Promise<string>;
  writes(): Promise<number>;
  /** The newest run of a recipe in the state, as recorded (null when there is none). */
  newestRun(recipeId: string): Promise<{ id: number; result: string } | null>;
  leaks(where: string, text: string): void;
  trace(line: string): void;
}

interface RunJson {
  recipe: string;
  outcome: string;
  requests?: number;
}

/**
 * The saved-plan path's `apply` arguments, checked first when the plan would hold recipes: `apply`
 * without `--approve` must hold them; the run is then `apply --approve`. When it applied them anyway
 * (a break found by the soak), that process was the run (`done`): nothing is left held to approve.
 */
export async function heldPlanStep(
  ctx: HeldApplyContext,
  apply: string[],
): Promise<{ args: string[]; done: ProcessRun | null; found: Found[] }> {
  const file = apply[1]!;
  const held = heldInPlanFile(await ctx.readPlan(file));
  if (held.length === 0) return { args: apply, done: null, found: [] };
  const r = await applyHeldPlan(ctx, file, held);
  return r.applied
    ? { args: apply, done: r.process, found: r.found }
    : { args: [...apply, "--approve"], done: null, found: r.found };
}

/**
 * `apply <file>` without `--approve` on a plan file that holds `held`: each held recipe held as
 * `sync` holds it. `applied` says whether one was applied anyway.
 */
async function applyHeldPlan(
  ctx: HeldApplyContext,
  planFile: string,
  held: readonly string[],
): Promise<{ found: Found[]; applied: boolean; process: ProcessRun }> {
  const before = await ctx.writes();
  const newest = new Map<string, number>();
  for (const id of held) newest.set(id, (await ctx.newestRun(id))?.id ?? 0);
  const p = await runKilled(ctx.command, ["apply", planFile, "--json", "-p", ctx.projectFile], null, 0);
  const wrote = (await ctx.writes()) - before;
  ctx.trace(
    `  process: apply without --approve (held: ${held.join(", ")}), exit ${p.exitCode}, ${wrote} writes`,
  );
  ctx.leaks("apply stdout", p.stdout);
  ctx.leaks("apply stderr", p.stderr);
  const bad = (detail: string) => ({ invariant: "apply-holds-for-approval", detail });
  const found: Found[] = [];
  let runs: RunJson[] = [];
  try {
    runs = (JSON.parse(p.stdout) as { runs: RunJson[] }).runs;
  } catch {
    found.push(bad(`exit ${p.exitCode} without a JSON report: ${p.stderr.slice(-200)}`));
  }
  let applied = false;
  let allHeld = runs.length > 0;
  for (const id of held) {
    const r = runs.find((x) => x.recipe === id);
    // A read cut short by a fault refuses the plan (or fails it) before the gate: nothing to judge.
    if (r?.outcome !== "pending_approval") allHeld = false;
    if (r && APPLIED.has(r.outcome)) {
      applied = true;
      found.push(bad(`the plan of ${id} is marked held for approval, yet apply ended it ${r.outcome}`));
    }
    if (r?.outcome !== "pending_approval") continue;
    const recorded = await ctx.newestRun(id);
    if (!recorded || recorded.id === newest.get(id) || recorded.result !== "pending_approval")
      found.push(
        bad(
          `apply said ${id} is pending approval but recorded no such run (newest: ${recorded ? `${recorded.id} ${recorded.result}` : "none"})`,
        ),
      );
  }
  const quiet = runs.filter((x) => !held.includes(x.recipe)).every((x) => x.outcome === "no_changes");
  const others = runs.filter((x) => !held.includes(x.recipe));
  const othersFine = others.every((x) => x.outcome === "converged" || x.outcome === "no_changes");
  if (allHeld && othersFine && p.exitCode !== 5)
    found.push(bad(`exit ${p.exitCode}, not 5 (held for approval)`));
  if (allHeld && quiet && wrote > 0)
    found.push(bad(`every plan is held, yet ${wrote} write requests were sent`));
  return { found, applied, process: p };
}

/** A `sync` whose recipes were all held (or had nothing to do) sent no write. */
export function judgeHeldSync(outcomes: readonly string[], wrote: number): Found[] {
  const held = outcomes.filter((o) => o === "pending_approval").length;
  if (held === 0 || wrote === 0 || !outcomes.every((o) => o === "pending_approval" || o === "no_changes"))
    return [];
  return [
    {
      invariant: "held-writes-nothing",
      detail: `sync held ${held} recipes for approval and changed nothing else, yet ${wrote} write requests were sent`,
    },
  ];
}
