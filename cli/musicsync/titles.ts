/** Output helpers of the reporting commands: JSON or text, and recipes named with their titles. */
import type { LoadedRecipe } from "../../engine/recipe/types.js";
import type { CommandRun } from "./io.js";

export function print(run: CommandRun, data: unknown, text: () => string): void {
  run.io.stdout.write(run.g.json ? `${JSON.stringify(data, null, 2)}\n` : text());
}

/** A recipe's playlist title as its recipe gives it (null for likes, library, subscriptions). */
export function titleOf(r: LoadedRecipe | undefined): string | null {
  const target = r?.recipe.target;
  return target?.type === "playlist" ? (target.playlist.title ?? null) : null;
}

/** `recipe` → `recipe "Title"`, for the text renderings, which show the recipe id as given. */
export function titled(recipes: readonly LoadedRecipe[]): (id: string) => string {
  const byId = new Map(recipes.map((r) => [r.recipe.id, titleOf(r)]));
  return (id) => {
    const title = byId.get(id);
    return title ? `${id} "${title}"` : id;
  };
}
