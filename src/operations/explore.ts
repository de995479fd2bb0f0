import { LOCATIONS } from "../../shared/wire/constants.js";
import { ArgumentError } from "../errors.js";
import { parseCharts, parseExplore, parseMoodCategories, parseMoodPlaylists } from "../parsers/explore.js";
import type { OperationContext } from "../transport/operation-context.js";
import type { Charts, Explore, MoodCategories, MoodPlaylists } from "../types/explore.js";
import { browsePage } from "./context.js";

/** Explore operations (docs/PROTOCOL.md#explore): one browse request each, no continuation. */

export async function getMoodCategories(ctx: OperationContext): Promise<MoodCategories> {
  const operation = "get_mood_categories";
  return browsePage(ctx, operation, { browseId: "FEmusic_moods_and_genres" }, parseMoodCategories);
}

export async function getMoodPlaylists(ctx: OperationContext, params: string): Promise<MoodPlaylists> {
  const operation = "get_mood_playlists";
  if (typeof params !== "string") {
    throw new ArgumentError("params", "must be the `params` string of a getMoodCategories entry", {
      operation,
    });
  }
  return browsePage(
    ctx,
    operation,
    { browseId: "FEmusic_moods_and_genres_category", params },
    parseMoodPlaylists,
  );
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
  const body = { browseId: "FEmusic_charts", formData: { selectedValues: [country] } };
  return browsePage(ctx, operation, body, (response, notes) => parseCharts(response, country, notes));
}

export async function getExplore(ctx: OperationContext): Promise<Explore> {
  const operation = "get_explore";
  return browsePage(ctx, operation, { browseId: "FEmusic_explore" }, parseExplore);
}
