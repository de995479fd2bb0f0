/**
 * Entries a person decides: a tie (different recordings equally good, so none was taken) or an
 * unsure best (below the score to take it). What each is chosen among, and how an entry and a
 * candidate of each kind (songs, albums, artists) read as one line in `musicsync match`, in the
 * draft of matches.yaml and in `match --interactive`. Pure.
 */
import { printable } from "../output/printable.js";
import type { MatchCandidate, SongEntry } from "./entry.js";
import { entryLabel, type MatchKind, type Resolution } from "./resolve.js";
import { countWord, type ScoredCandidate } from "./score.js";

/** An unsure entry offers its best few: further down they are rarely the one. */
const UNSURE_CHOICES = 5;

/** What a person chooses among for this entry, best first; empty when there is nothing to choose. */
export function choicesOf<E, C>(r: Resolution<E, C>): readonly ScoredCandidate<C>[] {
  if (r.videoId !== null || r.skipped || r.by === "file") return [];
  // A tie offers the recordings that tied; a best refused for its score, the best few.
  return r.tied.length > 1 ? r.tied : r.candidates.slice(0, UNSURE_CHOICES);
}

/** The entries to decide, once per key (a file may list a song twice), in file order. */
export function openChoices<E, C>(resolutions: readonly Resolution<E, C>[]): Resolution<E, C>[] {
  const seen = new Set<string>();
  return resolutions.filter((r) => {
    if (seen.has(r.key) || choicesOf(r).length === 0) return false;
    seen.add(r.key);
    return true;
  });
}

/** "two candidates equally good" for a tie; "unsure: best 0.62, duration differs by 41 s" otherwise. */
export function whyChoose(r: Resolution<unknown, unknown>): string {
  if (r.tied.length > 1) return `${countWord(r.tied.length)} candidates equally good`;
  const best = r.candidates[0];
  return best ? `unsure: best ${best.score.toFixed(2)}, ${best.reasons[0] ?? ""}` : "no candidates";
}

/** 3:05 */
export function minutes(seconds: number): string {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * One line a terminal and a YAML comment may hold: whitespace runs (a line break from a file or the
 * service) as one space, other control characters (an escape sequence) written out.
 */
export function oneLine(text: string): string {
  return printable(text.replace(/\s+/g, " "), 400);
}

/** `0.90 "Crazy" by Gnarls Barkley, 2:58, St. Elsewhere: title equal, artists overlap 1/1` */
export function candidateText(c: ScoredCandidate): string {
  const m = c.candidate;
  const by = m.artists.length > 0 ? ` by ${m.artists.join(", ")}` : "";
  const details = [
    m.durationSeconds === null ? null : minutes(m.durationSeconds),
    m.album,
    m.resultType === "video" ? "a video" : null,
  ].filter((d): d is string => d !== null && d !== "");
  const more = details.length > 0 ? `, ${details.join(", ")}` : "";
  return oneLine(`${c.score.toFixed(2)} "${m.title}"${by}${more}: ${c.reasons.join(", ")}`);
}

/** The entry as a person looks for it: `Gnarls Barkley - Crazy (2:58, St. Elsewhere)`. */
export function entryText(entry: SongEntry): string {
  const name = entry.artists.length > 0 ? `${entry.artists.join(", ")} - ${entry.title}` : entry.title;
  const details = [entry.durationSeconds === null ? null : minutes(entry.durationSeconds), entry.album];
  const known = details.filter((d): d is string => d !== null && d !== "");
  return oneLine(known.length > 0 ? `${name} (${known.join(", ")})` : name);
}

/**
 * How the entries and candidates of one kind read to a person: in the listing, the drafted lines
 * of matches.yaml and the questions of `--interactive`, which are one code for every kind.
 */
export interface Shown<E, C> {
  /** What a person leaves out with `skip`: "song", "album", "artist". */
  thing: string;
  /** The entry as a person writes it ("Artist - Title"), in a listing and a drafted comment. */
  label(entry: E): string;
  /** The entry as a question shows it: with what else tells it apart. */
  asked(entry: E): string;
  /** What matches.yaml names for a candidate: a video id, an album's browseId, a channel id. */
  idOf(candidate: C): string;
  /** A scored candidate on one line: its score, what it is, and why. */
  text(scored: ScoredCandidate<C>): string;
  /** The best candidate of an unmatched entry, after its id. */
  name(candidate: C): string;
}

/** How a kind reads from what the matcher knows of it: its labels, and a candidate's score and reasons. */
export function shownOf<E, C>(kind: MatchKind<E, C>): Shown<E, C> {
  return {
    thing: kind.noun,
    label: kind.label,
    asked: (entry) => oneLine(kind.label(entry)),
    idOf: kind.idOf,
    text: (s) =>
      oneLine(`${s.score.toFixed(2)} ${kind.candidateLabel(s.candidate)}: ${s.reasons.join(", ")}`),
    name: (c) => oneLine(kind.candidateLabel(c)),
  };
}

/** Songs say more of a candidate than its label: its length, its album, whether it is a video. */
export const SONGS_SHOWN: Shown<SongEntry, MatchCandidate> = {
  thing: "song",
  label: entryLabel,
  asked: entryText,
  idOf: (c) => c.videoId,
  text: candidateText,
  name: (c) => `"${oneLine(c.title)}"`,
};
