/** What `apply` and `sync` print of their runs: text as each run finishes, or one JSON document. */
import type { Plan } from "../../engine/plan/types.js";
import { failedLine, renderPlanText, resultLine } from "../../engine/render/text.js";
import type { RecipeRun } from "../../engine/run/runner.js";
import { type CliIo, failuresAlsoOnStderr, type GlobalOptions } from "./io.js";

export function runJson(r: RecipeRun) {
  return {
    recipe: r.recipeId,
    // A split recipe's part (its plan's `part`): present only for such runs.
    ...(r.plan?.part ? { part: r.plan.part } : {}),
    outcome: r.outcome,
    error: r.error,
    summary: r.plan?.summary ?? null,
    // What held writes back and what a file source could not match: part of what the run did.
    guards: r.plan?.guards ?? [],
    notes: r.plan?.notes ?? [],
    // What the plan left out and why (quarantined, tombstoned, unavailable…): the text says it too.
    skipped: (r.plan?.lines ?? []).filter((l) => l.op === "skip"),
    requests: r.apply?.requests ?? 0,
    actions: r.apply?.outcomes ?? [],
    quarantined: r.apply?.quarantined ?? [],
    playlistId: r.apply?.playlistId ?? r.plan?.target.playlistId ?? null,
  };
}

/** Outcomes that are failures: the last line of the text output names these recipes. */
const FAILED: ReadonlySet<RecipeRun["outcome"]> = new Set([
  "failed",
  "refused",
  "locked",
  "partial",
  "interrupted",
]);

/** With --quiet, a plan that changes nothing and failed nowhere is left out. */
export function worthShowing(p: Plan): boolean {
  return p.actions.length > 0 || p.errors.length > 0;
}

/** A run --quiet leaves out: nothing to do, nothing failed. */
function quietRun(r: RecipeRun): boolean {
  return r.outcome === "no_changes" && !r.error && (r.plan === null || !worthShowing(r.plan));
}

export interface PrinterOptions {
  showPlans: boolean;
  planShown?: (id: string) => boolean;
  /** `--quiet`: only the recipes with changes or failures (else "No changes." at the end). */
  quiet?: boolean;
  /** `-v`: every skipped item and kept row of each plan shown. */
  verbose?: boolean;
}

/**
 * Prints runs as they finish: in text each recipe's plan (unless `planShown` says it was printed
 * before its apply) and result line; `--json` prints everything at the end, as one document.
 */
export class RunPrinter {
  readonly runs: RecipeRun[] = [];
  constructor(
    private readonly io: CliIo,
    private readonly g: GlobalOptions,
    private readonly options: PrinterOptions,
  ) {}

  plan(plan: Plan): void {
    if (this.g.json || (this.options.quiet && !worthShowing(plan))) return;
    const text = { color: this.io.stdout.isTTY === true, verbose: this.options.verbose === true };
    this.io.stdout.write(renderPlanText(plan, text));
  }

  add(r: RecipeRun): void {
    this.runs.push(r);
    if (this.g.json || (this.options.quiet && quietRun(r))) return;
    const { io, options } = this;
    const shown = options.planShown?.(r.recipeId) === true;
    if (options.showPlans && r.plan && !shown) this.plan(r.plan);
    if (r.outcome === "changes" || (r.outcome === "no_changes" && !r.apply)) {
      if (!options.showPlans || !r.plan) io.stdout.write(`${r.recipeId}: ${r.outcome.replace("_", " ")}\n`);
    } else io.stdout.write(`${r.recipeId}: ${resultLine(r)}\n`);
    if (r.plan) io.stdout.write("\n");
  }

  finish(): void {
    const { io } = this;
    const runs = this.options.quiet ? this.runs.filter((r) => !quietRun(r)) : this.runs;
    if (this.g.json) {
      io.stdout.write(`${JSON.stringify({ runs: runs.map(runJson) }, null, 2)}\n`);
      return;
    }
    if (this.options.quiet && runs.length === 0) io.stdout.write("No changes.\n");
    const last = failedLine(
      this.runs.filter((r) => FAILED.has(r.outcome)).map((r) => r.recipeId),
      this.runs.length,
    );
    if (last) io.stdout.write(`${last}\n`);
    if (failuresAlsoOnStderr(io))
      for (const r of runs) if (r.error && !r.plan) io.stderr.write(`error: ${r.recipeId}: ${r.error}\n`);
  }
}
