/**
 * What a ListenBrainz read is asked for, checked before any request: a user name, a playlist id
 * (a MusicBrainz id, bare or in its listenbrainz.org address), a statistics range, a series.
 */
import { ServiceReadError } from "../http.js";
import { LISTENBRAINZ_RANGES, type ListenBrainzRange } from "../words.js";
import { isSeries, SERIES, type Series } from "./jspf.js";

const SERVICE = "listenbrainz";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PLAYLIST_URL = /^https?:\/\/(?:beta\.)?listenbrainz\.org\/playlist\/([^/?#]+)\/?$/i;

/** The ranges the statistics API knows (engine/services/words.ts, as recipes name them). */
export const STAT_RANGES = LISTENBRAINZ_RANGES;
export type StatRange = ListenBrainzRange;

const shown = (v: unknown) => JSON.stringify(String(v).slice(0, 80));

/** The playlist's MBID, lower-cased, from a bare UUID or its listenbrainz.org address. */
export function parsePlaylistId(value: string): string {
  const trimmed = typeof value === "string" ? value.trim() : "";
  const id = PLAYLIST_URL.exec(trimmed)?.[1] ?? trimmed;
  if (!UUID.test(id)) {
    throw new ServiceReadError(
      SERVICE,
      null,
      `playlist ${shown(value)} is not a ListenBrainz playlist id: give its MusicBrainz id (a UUID, 8-4-4-4-12 hex digits) or its https://listenbrainz.org/playlist/<id> address`,
    );
  }
  return id.toLowerCase();
}

export function checkUser(user: string): string {
  if (typeof user !== "string" || user.trim() === "" || user.length > 100 || /[\u0000-\u001f/]/.test(user)) {
    throw new ServiceReadError(SERVICE, null, `user ${shown(user)} is not a ListenBrainz user name`);
  }
  return user.trim();
}

export function checkRange(range: string): StatRange {
  if (!(STAT_RANGES as readonly string[]).includes(range)) {
    throw new ServiceReadError(
      SERVICE,
      null,
      `range ${shown(range)} is not one of ${STAT_RANGES.join(", ")}`,
    );
  }
  return range as StatRange;
}

/** A series by its `source_patch` (`weekly-exploration`) or its name (`Weekly Exploration`), any case. */
export function checkSeries(series: string): Series {
  const key = typeof series === "string" ? series.trim().toLowerCase().replace(/\s+/g, "-") : "";
  if (!isSeries(key)) {
    throw new ServiceReadError(
      SERVICE,
      null,
      `series ${shown(series)} is not one of ${Object.keys(SERIES).join(", ")}`,
    );
  }
  return key;
}
