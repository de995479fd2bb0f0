/**
 * The actions a person can take from the page, each through the very functions the command line
 * calls — `sync -r`, `plan -r`, `resume`, `approve`, `undo` — so they take the same lock and write
 * the same journal. `describeAction` says what one would do (the confirmation page); `performAction`
 * does it and says what happened.
 */
import type { LoadedRecipe } from "../recipe/types.js";
import { planOf, refusal } from "../render/held-plan.js";
import { renderPlanText, summaryLine } from "../render/text.js";
import type { EngineLogger } from "../run/logger.js";
import { resumeAccount, resumeRecipe } from "../run/resume.js";
import { runAll } from "../run/run-all.js";
import { applySavedPlan, type RecipeRun, syncRecipe } from "../run/runner.js";
import { applyUndo, prepareUndo, UndoRefusedError } from "../undo/index.js";
import type { WebHost } from "./host.js";
import { type Html, html, seg } from "./html.js";

export const ACTION_KINDS = ["run", "plan", "resume", "approve", "undo"] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

export function isActionKind(k: string): k is ActionKind {
  return (ACTION_KINDS as readonly string[]).includes(k);
}

/** An answer the server turns into a page. */
export interface ActionAnswer {
  status: number;
  title: string;
  lines: string[];
  pre?: string;
  /** Links shown under the answer. */
  links?: Html;
}

/** A request the action cannot take (unknown recipe, run id not a number…): its 4xx answer. */
export class ActionRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function recipeOf(host: WebHost, id: string): LoadedRecipe {
  const r = host.recipes().find((x) => x.recipe.id === id);
  if (!r) throw new ActionRefused(404, `no recipe with id ${id}`);
  return r;
}

function runIdOf(text: string): number {
  if (!/^[1-9]\d{0,15}$/.test(text)) throw new ActionRefused(400, `"${text}" is not a run id`);
  return Number(text);
}

/** What the action would do, for its confirmation page; throws ActionRefused for a bad target. */
export function describeAction(
  host: WebHost,
  kind: ActionKind,
  target: string,
): { what: string; button: string } {
  switch (kind) {
    case "run":
      recipeOf(host, target);
      return {
        what: `Sync recipe ${target} now: plan it and apply the plan to the service.`,
        button: "Run now",
      };
    case "plan":
      recipeOf(host, target);
      return {
        what: `Plan recipe ${target}: read its sources and target and show the plan. Nothing is written.`,
        button: "Plan",
      };
    case "resume": {
      const isRecipe = host.recipes().some((r) => r.recipe.id === target);
      if (!isRecipe && !Object.hasOwn(host.project.accounts, target))
        throw new ActionRefused(404, `no recipe or account named ${target}`);
      return {
        what: `Lift the suspension of ${isRecipe ? "recipe" : "account"} ${target}; it runs again on its schedule.`,
        button: "Resume",
      };
    }
    case "approve":
      runIdOf(target);
      return {
        what: `Apply exactly the plan run #${target} held for approval.`,
        button: "Approve and apply",
      };
    case "undo":
      runIdOf(target);
      return {
        what: `Take run #${target} back: plan the inverse of what it wrote and apply it as a run of its own.`,
        button: "Undo",
      };
  }
}

function answerOf(title: string, runs: readonly RecipeRun[], runLink: Html | undefined): ActionAnswer {
  const lines = runs.map((r) => {
    const summary = r.plan ? ` — ${summaryLine(r.plan)}` : "";
    return `${r.recipeId}: ${r.outcome.replace("_", " ")}${summary}${r.error ? ` (${r.error})` : ""}`;
  });
  const failed = runs.some(
    (r) => r.outcome === "failed" || r.outcome === "refused" || r.outcome === "locked",
  );
  return { status: failed ? 409 : 200, title, lines, links: runLink };
}

/** A link to the newest run of the recipe (the one the action just made). */
async function newestRun(host: WebHost, recipeId: string): Promise<Html | undefined> {
  const [run] = await host.env.state.runs(recipeId, 1);
  return run ? html`<a href="/runs/${seg(run.id)}">Run #${run.id}</a> · ` : undefined;
}

const logger = (host: WebHost) => host.env.logger as EngineLogger;

async function runNow(host: WebHost, id: string): Promise<ActionAnswer> {
  const loaded = recipeOf(host, id);
  if (host.trigger) {
    // The daemon's run may wait for the account and retry for minutes: answer at once.
    host.trigger(id);
    return {
      status: 202,
      title: `Queued ${id}`,
      lines: [
        `${id}: queued; the daemon runs it as soon as its account is free, with its retries and notifications.`,
      ],
      links: html`<a href="/">Its outcome shows on the recipes page</a> · `,
    };
  }
  const runs = await runAll([{ id, run: () => syncRecipe(loaded, host.env) }], logger(host));
  return answerOf(`Ran ${id}`, runs, await newestRun(host, id));
}

async function planNow(host: WebHost, id: string): Promise<ActionAnswer> {
  const loaded = recipeOf(host, id);
  const [run] = await runAll(
    [{ id, run: () => syncRecipe(loaded, host.env, { dryRun: true }) }],
    logger(host),
  );
  if (!run?.plan)
    return { status: 409, title: `Plan of ${id}`, lines: [`${id}: ${run?.error ?? "no plan"}`] };
  return {
    status: 200,
    title: `Plan of ${id}`,
    lines: ["Nothing was written."],
    pre: renderPlanText(run.plan, { color: false }),
  };
}

async function resumeNow(host: WebHost, id: string): Promise<ActionAnswer> {
  const { state, clock } = host.env;
  const now = clock.now();
  const recipes = host.recipes();
  const lines: string[] = [];
  if (recipes.some((r) => r.recipe.id === id))
    lines.push(
      (await resumeRecipe(state, id, now)) ? `Recipe ${id} resumed.` : `Recipe ${id} was not suspended.`,
    );
  if (Object.hasOwn(host.project.accounts, id))
    lines.push(
      (await resumeAccount(state, id, recipes, now))
        ? `Account ${id} resumed.`
        : `Account ${id} was not suspended.`,
    );
  if (lines.length === 0) throw new ActionRefused(404, `no recipe or account named ${id}`);
  return { status: 200, title: "Resumed", lines };
}

async function approveNow(host: WebHost, target: string): Promise<ActionAnswer> {
  const id = runIdOf(target);
  const held = await host.env.state.approval(id);
  const refused = await refusal(host.env.state, id, held);
  if (refused !== null || held === null) throw new ActionRefused(409, refused ?? `run ${id} holds no plan`);
  let plan: ReturnType<typeof planOf>;
  try {
    plan = planOf(id, held);
  } catch (e) {
    throw new ActionRefused(409, (e as Error).message);
  }
  const runs = await runAll(
    [{ id: plan.recipe.id, run: () => applySavedPlan(plan, host.env, { approves: id }) }],
    logger(host),
  );
  return answerOf(`Approved run #${id}`, runs, await newestRun(host, plan.recipe.id));
}

async function undoNow(host: WebHost, target: string): Promise<ActionAnswer> {
  const id = runIdOf(target);
  let planned: Awaited<ReturnType<typeof prepareUndo>>;
  try {
    planned = await prepareUndo(id, host.env, { maxAgeDays: host.project.undo.max_age_days });
  } catch (e) {
    if (e instanceof UndoRefusedError) throw new ActionRefused(409, `cannot undo: ${e.message}`);
    if (!(e instanceof Error)) throw e;
    // The target could not be read as it is now (the service refused or failed, the account's
    // credentials expired…): the undo was not planned and nothing was written, so it answers as a
    // run that failed does (409, with the reason), not as a fault of the page.
    host.env.logger.warn({ run: id, error: e.message }, "undo could not be planned");
    return {
      status: 409,
      title: `Undo of run #${id}`,
      lines: [`Not undone: ${e.message}`, "Nothing was written."],
    };
  }
  if (planned.plan.actions.length === 0)
    return { status: 200, title: `Undo of run #${id}`, lines: ["Nothing to undo: the target is as it was."] };
  const runs = await runAll(
    [{ id: planned.plan.recipe.id, run: () => applyUndo(planned, host.env) }],
    logger(host),
  );
  return answerOf(`Undo of run #${id}`, runs, await newestRun(host, planned.plan.recipe.id));
}

export function performAction(host: WebHost, kind: ActionKind, target: string): Promise<ActionAnswer> {
  switch (kind) {
    case "run":
      return runNow(host, target);
    case "plan":
      return planNow(host, target);
    case "resume":
      return resumeNow(host, target);
    case "approve":
      return approveNow(host, target);
    case "undo":
      return undoNow(host, target);
  }
}
