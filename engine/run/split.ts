/**
 * `overflow: split` in the runner: a playlist recipe whose list passes 5,000 continues into further
 * playlists it owns, "<title> (2)", "(3)", … Each part is an ordinary playlist plan owned under its
 * own id (plan/ownership.ts `partId`: its marker, state, runs and undo are its own), planned over
 * its slice of the one desired list (plan/split.ts) and applied after the part before it.
 */
import { planPolicy } from "../plan/desired.js";
import { partId } from "../plan/ownership.js";
import { fixedKeys, partTarget, planPart } from "../plan/split.js";
import type { Desired, Plan, PlanPolicy } from "../plan/types.js";
import type { LoadedRecipe, PlaylistTarget } from "../recipe/types.js";
import type { Item } from "../sources/item.js";
import type { EngineState } from "../state/types.js";
import type { EngineEnv, Outcome, Planned, RecipeRun, TargetSide } from "./run-types.js";

/** More parts than this is a list no one means to keep in playlists: the plan is refused. */
const MAX_PARTS = 100;

type ReadPart = (ownerId: string, target: PlaylistTarget) => Promise<TargetSide>;

/**
 * Part 1 (read already), then the parts the state remembers (read before planning: their rows may
 * hold items for good), then new parts as long as items are left. A remembered part the list no
 * longer reaches is planned with nothing, so it is emptied (never deleted).
 */
export async function planSplit(
  loaded: LoadedRecipe,
  env: EngineEnv,
  first: TargetSide,
  desired: Desired,
  read: ReadPart,
): Promise<Planned> {
  const { recipe } = loaded;
  const target = recipe.target as PlaylistTarget;
  const policy = planPolicy(loaded);
  const base = target.playlist.title ?? first.read.actual.title ?? recipe.id;
  const spec = (k: number) => partTarget(target, base, k);
  const sides: TargetSide[] = [first];
  for (let k = 2; await env.state.ownedPlaylist(recipe.account, partId(recipe.id, k)); k++) {
    sides.push(await read(partId(recipe.id, k), spec(k)));
  }
  return planParts({ desired, policy, target, base }, sides, read);
}

/** What every part is planned from: the recipe's whole list, its policy and target. */
export interface SplitContext {
  desired: Desired;
  policy: PlanPolicy;
  target: PlaylistTarget;
  /** The title parts 2, 3, … are named after. */
  base: string;
}

/**
 * Plans the parts in order over the parts known (read) so far, reading a further part only when
 * items are left over. Makes no write and reads only through `read`.
 */
export async function planParts(
  ctx: SplitContext,
  known: readonly TargetSide[],
  read: ReadPart,
): Promise<Planned> {
  const { desired, policy, target } = ctx;
  const recipe = desired.recipe;
  const spec = (k: number) => partTarget(target, ctx.base, k);
  const sides = [...known];
  const fixed = sides.map((s) => fixedKeys({ actual: s.read.actual, owned: s.owned }, policy, desired));
  const planned: Planned[] = [];
  const placed = new Map<string, number>();
  let remaining: readonly Item[] = desired.items;
  for (let k = 1; k <= sides.length || remaining.length > 0; k++) {
    if (k > MAX_PARTS) throw new Error(`overflow: split would need more than ${MAX_PARTS} playlists`);
    if (k > sides.length) sides.push(await read(partId(recipe.id, k), spec(k)));
    const side = sides[k - 1] as TargetSide;
    const heldLater = new Map<string, number>();
    for (let j = fixed.length; j > k; j--) for (const key of fixed[j - 1] ?? []) heldLater.set(key, j);
    const part = planPart({
      desired,
      remaining,
      placed,
      heldLater,
      index: k,
      spec: spec(k),
      target: { actual: side.read.actual, owned: side.owned },
      policy,
    });
    for (const key of part.keys) if (!placed.has(key)) placed.set(key, k);
    remaining = part.rest;
    planned.push({ plan: part.plan, read: side.read, reconciliation: side.reconciliation });
  }
  // A list that fits one playlist, with no other part to empty, is an ordinary plan.
  if (planned.length > 1)
    for (const [i, p] of planned.entries()) p.plan.part = { index: i + 1, of: planned.length };
  const [head, ...rest] = planned as [Planned, ...Planned[]];
  return rest.length > 0 ? { ...head, parts: rest } : head;
}

/** `sync --dry-run` and `plan`: each further part as a run of its own that wrote nothing. */
export function dryRunParts(planned: Planned, outcomeOf: (plan: Plan) => Outcome): { parts?: RecipeRun[] } {
  if (!planned.parts) return {};
  return {
    parts: planned.parts.map(({ plan }) => ({
      recipeId: plan.recipe.id,
      plan,
      apply: null,
      outcome: outcomeOf(plan),
      error: plan.errors.join("; ") || null,
    })),
  };
}

const SETTLED: ReadonlySet<Outcome> = new Set(["converged", "no_changes"]);

/**
 * Applies the further parts in order after part 1's run. A part that did not finish (failed,
 * partial, held for approval) stops the rest: items moving between parts would otherwise be taken
 * out of one before they are in the other. The parts not applied are reported with their plans.
 */
export async function applyParts(
  first: RecipeRun,
  parts: readonly Planned[] | undefined,
  apply: (part: Planned) => Promise<RecipeRun>,
): Promise<RecipeRun> {
  if (!parts || parts.length === 0) return first;
  const runs: RecipeRun[] = [];
  let stoppedBy: RecipeRun | null = SETTLED.has(first.outcome) ? null : first;
  for (const part of parts) {
    if (stoppedBy) {
      runs.push({
        recipeId: part.plan.recipe.id,
        plan: part.plan,
        apply: null,
        outcome: part.plan.actions.length > 0 ? "changes" : "no_changes",
        error: `not applied: ${stoppedBy.recipeId} ended ${stoppedBy.outcome.replace("_", " ")}`,
      });
      continue;
    }
    const run = await apply(part);
    runs.push(run);
    if (!SETTLED.has(run.outcome)) stoppedBy = run;
  }
  return { ...first, parts: runs };
}

/**
 * The recipes with, after each split recipe, one entry per further part the state remembers (its
 * own id and target): `status` and `drift` report each part as the recipe it is run as.
 */
export async function withPartRecipes(
  state: EngineState,
  recipes: readonly LoadedRecipe[],
): Promise<LoadedRecipe[]> {
  const out: LoadedRecipe[] = [];
  for (const loaded of recipes) {
    out.push(loaded);
    const { recipe } = loaded;
    if (recipe.target.type !== "playlist" || recipe.policy.overflow !== "split") continue;
    const base = recipe.target.playlist.title ?? recipe.id;
    for (let k = 2; await state.ownedPlaylist(recipe.account, partId(recipe.id, k)); k++) {
      const target = partTarget(recipe.target, base, k);
      out.push({ ...loaded, recipe: { ...recipe, id: partId(recipe.id, k), target } });
    }
  }
  return out;
}
