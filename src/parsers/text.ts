import type { ArtistRef, DescriptionRun, IdName, SongRunInfo } from "../types/common.js";
import { get, isObject, type Path, str } from "./nav.js";
import { NAV_BROWSE_ID, RUN_TEXT } from "./paths.js";

/**
 * Text runs (`{runs: [{text, navigationEndpoint?}]}`): the subtitle and flex-column metadata of
 * rows and cards (docs/PROTOCOL.md#text-runs).
 */

/** The separator run's text: space, U+2022 BULLET, space. */
export const DOT = " \u2022 ";

const RUNS: Path = ["runs"];
const URL_ENDPOINT: Path = ["navigationEndpoint", "urlEndpoint", "url"];

/**
 * Whether a run is exactly the DOT separator: `{"text": " • "}` and no other key. The service marks
 * real separators this way; a run with the same text and an endpoint is content.
 */
export function isDotRun(run: unknown): boolean {
  if (!isObject(run)) return false;
  let keys = 0;
  for (const key in run) {
    if (key !== "text") return false;
    keys++;
  }
  return keys === 1 && run["text"] === DOT;
}

/** Index of the first DOT run, or the run count when there is none. */
export function dotIndex(runs: readonly unknown[]): number {
  for (let i = 0; i < runs.length; i++) if (isDotRun(runs[i])) return i;
  return runs.length;
}

/** The text of a run, or "" when it has none. */
export function runText(run: unknown): string {
  return str(run, RUN_TEXT) ?? "";
}

/** All runs' texts concatenated. */
export function joinRuns(runs: readonly unknown[]): string {
  let out = "";
  for (const run of runs) out += runText(run);
  return out;
}

/** The runs of a text object (`{runs: [...]}`), or an empty array. */
export function runsOf(text: unknown): readonly unknown[] {
  const runs = get(text, RUNS);
  return Array.isArray(runs) ? runs : [];
}

const DURATION = /^(\d+:)*\d+:\d+$/;
const YEAR = /^\d{4}$/;
const LATIN = /[A-Za-z]/;
const DIGIT_START = /^\d/;
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/**
 * `m:ss` / `h:mm:ss` → seconds. Returns null for a missing or blank duration (unavailable tracks
 * and some uploads show an empty duration) and for text that is not a duration.
 */
export function parseDuration(text: string | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const trimmed = text.trim();
  if (trimmed === "" || !DURATION.test(trimmed)) return null;
  let seconds = 0;
  let start = 0;
  for (let i = 0; i <= trimmed.length; i++) {
    if (i === trimmed.length || trimmed.charCodeAt(i) === 58 /* : */) {
      seconds = seconds * 60 + Number(trimmed.slice(start, i));
      start = i + 1;
    }
  }
  return seconds;
}

/**
 * The views figure of a run text, or null when the text does not look like one. English `1.4M views`
 * gives `1.4M`; `55M\u00a0plays` (the service joins number and word with a no-break space) is kept
 * as two NBSP-joined pieces; in scripts without Latin letters a leading word (`視聴回数 …`) is
 * dropped first. A digit-led name without a space (`2Pac`) is not a view count.
 */
export function viewsOf(text: string): string | null {
  let rest = text;
  let prefixRemoved = false;
  if (!LATIN.test(rest) && rest !== "" && !DIGIT_START.test(rest)) {
    const space = rest.indexOf(" ");
    if (space < 0) return null;
    rest = rest.slice(space + 1);
    prefixRemoved = true;
  }
  if (!DIGIT_START.test(rest)) return null;
  if (!prefixRemoved && !rest.includes(" ") && ASCII_ONLY.test(rest)) return null;
  const first = rest.split(" ")[0] ?? "";
  const pieces = first.split("\u00a0");
  return pieces.length > 2 ? `${pieces[0]}\u00a0${pieces[1]}` : first;
}

/** Whether a run links somewhere (artist, album): a run with a `navigationEndpoint`. */
function isLink(run: unknown): boolean {
  return isObject(run) && run["navigationEndpoint"] !== undefined;
}

/** Whether a linked run's browse id is an album's (`MPRE…`, or an upload's release page). */
function isAlbumId(id: string | null): boolean {
  return id !== null && (id.startsWith("MPRE") || id.includes("release_detail"));
}

/** Whether the text of a run without a link is a name: not a duration, year or views figure. */
function isNameText(text: string): boolean {
  return !DURATION.test(text) && !YEAR.test(text) && viewsOf(text) === null;
}

/**
 * Whether the leading type word (`Song`, `Single`, `Video`, `EP` … followed by DOT) of the runs
 * from `from` on should be dropped so it is not read as an artist.
 */
function startsWithTypeSpec(runs: readonly unknown[], from: number): boolean {
  if (runs.length - from <= 2) return false;
  const first = runs[from];
  if (isLink(first) || !isNameText(runText(first))) return false;
  if (!isDotRun(runs[from + 1])) return false;
  const third = runs[from + 2];
  return !(isLink(third) && isAlbumId(str(third, NAV_BROWSE_ID)));
}

/** Adds an artist to `out.artists`, creating the list at the first. */
function addArtist(out: SongRunInfo, artist: ArtistRef): void {
  if (out.artists === undefined) out.artists = [artist];
  else out.artists.push(artist);
}

/**
 * Classifies subtitle runs, skipping separators (odd indexes). With `skipTypeSpec` a leading type
 * word is dropped first (search rows, home song cards, flat songs). Each run is classified
 * (docs/PROTOCOL.md#text-runs) straight into the result: every track row of a page passes through
 * here, and a classification object per run was most of its garbage.
 */
export function parseSongRuns(runs: readonly unknown[], skipTypeSpec = false, from = 0): SongRunInfo {
  const out: SongRunInfo = {};
  let start = from;
  if (skipTypeSpec && startsWithTypeSpec(runs, from)) start += 2;
  for (let i = start; i < runs.length; i += 2) {
    const run = runs[i];
    const text = runText(run);
    if (isLink(run)) {
      const id = str(run, NAV_BROWSE_ID);
      if (isAlbumId(id)) out.album = { name: text, id };
      else addArtist(out, { name: text, id });
    } else if (DURATION.test(text)) {
      out.duration = text;
      out.duration_seconds = parseDuration(text);
    } else if (YEAR.test(text)) {
      out.year = text;
    } else {
      const views = viewsOf(text);
      if (views !== null) out.views = views;
      else addArtist(out, { name: text, id: null });
    }
  }
  return out;
}

/** `{name, id}` of a linked run (artist, album): its text, and its browse id or null. */
export function runRef(run: unknown): ArtistRef {
  return { name: runText(run), id: str(run, NAV_BROWSE_ID) };
}

/** Artists from runs that alternate name and separator: every second run, `{name, id}`. */
export function parseArtistRuns(runs: readonly unknown[], from = 0, to = runs.length): ArtistRef[] {
  const out: ArtistRef[] = [];
  for (let i = from; i < to; i += 2) {
    out.push(runRef(runs[i]));
  }
  return out;
}

/** `{name, id}` of one run (`id` from its browse endpoint), or null when there is no run. */
export function idName(run: unknown): IdName | null {
  if (!isObject(run)) return null;
  return { id: str(run, NAV_BROWSE_ID), name: str(run, RUN_TEXT) };
}

/** Description runs as pieces: link runs keep their URL, everything else (hashtags too) is text. */
export function descriptionRuns(runs: readonly unknown[]): DescriptionRun[] {
  const out: DescriptionRun[] = [];
  for (const run of runs) {
    const text = runText(run);
    const url = str(run, URL_ENDPOINT);
    out.push(url === null ? { text } : { text, url });
  }
  return out;
}

/** Digits of a text joined as one integer (`"1,234 tracks"` → 1234), null without digits. */
export function digitsOf(text: string | null): number | null {
  if (text === null) return null;
  const digits = text.replace(/\D/g, "");
  return digits === "" ? null : Number.parseInt(digits, 10);
}

/** First word of a text (`"4.41M subscribers"` → `"4.41M"`), null for null. */
export function firstWord(text: string | null): string | null {
  if (text === null) return null;
  const space = text.indexOf(" ");
  return space < 0 ? text : text.slice(0, space);
}
