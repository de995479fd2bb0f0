/**
 * Another service's list named on a command line, as `musicsync match` takes one in place of a file:
 *
 *   spotify:playlist:<id>  (or the playlist's open.spotify.com link)   spotify:liked
 *   spotify:albums   spotify:artists  (the saved albums, the followed artists)
 *   listenbrainz:playlist:<mbid>   listenbrainz:<user>:<series>   listenbrainz:<user>:top:<range>
 *   lastfm:<user>:loved   lastfm:<user>:recent   lastfm:<user>:top[:<period>]
 *
 * Read into the source a recipe would hold for it, so the list is read and matched exactly as that
 * source's. Pure.
 */
import type { ServiceSource } from "../recipe/types.js";
import {
  LASTFM_PERIODS,
  type LastfmPeriod,
  LISTENBRAINZ_RANGES,
  LISTENBRAINZ_SERIES,
  type ListenBrainzRange,
  type ListenBrainzSeries,
  MBID_PATTERN,
} from "../recipe/vocabulary.js";
import { spotifyObject } from "../services/spotify/ids.js";

const base = { id: "match", limit: null } as const;

const among = <T extends string>(words: readonly T[], w: string | undefined): w is T =>
  w !== undefined && (words as readonly string[]).includes(w);

function spotify(text: string, overrides: string): ServiceSource | null {
  const library = /^spotify:(liked|albums|artists)$/.exec(text)?.[1] as
    | "liked"
    | "albums"
    | "artists"
    | undefined;
  if (library) return { ...base, type: "spotify", playlist: null, library, overrides };
  const found = spotifyObject(text);
  return found?.kind === "playlist"
    ? { ...base, type: "spotify", playlist: found.id, library: null, overrides }
    : null;
}

function listenBrainz(parts: string[], overrides: string): ServiceSource | null {
  const none = { series: null, archived: false, playlist: null, title: null, top: null };
  const [first, second, third] = parts;
  if (first === "playlist" && second && new RegExp(MBID_PATTERN).test(second) && parts.length === 2) {
    return { ...base, type: "listenbrainz", user: null, ...none, playlist: second.toLowerCase(), overrides };
  }
  if (!first) return null;
  if (parts.length === 2 && among<ListenBrainzSeries>(LISTENBRAINZ_SERIES, second)) {
    return { ...base, type: "listenbrainz", user: first, ...none, series: second, overrides };
  }
  if (parts.length === 3 && second === "top" && among<ListenBrainzRange>(LISTENBRAINZ_RANGES, third)) {
    return { ...base, type: "listenbrainz", user: first, ...none, top: third, overrides };
  }
  return null;
}

function lastfm(parts: string[], overrides: string): ServiceSource | null {
  const [user, list, period] = parts;
  if (!user) return null;
  if ((list === "loved" || list === "recent") && parts.length === 2) {
    return { ...base, type: "lastfm", user, list, period: "overall", overrides };
  }
  if (
    list === "top" &&
    (parts.length === 2 || (parts.length === 3 && among<LastfmPeriod>(LASTFM_PERIODS, period)))
  ) {
    return {
      ...base,
      type: "lastfm",
      user,
      list,
      period: (period as LastfmPeriod | undefined) ?? "overall",
      overrides,
    };
  }
  return null;
}

/** The forms, for a message to a person who wrote one wrong. */
export const SERVICE_LIST_FORMS =
  "spotify:playlist:<id> (or its open.spotify.com link), spotify:liked, spotify:albums, spotify:artists, " +
  "listenbrainz:playlist:<mbid>, " +
  "listenbrainz:<user>:<weekly-jams|weekly-exploration|daily-jams>, listenbrainz:<user>:top:<range>, " +
  "lastfm:<user>:<loved|recent|top>[:<period>]";

/** Whether `text` is written as a service's list (right or wrong), not as a file's path. */
export function looksLikeServiceList(text: string): boolean {
  const t = text.trim();
  return /^(spotify|listenbrainz|lastfm):/.test(t) || /^https?:\/\/(open|play)\.spotify\.com\//.test(t);
}

/**
 * The source `text` names, its corrections in `overrides`; null when it names none: a file's path,
 * or a service's list written wrong (`spotify:album:…`; see looksLikeServiceList).
 */
export function serviceListNamed(text: string, overrides: string): ServiceSource | null {
  if (!looksLikeServiceList(text)) return null;
  const [scheme, ...rest] = text.trim().split(":");
  if (scheme === "listenbrainz") return listenBrainz(rest, overrides);
  if (scheme === "lastfm") return lastfm(rest, overrides);
  return spotify(text.trim(), overrides);
}
