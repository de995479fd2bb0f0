/**
 * Ranked chart rows and the premium-only chart sections (docs/PROTOCOL.md#explore). Shapes: the rank column
 * of the charts capture's artist rows (ytm_2026_07_get_charts_us_albums_no_genres: text, trend icon,
 * its colour and an accessibility label) on the song rows of explore's ranked carousel
 * (ytm_2025_11_get_explore: two-line stack, a play overlay inside the chart's playlist, the title
 * carousel linking `VL<playlist>`).
 */
import type { PlaylistRow, SongRow } from "../store/rows.js";
import { browse, carousel, type Json, PAGE, text } from "./common.js";
import { type Marks, playlistCard, songRow } from "./items.js";

export type Trend = "up" | "down" | "neutral";

/** Icon, colour and label wording of each trend, as the charts capture writes them. */
const TREND_LOOK: Readonly<Record<Trend, { icon: string; colour: string; label: string }>> = {
  up: { icon: "ARROW_DROP_UP", colour: "GREEN", label: "Rank increased to" },
  down: { icon: "ARROW_DROP_DOWN", colour: "RED", label: "Rank decreased to" },
  neutral: { icon: "ARROW_CHART_NEUTRAL", colour: "GREY", label: "Rank stayed at" },
};

export function asTrend(value: string | null): Trend {
  return value === "up" || value === "down" ? value : "neutral";
}

/** `customIndexColumn` of a ranked row. */
export function rankColumn(rank: number, trend: Trend): Json {
  const look = TREND_LOOK[trend];
  return {
    musicCustomIndexColumnRenderer: {
      text: text(String(rank)),
      icon: { iconType: look.icon },
      iconColorStyle: `CUSTOM_INDEX_COLUMN_ICON_COLOR_STYLE_${look.colour}`,
      accessibilityData: { accessibilityData: { label: `${look.label} ${rank}` } },
    },
  };
}

export interface RankedSong {
  song: SongRow;
  rank: number;
  trend: Trend;
}

/** A top-songs row: the song plays inside the chart's playlist, with rank and trend. */
export function rankedSongRow(r: RankedSong, playlistId: string, marks: Marks): Json {
  const row = songRow(r.song, { style: "library", marks, playlistId }) as {
    musicResponsiveListItemRenderer: Json;
  };
  const mrlir = row.musicResponsiveListItemRenderer;
  mrlir.customIndexColumn = rankColumn(r.rank, r.trend);
  mrlir.flexColumnDisplayStyle = "MUSIC_RESPONSIVE_LIST_ITEM_FLEX_COLUMN_DISPLAY_STYLE_TWO_LINE_STACK";
  mrlir.itemHeight = "MUSIC_RESPONSIVE_LIST_ITEM_HEIGHT_MEDIUM_COMPACT";
  return row;
}

/** The top songs: a carousel of ranked rows whose title opens the whole chart as a playlist. */
export function topSongsCarousel(playlistId: string, rows: readonly RankedSong[], marks: Marks): Json {
  const shelf = carousel(
    "Top songs",
    rows.map((r) => rankedSongRow(r, playlistId, marks)),
    browse(`VL${playlistId}`, PAGE.playlist),
    "COLLECTION_STYLE_ITEM_SIZE_MEDIUM",
  ) as { musicCarouselShelfRenderer: Json };
  // Four rows a column, as explore's ranked carousel (ytm_2025_11_get_explore).
  shelf.musicCarouselShelfRenderer.numItemsPerColumn = "4";
  return shelf;
}

/** What a premium account's charts page adds: daily and weekly chart cards apart, and top songs. */
export interface PremiumCharts {
  daily: PlaylistRow[];
  weekly: PlaylistRow[];
  songs: { playlistId: string; rows: RankedSong[] } | null;
}

/** A chart playlist's card on the charts page (subtitle "Chart"). */
export function chartCard(p: PlaylistRow): Json {
  const card = playlistCard(p, null, false) as { musicTwoRowItemRenderer: Json };
  card.musicTwoRowItemRenderer.subtitle = text("Chart");
  return card;
}

/**
 * The premium sections in page order: top songs, then the daily and the weekly chart carousels
 * where a plain account has one "Video charts" carousel. Clients tell them apart by content (song
 * rows; playlist cards counted against the plain page's), never by title (docs/PROTOCOL.md#explore).
 */
export function premiumChartSections(p: PremiumCharts, marks: Marks): Json[] {
  const sections: Json[] = [];
  if (p.songs && p.songs.rows.length > 0)
    sections.push(topSongsCarousel(p.songs.playlistId, p.songs.rows, marks));
  if (p.daily.length > 0) sections.push(carousel("Daily charts", p.daily.map(chartCard)));
  if (p.weekly.length > 0) sections.push(carousel("Weekly charts", p.weekly.map(chartCard)));
  return sections;
}
