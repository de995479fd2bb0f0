/** From source reads to the planner's `Desired`: run the pipeline, note truncated sources. Pure. */
import { runPipeline } from "../pipeline/run.js";
import type { LoadedRecipe } from "../recipe/types.js";
import type { Item } from "../sources/item.js";
import type { SourceRead } from "../sources/read.js";
import { sourceSizes } from "./shrinkage.js";
import type { Desired, PlanPolicy } from "./types.js";

export interface DesiredContext {
  now: Date;
  liked?: ReadonlySet<string>;
  tombstones?: ReadonlySet<string>;
  /** Item counts of each source's last complete read, by source key (state `sourceReads`). */
  lastReads?: ReadonlyMap<string, number>;
}

export function buildDesired(
  loaded: LoadedRecipe,
  reads: ReadonlyMap<string, SourceRead>,
  ctx: DesiredContext,
): Desired {
  const { recipe } = loaded;
  const sources = new Map<string, readonly Item[]>();
  for (const [id, read] of reads) sources.set(id, read.items);
  const result = runPipeline(recipe, {
    sources,
    liked: ctx.liked ?? new Set(),
    tombstones: ctx.tombstones ?? new Set(),
    now: ctx.now,
    recipeId: recipe.id,
    timeZone: recipe.schedule?.timezone ?? null,
  });
  return {
    recipe: { id: recipe.id, hash: loaded.hash, account: recipe.account, target: recipe.target },
    items: result.items,
    skipped: result.skipped,
    sourceTotal: [...reads.values()].reduce((n, r) => n + r.items.length, 0),
    truncatedSources: [...reads.values()].filter((r) => r.truncated).map((r) => r.id),
    sources: sourceSizes(recipe.sources, reads, ctx.lastReads ?? new Map()),
    ...withNotes([...reads.values()].flatMap((r) => r.notes ?? [])),
  };
}

export function planPolicy(loaded: LoadedRecipe): PlanPolicy {
  return { ...loaded.recipe.policy, mode: loaded.recipe.mode };
}

/** `{ notes }` when there are any: plans without file sources stay as they were. */
export function withNotes<T>(notes: readonly T[]): { notes?: T[] } {
  return notes.length > 0 ? { notes: [...notes] } : {};
}
