/**
 * How `musicsync match` shows what it matched (match.ts for songs, match-library.ts for a Spotify
 * library's albums and artists): each entry as JSON or as lines (its match, or why not, a tie's
 * candidates), and the summary with how to choose. Pure.
 */
import { candidateText, oneLine, whyChoose } from "../../engine/match/choices.js";
import type { MatchCandidate, SongEntry } from "../../engine/match/entry.js";
import { entryLabel, type Resolution } from "../../engine/match/resolve.js";
import type { ScoredCandidate } from "../../engine/match/score.js";
import { shellWord } from "./args.js";

/** One entry as JSON: what it is, what it matched, and every candidate weighed. */
export function entryJson<E, C>(r: Resolution<E, C>, idOf: (c: C) => string) {
  return {
    // A file's entries carry their line (engine/files FileEntry).
    entry: { ...r.entry, key: r.key },
    videoId: r.videoId,
    by: r.by,
    score: r.score,
    reasons: r.reasons,
    candidates: r.candidates.map((c) => ({ ...c.candidate, score: c.score, reasons: c.reasons })),
    tied: r.tied.map((c) => idOf(c.candidate)),
  };
}

/** How the entries and candidates of one kind read in the listing. */
export interface Shown<E, C> {
  label(entry: E): string;
  idOf(candidate: C): string;
  /** A scored candidate on one line: its score, what it is, and why. */
  text(scored: ScoredCandidate<C>): string;
  /** The best candidate of an unmatched entry, after its id. */
  name(candidate: C): string;
}

export const SONGS_SHOWN: Shown<SongEntry, MatchCandidate> = {
  label: entryLabel,
  idOf: (c) => c.videoId,
  text: candidateText,
  name: (c) => `"${oneLine(c.title)}"`,
};

/** One entry of the listing: what it matched, or why not (a tie: each one that tied). */
export function entryLines<E, C>(r: Resolution<E, C>, n: number, shown: Shown<E, C>): string[] {
  const head = `${String(n).padStart(4)}  ${oneLine(shown.label(r.entry))}`;
  const score = r.score === null ? "" : ` ${r.score.toFixed(2)}`;
  // Reasons quote the service's titles and artists: shown on one line, escapes written out.
  const why = oneLine(r.reasons.join(", "));
  if (r.videoId) return [head, `        -> ${r.videoId}${score} (${r.by}) ${why}`];
  if (r.skipped) return [head, "        skipped (matches.yaml)"];
  if (r.tied.length > 1) {
    return [
      head,
      `        unmatched${score}: ${whyChoose(r)}, choose one:`,
      ...r.tied.map((t, i) => `          ${i + 1}) ${shown.idOf(t.candidate)} ${shown.text(t)}`),
    ];
  }
  const best = r.best ? ` best: ${shown.idOf(r.best.candidate)} ${shown.name(r.best.candidate)}` : "";
  return [head, `        unmatched${score}${best} ${why}`];
}

/** The summary line, and how to choose when some entries tied (`file` null: being chosen now). Pure. */
export function matchSummary(
  resolutions: readonly Resolution<unknown, unknown>[],
  searches: number,
  file: string | null,
): string {
  const matched = resolutions.filter((r) => r.videoId).length;
  const by = (k: Resolution<unknown, unknown>["by"]) =>
    resolutions.filter((r) => r.videoId && r.by === k).length;
  const unmatched = resolutions.filter((r) => !r.videoId && !r.skipped).length;
  const lines = [
    `Matched ${matched} of ${resolutions.length} (${by("cache")} from the cache, ${by("override")} from matches.yaml, ` +
      `${by("file")} named by the file); ${unmatched} unmatched; ${searches} search${searches === 1 ? "" : "es"}.`,
  ];
  const ties = new Set(resolutions.filter((r) => r.tied.length > 1).map((r) => r.key)).size;
  if (ties > 0 && file !== null) {
    lines.push(
      `${ties} tie${ties === 1 ? "" : "s"} to choose: \`musicsync match ${shellWord(file)} --interactive\` on a terminal, ` +
        "or --write-overrides and uncomment the right line in matches.yaml.",
    );
  }
  return `${lines.join("\n")}\n`;
}
