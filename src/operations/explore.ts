import { ArgumentError } from "../errors.js";
import { parseCharts, parseExplore, parseMoodCategories, parseMoodPlaylists } from "../parsers/explore.js";
import { LOCATIONS } from "../transport/constants.js";
import type { Charts, Explore, MoodCategories, MoodPlaylists } from "../types/explore.js";
import { type OperationContext, parseFor } from "./context.js";

/** Explore operations (PROTOCOL §4.3): one browse request each, no continuation. */

export async function getMoodCategories(ctx: OperationContext): Promise<MoodCategories> {
  const operation = "get_mood_categories";
  const response = await ctx.send({
    operation,
    endpoint: "browse",
    body: { browseId: "FEmusic_moods_and_genres" },
  });
  return parseFor(operation, () => parseMoodCategories(response, ctx.notes(operation)));
}

export async function getMoodPlaylists(ctx: OperationContext, params: string): Promise<MoodPlaylists> {
  const operation = "get_mood_playlists";
  if (typeof params !== "string") {
    throw new ArgumentError("params", "must be the `params` string of a getMoodCategories entry", {
      operation,
    });
  }
  const response = await ctx.send({
    operation,
    endpoint: "browse",
    body: { browseId: "FEmusic_moods_and_genres_category", params },
  });
  return parseFor(operation, () => parseMoodPlaylists(response, ctx.notes(operation)));
}

/** The global charts' pseudo country code. */
export const GLOBAL_CHARTS = "ZZ";

export interface GetChartsOptions {
  /** `ZZ` (global, the default) or a supported location code. */
  country?: string;
}

export async function getCharts(ctx: OperationContext, options: GetChartsOptions = {}): Promise<Charts> {
  const operation = "get_charts";
  const country = options.country ?? GLOBAL_CHARTS;
  if (country !== GLOBAL_CHARTS && !LOCATIONS.includes(country)) {
    throw new ArgumentError(
      "country",
      `"${String(country)}" is not a supported location; use ${GLOBAL_CHARTS} (global) or one of: ${LOCATIONS.join(", ")}`,
      { operation },
    );
  }
  const response = await ctx.send({
    operation,
    endpoint: "browse",
    body: { browseId: "FEmusic_charts", formData: { selectedValues: [country] } },
  });
  return parseFor(operation, () => parseCharts(response, country, ctx.notes(operation)));
}

export async function getExplore(ctx: OperationContext): Promise<Explore> {
  const operation = "get_explore";
  const response = await ctx.send({ operation, endpoint: "browse", body: { browseId: "FEmusic_explore" } });
  return parseFor(operation, () => parseExplore(response, ctx.notes(operation)));
}
