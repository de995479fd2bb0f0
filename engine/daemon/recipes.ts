/**
 * The recipes a daemon runs, and what a reload (SIGHUP) does to them. A file that no longer loads
 * keeps its recipes' previous versions running and is reported; a recipe whose file loads but that
 * is gone from it is dropped. Pure: loading is the caller's.
 */
import type { RecipeIssue } from "../recipe/errors.js";
import { scheduleProblems } from "../recipe/schedule.js";
import type { LoadedRecipe } from "../recipe/types.js";

export interface Reload {
  recipes: LoadedRecipe[];
  added: string[];
  changed: string[];
  removed: string[];
  /** Recipes whose new version did not load: the previous one stays. */
  kept: string[];
  issues: RecipeIssue[];
}

/**
 * The schedule check `validate` makes (one function, `scheduleProblems`), made again on what the
 * daemon is given: its recipes come through the loader, which has already refused these, but one
 * that did not must not reach node-cron. How often a schedule may fire is the loader's rule (the
 * test suite lifts it there), so this second look asks only what node-cron can run.
 */
export function scheduleIssues(recipes: readonly LoadedRecipe[]): RecipeIssue[] {
  const issues: RecipeIssue[] = [];
  for (const r of recipes) {
    const s = r.recipe.schedule;
    for (const p of s ? scheduleProblems(s, { allowSecondSchedules: true }) : []) {
      issues.push({
        file: r.file,
        line: r.line,
        col: r.col,
        message: `recipe ${r.recipe.id}: schedule.${p.field}: ${p.message}`,
      });
    }
  }
  return issues;
}

export function mergeReload(
  previous: readonly LoadedRecipe[],
  loaded: { recipes: readonly LoadedRecipe[]; issues: readonly RecipeIssue[] },
): Reload {
  const cronIssues = scheduleIssues(loaded.recipes);
  const badCron = new Set(cronIssues.map((i) => `${i.file}:${i.line}:${i.col}`));
  const issues = [...loaded.issues, ...cronIssues];
  const badFiles = new Set(issues.map((i) => i.file));
  const next = new Map<string, LoadedRecipe>();
  for (const r of loaded.recipes) {
    if (!badCron.has(`${r.file}:${r.line}:${r.col}`)) next.set(r.recipe.id, r);
  }
  const before = new Map(previous.map((r) => [r.recipe.id, r]));
  const kept: string[] = [];
  for (const old of previous) {
    const id = old.recipe.id;
    const replacement = next.get(id);
    // Its file (or its own new version) is broken: the version that worked goes on running.
    if (
      (replacement === undefined && badFiles.has(old.file)) ||
      (replacement === undefined && loaded.recipes.some((r) => r.recipe.id === id))
    ) {
      next.set(id, old);
      kept.push(id);
    }
  }
  const added: string[] = [];
  const changed: string[] = [];
  for (const [id, r] of next) {
    const old = before.get(id);
    if (!old) added.push(id);
    else if (old.hash !== r.hash || old.file !== r.file) changed.push(id);
  }
  const removed = [...before.keys()].filter((id) => !next.has(id));
  return { recipes: [...next.values()], added, changed, removed, kept, issues };
}
