/**
 * The marker the engine writes into the description of a playlist it creates: with it, a lost
 * database never leads to a second playlist for the same recipe (the engine finds its own again).
 */
import { serviceDescription } from "../recipe/service-text.js";

// A part past the first (`overflow: split`) is owned as "<recipe id>.<k>": a dot no recipe id can
// hold, and a marker an engine that knows nothing of parts does not take for the recipe's own.
const MARKER = /\[musicsync:([a-z0-9][a-z0-9-]*(?:\.[1-9][0-9]*)?)\]/;

/** The id part `index` of a split recipe is owned, planned and run under; part 1 is the recipe's. */
export function partId(recipeId: string, index: number): string {
  return index === 1 ? recipeId : `${recipeId}.${index}`;
}

export function ownershipMarker(recipeId: string): string {
  return `[musicsync:${recipeId}]`;
}

/** The description as the engine writes it: the recipe's text, then the marker. */
export function describeOwned(description: string | null, recipeId: string): string {
  const marker = ownershipMarker(recipeId);
  const text = description ? serviceDescription(description) : "";
  return text ? `${text}\n\n${marker}` : marker;
}

/** The recipe id a description's marker names, or null. */
export function markerRecipe(description: string | null): string | null {
  return description ? (MARKER.exec(description)?.[1] ?? null) : null;
}
