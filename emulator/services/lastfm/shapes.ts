/**
 * Last.fm's JSON as its API writes it (a conversion of its XML): every number a string, text under
 * "#text", names with "url" and "mbid" ("" when unknown), a page's facts under "@attr", a list of
 * one written as the object itself rather than a list.
 */
import type { Dated, Ranked } from "./data.js";
import type { LfmTrack } from "./describe.js";

const IMAGE_SIZES = ["small", "medium", "large", "extralarge"];
const images = () => IMAGE_SIZES.map((size) => ({ size, "#text": "" }));

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "20 Oct 2020, 10:03", as Last.fm writes a date's text. */
function dateText(unix: number): string {
  const d = new Date(unix * 1000);
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${hh}:${mm}`;
}

const date = (at: number) => ({ uts: String(at), "#text": dateText(at) });
const artistUrl = (t: LfmTrack) => t.url.slice(0, t.url.indexOf("/_/"));

export function lovedRow({ track: t, at }: Dated) {
  return {
    artist: { url: artistUrl(t), name: t.artist, mbid: t.artistMbid },
    date: date(at),
    mbid: t.mbid,
    url: t.url,
    name: t.name,
    image: images(),
    streamable: { fulltrack: "0", "#text": "0" },
  };
}

export function topRow({ track: t, playcount }: Ranked, rank: number) {
  return {
    streamable: { fulltrack: "0", "#text": "0" },
    mbid: t.mbid,
    name: t.name,
    image: images(),
    artist: { url: artistUrl(t), name: t.artist, mbid: t.artistMbid },
    url: t.url,
    duration: String(t.durationSeconds),
    "@attr": { rank: String(rank) },
    playcount: String(playcount),
  };
}

/** A scrobble, or (without `at`) what is playing now: flagged, and with no date. */
export function recentRow(t: LfmTrack, at: number | null) {
  return {
    artist: { mbid: t.artistMbid, "#text": t.artist },
    streamable: "0",
    image: images(),
    mbid: t.mbid,
    album: { mbid: t.albumMbid, "#text": t.album },
    name: t.name,
    url: t.url,
    ...(at === null ? { "@attr": { nowplaying: "true" } } : { date: date(at) }),
  };
}

export interface PageFacts {
  user: string;
  page: number;
  perPage: number;
  total: number;
}

/** `{<root>: {track, "@attr"}}`; one track is written bare, as Last.fm writes a list of one. */
export function listPage(root: string, rows: unknown[], f: PageFacts) {
  return {
    [root]: {
      track: rows.length === 1 ? rows[0] : rows,
      "@attr": {
        user: f.user,
        totalPages: String(Math.ceil(f.total / f.perPage)),
        page: String(f.page),
        perPage: String(f.perPage),
        total: String(f.total),
      },
    },
  };
}
