/**
 * The shape of a recipe and of the project file as written, once the schema has accepted them:
 * everything optional that has a default. Derived from the schema (schema.ts), so it cannot say
 * otherwise; only the normaliser and the semantic checks see this form.
 */
import type { Static } from "typebox";
import type { projectSchema, recipeSchema } from "./schema.js";

export type RecipeInput = Static<typeof recipeSchema>;
export type SourceInput = RecipeInput["sources"][number];
export type StepInput = NonNullable<RecipeInput["pipeline"]>[number];
export type TargetInput = RecipeInput["target"];

export type ProjectInput = Static<typeof projectSchema>;
export type NotifyTargetInput = NonNullable<ProjectInput["notify"]>[number];
