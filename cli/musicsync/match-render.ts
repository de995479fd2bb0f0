/**
 * How `musicsync match` shows what it matched (match.ts for songs, match-library.ts for a Spotify
 * library's albums and artists): each entry as JSON or as lines (its match, or why not, a tie's
 * candidates), and the summary with how to choose. Pure.
 */
import { oneLine, type Shown, whyChoose } from "../../engine/match/choices.js";
import type { Resolution } from "../../engine/match/resolve.js";
import { shellWord } from "./args.js";

/** What one `match` found, of one kind: the resolutions, how the kind reads, the searches sent. */
export interface Matched<E, C> {
  resolutions: readonly Resolution<E, C>[];
  shown: Shown<E, C>;
  searches: number;
}

/**
 * Matches of whichever kind (songs, albums, artists), handed to code written once for every kind
 * (the listing, the draft, the questions): `use` is given them with their kind's types.
 */
export type SomeMatched = <R>(use: <E, C>(m: Matched<E, C>) => R) => R;

export function someMatched<E, C>(m: Matched<E, C>): SomeMatched {
  return (use) => use(m);
}

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

/** The text listing: one line per entry, then a summary (`file`: the argument, to choose a tie with). */
export function renderMatches<E, C>(m: Matched<E, C>, file: string): string {
  const out = m.resolutions.flatMap((r, i) => entryLines(r, i + 1, m.shown));
  return `${out.map((line) => `${line}\n`).join("")}${matchSummary(m.resolutions, m.searches, file)}`;
}

/** The listing as `show` asks: every entry, or the summary with how to choose, or the summary alone. */
export function matchesText<E, C>(
  m: Matched<E, C>,
  file: string,
  show: "entries" | "summary" | "count",
  json: boolean,
): string {
  if (json)
    return `${JSON.stringify(
      m.resolutions.map((r) => entryJson(r, m.shown.idOf)),
      null,
      2,
    )}\n`;
  if (show === "entries") return renderMatches(m, file);
  return matchSummary(m.resolutions, m.searches, show === "summary" ? file : null);
}
