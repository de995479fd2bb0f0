/**
 * Premium accounts' chart sections (issue 11 item 11): which viewers are premium, and the rows the
 * charts and explore pages add for them, read from the `charts` table's premium sections
 * (`catalogue-premium.ts`).
 */
import type { ApiContext } from "../context.js";
import { asTrend, type PremiumCharts, type RankedSong } from "../render/ranked.js";
import type { PlaylistRow } from "../store/rows.js";

/** Rows the top-songs carousel shows; the whole chart is its playlist. */
const TOP_SONGS_SHOWN = 20;

/**
 * Whether the signed-in viewer has premium. A brand account uses its login's subscription, as the
 * service lets a member's brand accounts share the membership.
 */
export function isPremium(ctx: ApiContext): boolean {
  const account = ctx.viewer?.account;
  if (!account) return false;
  if (account.premium) return true;
  return account.parentId !== null && (ctx.state.store.account(account.parentId)?.premium ?? false);
}

/** A country's top songs: the playlist holding the chart and its first rows with rank and trend. */
export function topSongs(
  ctx: ApiContext,
  country: string,
): { playlistId: string; rows: RankedSong[] } | null {
  const store = ctx.state.store;
  const playlistId = store.chartEntries(country, "songs-playlist")[0]?.targetId;
  if (playlistId === undefined) return null;
  const rows: RankedSong[] = [];
  for (const e of store.chartEntries(country, "songs").slice(0, TOP_SONGS_SHOWN)) {
    const song = store.song(e.targetId);
    if (song) rows.push({ song, rank: e.position, trend: asTrend(e.trend) });
  }
  return { playlistId, rows };
}

/** The premium sections of a country's charts page; null when the viewer has no premium. */
export function premiumCharts(ctx: ApiContext, country: string): PremiumCharts | null {
  if (!isPremium(ctx)) return null;
  const store = ctx.state.store;
  const playlists = (section: string) =>
    store
      .chartEntries(country, section)
      .map((e) => store.playlist(e.targetId))
      .filter((p): p is PlaylistRow => p !== null);
  return {
    daily: playlists("premium-daily"),
    weekly: playlists("premium-weekly"),
    songs: topSongs(ctx, country),
  };
}
