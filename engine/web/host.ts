/** What the server is given by `daemon --http` or `serve`: the project, an engine environment, the recipes. */
import type { LoadedRecipe, Project } from "../recipe/types.js";
import type { EngineEnv } from "../run/runner.js";

export interface WebHost {
  project: Project;
  projectFile: string;
  /** The same environment the command line builds: state, clients, pacers, lock settings. */
  env: EngineEnv;
  /** The recipes as currently loaded. */
  recipes(): LoadedRecipe[];
  /** In the daemon: the schedules are loaded. `serve` is ready once started. */
  schedulesLoaded(): boolean;
  daemon: boolean;
  /**
   * In the daemon: queues a manual run of the recipe, which the daemon makes as it makes scheduled
   * ones (behind the account's other runs, with its retries, metrics and notifications).
   */
  trigger?(recipeId: string): void;
}
