/**
 * `musicsync sync`'s notifications: each run's events are queued as the run ends (so they go out
 * while the next recipe runs), and before the command exits the queue gets a short while to finish;
 * a receiver that is down or slow costs the command at most that while, never its result.
 */
import type { LoadedRecipe, Project } from "../recipe/types.js";
import type { EngineLogger } from "../run/logger.js";
import type { RecipeRun } from "../run/runner.js";
import { Notifier, type NotifierOptions } from "./notifier.js";
import { runEvents } from "./run-events.js";

/** How long `sync` waits for its notifications before it exits. */
export const SYNC_DRAIN_MS = 3_000;

export interface SyncNotifications {
  run(run: RecipeRun): void;
  close(): Promise<void>;
}

const NONE: SyncNotifications = { run() {}, async close() {} };

export function syncNotifications(
  project: Project,
  recipes: readonly LoadedRecipe[],
  logger: EngineLogger,
  options: Partial<NotifierOptions> & { drainMs?: number; now?: () => number } = {},
): SyncNotifications {
  if (project.notify.length === 0) return NONE;
  const notifier = new Notifier({ targets: project.notify, logger, ...options });
  const accounts = new Map(recipes.map((r) => [r.recipe.id, r.recipe.account]));
  const now = options.now ?? Date.now;
  return {
    run(run) {
      try {
        // A split recipe's further parts (id.2, …) have the recipe's account in their plan.
        const account = run.plan?.account ?? accounts.get(run.recipeId) ?? null;
        for (const event of runEvents(run, account, now())) notifier.notify(event);
      } catch (e) {
        logger.warn({ recipe: run.recipeId, error: String(e) }, "could not notify");
      }
    },
    async close() {
      await notifier.close(options.drainMs ?? SYNC_DRAIN_MS);
    },
  };
}
