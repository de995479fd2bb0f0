/**
 * The recipe and project schemas for the engine's public entry, as plain data taken from the
 * validators made at build time: a program that imports the engine does not load TypeBox
 * (schema.ts's builder), which alone takes longer to load than the recipe loader.
 */
import { schemas } from "./validators.generated.js";

export const recipeSchema = schemas.recipe;
export const projectSchema = schemas.project;

/** What `recipes/recipe.schema.json` holds: a recipe document (editors match it on recipe files). */
export function exportedRecipeSchema(): Record<string, unknown> {
  return { $schema: "http://json-schema.org/draft-07/schema#", ...recipeSchema };
}
