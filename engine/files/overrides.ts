/**
 * `matches.yaml`, beside the recipes: a person's corrections, kept in git. Each line maps an entry's
 * key (engine/match/key.ts, as `musicsync match` prints it) to a video id or to `skip`:
 *
 *   "adele - hello": YQHsXMglC9A
 *   "rain sounds - 10 hours": skip
 *
 * A Spotify saved album's line (`spotify:album:<id>`) names an album's browseId (MPRE…), a followed
 * artist's (`spotify:artist:<id>`) the artist's channel id (UC…).
 *
 * Overrides win over the cache and over search. A missing file is no overrides.
 */
import { isMap, isScalar, LineCounter, parseDocument } from "yaml";
import { isAlbumId } from "../match/album.js";
import { isChannelId } from "../match/artist.js";
import { oneLine, type Shown, whyChoose } from "../match/choices.js";
import { isVideoId } from "../match/entry.js";
import type { Override, Resolution } from "../match/resolve.js";
import { mib } from "./limits.js";
import { FileReadError, type ReadBounds, readRegularFileIfAny } from "./read-regular.js";

export type { Override };

export class OverridesError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly col: number,
    problem: string,
  ) {
    super(`${file}:${line}:${col}: ${problem}`);
    this.name = "OverridesError";
  }
}

/**
 * A matches.yaml holds a line of about 100 bytes per song: 8 MiB is some 80,000 songs, more than a
 * library holds, and parses in about 3 s.
 */
export const MAX_OVERRIDES_BYTES = 8 * 1024 * 1024;

const OVERRIDES_BOUNDS: ReadBounds = {
  maxBytes: MAX_OVERRIDES_BYTES,
  tooBig: (bytes, over) =>
    `the file is ${over ? "over " : ""}${mib(bytes)}; matches.yaml may be at most 8.0 MiB`,
};

/** A saved album's key names an album (MPRE…), a followed artist's a channel (UC…), any other a video. */
const BY_KEY: readonly { prefix: string; fits: (v: string) => boolean; wanted: string }[] = [
  { prefix: "spotify:album:", fits: isAlbumId, wanted: "an album's browseId (MPRE…)" },
  { prefix: "spotify:artist:", fits: isChannelId, wanted: "an artist's channel id (UC…)" },
];

function overrideFits(key: string, value: string): boolean {
  if (value === "skip") return true;
  const rule = BY_KEY.find((r) => key.startsWith(r.prefix));
  return rule ? rule.fits(value) : isVideoId(value);
}

function overrideWanted(key: string): string {
  return BY_KEY.find((r) => key.startsWith(r.prefix))?.wanted ?? "an 11-character video id";
}

/** Parses the text of a matches.yaml; any problem is an OverridesError at its line and column. */
export function parseOverrides(file: string, text: string): Map<string, Override> {
  const lines = new LineCounter();
  // yaml's own unique-key check compares each key with every one before it: 10,000 lines took
  // 4.4 s and 60,000 took 87 s. The Map below finds a second one as it goes.
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false });
  const at = (offset: number | undefined, problem: string) => {
    const p = lines.linePos(offset ?? 0);
    return new OverridesError(file, p.line, p.col, problem);
  };
  const first = doc.errors[0];
  if (first) throw at(first.pos[0], first.message.split("\n")[0] ?? "not YAML");
  const out = new Map<string, Override>();
  const lineOf = new Map<string, number>();
  if (doc.contents === null) return out;
  if (!isMap(doc.contents)) throw at(0, "matches.yaml must be a mapping of entry to video id or skip");
  for (const pair of doc.contents.items) {
    const key = isScalar(pair.key) ? pair.key : null;
    const value = isScalar(pair.value) ? pair.value : null;
    if (!key || typeof key.value !== "string" || key.value === "")
      throw at(key?.range?.[0], "each key must be an entry, as `musicsync match` prints it");
    const earlier = lineOf.get(key.value);
    if (earlier !== undefined)
      throw at(key.range?.[0], `"${key.value}" is given twice (also on line ${earlier})`);
    if (!value || typeof value.value !== "string" || !overrideFits(key.value, value.value)) {
      throw at(
        value?.range?.[0] ?? key.range?.[0],
        `"${key.value}": give ${overrideWanted(key.value)} or skip`,
      );
    }
    out.set(key.value, value.value);
    lineOf.set(key.value, lines.linePos(key.range?.[0] ?? 0).line);
  }
  return out;
}

/**
 * The text of the matches.yaml at `path` (a regular file, at most 8 MiB), or null when there is
 * none; any other problem is an OverridesError naming the file.
 */
export async function readOverridesText(path: string): Promise<string | null> {
  let bytes: Buffer | null;
  try {
    bytes = await readRegularFileIfAny(path, OVERRIDES_BOUNDS);
  } catch (e) {
    if (e instanceof FileReadError) throw new OverridesError(path, 1, 1, e.message);
    throw e;
  }
  return bytes === null ? null : bytes.toString("utf8");
}

/** The overrides of `path`, or none when the file does not exist. */
export async function loadOverrides(path: string): Promise<Map<string, Override>> {
  const text = await readOverridesText(path);
  return text === null ? new Map() : parseOverrides(path, text);
}

/** Keys of drafted lines a person has not taken yet (commented out): drafted once, not every time. */
function draftedKeys(text: string): string[] {
  const keys: string[] = [];
  for (const m of text.matchAll(/^#\s*("(?:[^"\\]|\\.)*")\s*:/gm)) {
    try {
      keys.push(JSON.parse(m[1]!) as string);
    } catch {
      // a comment of the person's own that only looks like a key
    }
  }
  return keys;
}

/** A YAML double-quoted key (JSON's escapes are YAML's). */
const quoted = (s: string) => JSON.stringify(s);

/** The drafted lines for one entry the file does not mention yet. */
function draftLines<E, C>(r: Resolution<E, C>, shown: Shown<E, C>): string[] {
  // One line each: a title with a newline in it (CSV allows one) must not break the YAML.
  const why = oneLine(r.reasons.join(", "));
  const label = oneLine(shown.label(r.entry));
  if (r.videoId) {
    return [`${quoted(r.key)}: ${r.videoId}  # ${label}; score ${r.score?.toFixed(2) ?? "?"}: ${why}`];
  }
  if (r.tied.length > 1) {
    // A choice the person makes: each one that tied, ready to uncomment.
    return [
      `# tie for ${label}: ${whyChoose(r)}; uncomment the one it is (or write skip)`,
      ...r.tied.map((t) => `# ${quoted(r.key)}: ${shown.idOf(t.candidate)}  # ${shown.text(t)}`),
    ];
  }
  if (r.best) {
    return [
      `# ${quoted(r.key)}: ${shown.idOf(r.best.candidate)}  # unmatched, best score ${r.best.score.toFixed(2)}: ${why}`,
    ];
  }
  return [`# ${quoted(r.key)}: skip  # unmatched: ${why}`];
}

/**
 * The overrides file with a drafted line for every entry it does not mention yet, for a person to
 * review: accepted matches as lines that pin them, unmatched ones commented out with the best
 * candidate (uncomment to take it, or write `skip`), a tie as one commented line per candidate
 * that tied (uncomment the right one). What the file already says is kept as written. Null when
 * there is nothing to add. `shown` is how the entries' kind reads (songs, albums, artists).
 */
export function draftOverrides<E, C>(
  existing: string | null,
  resolutions: readonly Resolution<E, C>[],
  today: string,
  shown: Shown<E, C>,
): string | null {
  const known = new Set(existing ? parseOverrides("matches.yaml", existing).keys() : []);
  for (const key of draftedKeys(existing ?? "")) known.add(key);
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const r of resolutions) {
    if (known.has(r.key) || seen.has(r.key) || r.by === "file") continue;
    seen.add(r.key);
    lines.push(...draftLines(r, shown));
  }
  // Nothing to add (every entry is there already, or names its own video): no file to write.
  if (lines.length === 0) return null;
  return appended(existing, "drafted by `musicsync match --write-overrides`", today, lines);
}

const HEAD =
  "# Matches a person has checked: entry -> video id (an album's MPRE…, an artist's UC…), or skip. " +
  "Overrides win over search.\n";

/** The file (or a new one's head) with a dated block of lines at its end. */
function appended(existing: string | null, by: string, today: string, lines: readonly string[]): string {
  const head = existing ?? HEAD;
  const sep = head.endsWith("\n") || head === "" ? "" : "\n";
  return `${head}${sep}# ${by} on ${today}: review, then commit\n${lines.join("\n")}\n`;
}

/** A person's answer for one entry: the one it is (a video, an album, an artist), or skip. */
export interface Choice<E, C> {
  resolution: Resolution<E, C>;
  value: Override;
}

/**
 * The overrides file with a chosen line added at its end; `opensBlock` heads it with the date
 * (the first choice of a session). Null when the file already decides that entry (the person
 * edited it meanwhile): what the file says is never changed or given twice.
 */
export function withChoice<E, C>(
  file: string,
  existing: string | null,
  choice: Choice<E, C>,
  today: string,
  opensBlock: boolean,
  shown: Shown<E, C>,
): string | null {
  const { resolution: r, value } = choice;
  if (existing && parseOverrides(file, existing).has(r.key)) return null;
  const picked = r.candidates.find((c) => shown.idOf(c.candidate) === value);
  const note = picked ? shown.text(picked) : `left out: ${whyChoose(r)}`;
  const line = `${quoted(r.key)}: ${value}  # ${oneLine(shown.label(r.entry))}; ${note}`;
  if (opensBlock) return appended(existing, "chosen with `musicsync match --interactive`", today, [line]);
  const sep = existing === null || existing.endsWith("\n") || existing === "" ? "" : "\n";
  return `${existing ?? HEAD}${sep}${line}\n`;
}
