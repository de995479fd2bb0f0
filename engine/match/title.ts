/**
 * A song title taken apart: the core title, the notes around it (brackets, " - " suffixes), the
 * artists it features and the version markers it carries. Pure.
 */
import { fold } from "./normalise.js";
import { markersIn, type VersionMarker } from "./version.js";

export interface ParsedTitle {
  /** The core as written (original script and case), for typing into a search. */
  coreRaw: string;
  /** The core folded. */
  core: string;
  /** Other readings, folded: a bracketed alias ("夜に駆ける (Yoru ni Kakeru)"), a video's other half. */
  aliases: string[];
  markers: ReadonlySet<VersionMarker>;
  /** Artists named by "feat." / "ft." / "featuring" / "(with …)", as written. */
  featured: string[];
  /** A video's "Artist - Title" halves, either of which may be the artist. */
  named: string[];
}

const BRACKETED = /\(([^()]*)\)|\[([^[\]]*)\]|【([^【】]*)】|\{([^{}]*)\}/g;
const DASH = /\s+[-–—~|]\s+|\s*[|｜]\s*/;
const FEAT_NOTE = /^(?:feat\b\.?|ft\b\.?|featuring\b|with\b)\s*(.+)$/i;
const FEAT_INLINE = /\s(?:feat\b\.?|ft\b\.?|featuring\b)\s*(.+)$/i;

// What uploaders add to a video title about the upload rather than the song.
const NOISE =
  /\b(official|music|lyrics?|lyric|video|audio|visuali[sz]er|hd|hq|4k|1080p|mv|m v|clip|videoclip|oficial|color coded|eng|sub|subs)\b/g;

function isNoise(folded: string): boolean {
  return folded.replace(NOISE, "").trim() === "";
}

/** Brackets taken out, innermost first; returns what is left and the bracketed texts. */
function takeBrackets(title: string): { rest: string; notes: string[] } {
  const notes: string[] = [];
  let rest = title;
  for (let before = ""; before !== rest; ) {
    before = rest;
    rest = rest.replace(BRACKETED, (...groups: (string | undefined)[]) => {
      notes.push((groups[1] ?? groups[2] ?? groups[3] ?? groups[4] ?? "").trim());
      return " ";
    });
  }
  return { rest: rest.replace(/\s+/g, " ").trim(), notes };
}

/** Splits off an inline "feat. X" from a piece of title. */
function takeFeat(piece: string, featured: string[]): string {
  const m = FEAT_INLINE.exec(piece);
  if (!m) return piece;
  featured.push(m[1]!.trim());
  return piece.slice(0, m.index).trim();
}

/**
 * Videos are titled "Artist - Title (Official Video)"; the second half is the title unless it is
 * itself a note ("Hello - Live"), in which case the title reads like a song's.
 */
function videoHalves(segments: string[]): { core: string; named: string[] } | null {
  if (segments.length < 2) return null;
  const second = fold(segments[1]!);
  if (isNoise(second) || markersIn(second, "note").length > 0) return null;
  return { core: segments[1]!, named: [segments[0]!, segments[1]!] };
}

export function parseTitle(title: string, isVideo: boolean): ParsedTitle {
  const featured: string[] = [];
  const { rest, notes } = takeBrackets(title.normalize("NFKC"));
  const segments = rest
    .split(DASH)
    .map((s) => takeFeat(s.trim(), featured))
    .filter((s) => s !== "");
  const halves = isVideo ? videoHalves(segments) : null;
  const coreRaw = halves?.core ?? segments[0] ?? "";
  const suffixes = segments.slice(halves ? 2 : 1);
  const markers = new Set<VersionMarker>(markersIn(fold(coreRaw), "title"));
  const aliases: string[] = halves ? [fold(segments[0]!)] : [];
  for (const note of [...notes, ...suffixes]) {
    const feat = FEAT_NOTE.exec(note);
    if (feat) {
      featured.push(feat[1]!.trim());
      continue;
    }
    const folded = fold(note);
    if (folded === "" || isNoise(folded)) continue;
    const found = markersIn(folded, "note");
    for (const m of found) markers.add(m);
    if (found.length === 0) aliases.push(folded);
  }
  return { coreRaw, core: fold(coreRaw), aliases, markers, featured, named: halves?.named ?? [] };
}
