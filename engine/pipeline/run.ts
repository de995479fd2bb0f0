/**
 * Runs a recipe's pipeline over items already read. The stream starts as the `combine` of the
 * first step, or else as every source in recipe order (except sources only used by `exclude`).
 */
import type { PipelineStep, Recipe } from "../recipe/types.js";
import type { Item } from "../sources/item.js";
import { combine } from "./combine.js";
import { expand } from "./expand.js";
import { filterItems } from "./filter.js";
import { dedupe, exclude, limit, periodKey, shuffle, since, sortItems } from "./steps.js";
import { itemKey, type PipelineContext, type SkippedItem, type StepResult } from "./types.js";

export interface PipelineResult {
  /** Desired items, in order. */
  items: Item[];
  /** Every source item the pipeline dropped, with its reason, in the order steps dropped them. */
  skipped: SkippedItem[];
}

function sourceItems(ctx: PipelineContext, id: string): readonly Item[] {
  return ctx.sources.get(id) ?? [];
}

export function initialStream(
  recipe: Pick<Recipe, "sources" | "pipeline">,
  ctx: PipelineContext,
): StepResult {
  const first = recipe.pipeline[0];
  if (first && "combine" in first) {
    const names = first.combine.sources;
    return combine(
      first.combine.op,
      names.map((n) => sourceItems(ctx, n)),
      names,
    );
  }
  const excludedOnly = new Set<string>();
  for (const step of recipe.pipeline)
    if ("exclude" in step) for (const s of step.exclude.sources) excludedOnly.add(s);
  const items = recipe.sources.filter((s) => !excludedOnly.has(s.id)).flatMap((s) => sourceItems(ctx, s.id));
  return { items, skipped: [] };
}

export function runStep(items: readonly Item[], step: PipelineStep, ctx: PipelineContext): StepResult {
  if ("filter" in step) return filterItems(items, step.filter);
  if ("since" in step) return since(items, step.since.days, ctx.now);
  if ("dedupe" in step) return dedupe(items, step.dedupe.by);
  if ("exclude" in step) {
    const named = new Map<string, string>();
    for (const id of step.exclude.sources) {
      for (const item of sourceItems(ctx, id)) {
        const k = itemKey(item);
        if (k !== null && !named.has(k)) named.set(k, id);
      }
    }
    return exclude(items, {
      sources: named,
      liked: step.exclude.liked ? ctx.liked : null,
      tombstones: step.exclude.tombstones ? ctx.tombstones : null,
    });
  }
  if ("sort" in step) return sortItems(items, step.sort.by, step.sort.order, ctx.now);
  if ("shuffle" in step) {
    return shuffle(
      items,
      `${ctx.recipeId}|${step.shuffle.seed}|${periodKey(step.shuffle.period, ctx.now, ctx.timeZone ?? null)}`,
    );
  }
  if ("limit" in step) return limit(items, step.limit);
  if ("expand" in step) return expand(items, step.expand);
  // A combine after the first step is refused by the recipe checks; here it is the identity.
  return { items: [...items], skipped: [] };
}

export function runPipeline(
  recipe: Pick<Recipe, "sources" | "pipeline">,
  ctx: PipelineContext,
): PipelineResult {
  const start = initialStream(recipe, ctx);
  let items = start.items;
  const skipped = [...start.skipped];
  for (const step of recipe.pipeline) {
    if ("combine" in step) continue;
    const r = runStep(items, step, ctx);
    items = r.items;
    skipped.push(...r.skipped);
  }
  return { items, skipped };
}
