/**
 * The marker the engine writes into the description of a playlist it creates: with it, a lost
 * database never leads to a second playlist for the same recipe (the engine finds its own again).
 */
import { serviceDescription } from "../recipe/service-text.js";

const MARKER = /\[musicsync:([a-z0-9][a-z0-9-]*)\]/;

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
