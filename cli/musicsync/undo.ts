/**
 * `musicsync undo <run-id>`: plans the inverse of what that run confirmed and applies it as a run
 * of its own (kind "undo"), or, with --dry-run or -o, only shows or saves the plan (`musicsync
 * apply plan.json` takes it later). A run that cannot be undone is refused in one line, exit 1.
 */
import { writeFile } from "node:fs/promises";
import { renderPlansJson } from "../../engine/render/json.js";
import { renderPlansMarkdown } from "../../engine/render/markdown.js";
import { renderPlanText } from "../../engine/render/text.js";
import { noteApproval, ruleOf } from "../../engine/run/approval.js";
import type { EngineLogger } from "../../engine/run/logger.js";
import { runAll } from "../../engine/run/run-all.js";
import type { Planned } from "../../engine/run/runner.js";
import { applyUndo, prepareUndo, UndoRefusedError } from "../../engine/undo/index.js";
import { loadProjectFor } from "./accounts.js";
import { outputFileArg, runIdArg, wholeNumberArg } from "./args.js";
import { CliError, type CommandRun, Exit } from "./io.js";
import { sayNextSteps } from "./next-steps.js";
import { loadTolerant } from "./project.js";
import { RunPrinter } from "./run-printer.js";
import { exitOf, withEnv } from "./runs.js";

export interface UndoOptions {
  dryRun?: boolean;
  out?: string;
  deleteCreated?: boolean;
  maxAgeDays?: string;
  markdown?: boolean;
}

/** The plan alone (--dry-run, -o): printed as text, Markdown or JSON; exit 2 when it would change anything. */
function showPlan(run: CommandRun, planned: Planned, runId: number, o: UndoOptions): void {
  const { io, g } = run;
  const { plan } = planned;
  if (g.json) io.stdout.write(renderPlansJson([plan]));
  else if (o.markdown) io.stdout.write(`Undo of run #${runId}\n\n${renderPlansMarkdown([plan])}`);
  else
    io.stdout.write(`Undo of run #${runId}:\n${renderPlanText(plan, { color: io.stdout.isTTY === true })}`);
  if (o.out && !g.json) io.stdout.write(`Saved to ${o.out}: apply it with \`musicsync apply ${o.out}\`.\n`);
  run.setExit(plan.actions.length > 0 ? Exit.CHANGES : Exit.OK);
}

export async function undo(command: CommandRun, runIdText: string, o: UndoOptions): Promise<void> {
  const { g } = command;
  const runId = runIdArg(runIdText);
  const given = o.maxAgeDays === undefined ? undefined : wholeNumberArg(o.maxAgeDays, "--max-age-days");
  if (o.out) outputFileArg(o.out);
  const project = await loadProjectFor(command);
  const maxAgeDays = given ?? project.undo.max_age_days;
  const applying = !o.dryRun && !o.out;
  await withEnv(
    command,
    project,
    async (env, run) => {
      const { io } = run;
      let planned: Planned;
      try {
        planned = await prepareUndo(runId, env, { deleteCreated: o.deleteCreated === true, maxAgeDays });
      } catch (e) {
        if (e instanceof UndoRefusedError) throw new CliError(`cannot undo: ${e.message}`);
        throw e;
      }
      // Saved for `apply`, which holds it as any saved plan: the file says so, as `plan -o`'s does.
      if (o.out) {
        const rule = ruleOf(await loadTolerant(run, project), planned.plan.recipe.id);
        planned = noteApproval(planned, rule);
        await writeFile(o.out, renderPlansJson([planned.plan]));
      }
      if (!applying || planned.plan.actions.length === 0) {
        showPlan(run, planned, runId, o);
        return;
      }
      if (!g.json) io.stdout.write(`Undo of run #${runId}:\n`);
      const out = new RunPrinter(io, g, { showPlans: true });
      const runs = await runAll(
        [{ id: planned.plan.recipe.id, account: planned.plan.account, run: () => applyUndo(planned, env) }],
        env.logger as EngineLogger,
        (r) => out.add(r),
      );
      out.finish();
      await sayNextSteps(io, env.state, runs);
      run.setExit(exitOf(runs));
    },
    { readOnly: !applying, history: true },
  );
}
