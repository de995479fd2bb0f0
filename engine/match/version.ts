/**
 * Version markers: the words that make a recording a different one from the song's plain release.
 * Read from folded text (see normalise.ts), so "Slowed + Reverb" arrives as "slowed reverb".
 */

export type VersionMarker =
  | "live"
  | "remix"
  | "acoustic"
  | "instrumental"
  | "karaoke"
  | "cover"
  | "sped up"
  | "slowed"
  | "remaster"
  | "radio edit"
  | "demo";

/**
 * Where a marker's words were found. In a bracketed note or a " - " suffix any marker word counts;
 * in the title itself or an artist's name only words that no ordinary title uses, since "Live
 * Forever", "Cover Me" and "Demo" are songs, while "Karaoke Hits Band" is never the original artist.
 */
export type MarkerPlace = "note" | "title";

interface MarkerRule {
  marker: VersionMarker;
  anywhere: RegExp | null;
  inNote: RegExp | null;
}

const RULES: readonly MarkerRule[] = [
  {
    marker: "karaoke",
    anywhere: /\bkaraoke\b|\boriginally performed by\b|\bin the style of\b|\bbacking track\b/,
    inNote: null,
  },
  {
    marker: "cover",
    anywhere: /\btribute\b|\b8 ?bit\b|\blullab(y|ies)\b|\bmade famous by\b/,
    inNote: /\bcover\b/,
  },
  { marker: "sped up", anywhere: /\bsped up\b|\bspeed up\b|\bnightcore\b/, inNote: null },
  { marker: "slowed", anywhere: /\bslowed\b/, inNote: /\breverb\b/ },
  { marker: "instrumental", anywhere: null, inNote: /\binstrumental\b/ },
  { marker: "acoustic", anywhere: null, inNote: /\bacoustic\b|\bunplugged\b/ },
  { marker: "live", anywhere: null, inNote: /\blive\b|\bunplugged\b|\bin concert\b/ },
  {
    marker: "remix",
    anywhere: null,
    // "Original Mix" is the original, and radio and album mixes are edits, not remixes.
    inNote: /\bremix(ed)?\b|\brework\b|\bbootleg\b|(?<!\b(original|radio|album|single) )\bmix\b/,
  },
  {
    marker: "radio edit",
    anywhere: null,
    inNote: /\bradio (edit|version|mix|cut)\b|\bsingle (edit|version)\b/,
  },
  { marker: "demo", anywhere: null, inNote: /\bdemo\b/ },
  { marker: "remaster", anywhere: null, inNote: /\bremaster(ed)?\b/ },
];

/** The markers that folded text names, by where the text stands. */
export function markersIn(folded: string, place: MarkerPlace): VersionMarker[] {
  const found: VersionMarker[] = [];
  for (const rule of RULES) {
    const hit = rule.anywhere?.test(folded) || (place === "note" && rule.inNote?.test(folded));
    if (hit) found.push(rule.marker);
  }
  return found;
}

/**
 * A remaster is the same performance with new mastering, and a catalogue often holds only the
 * remaster of an old record: a person asking for "Let It Be" means it too. So a remaster marker on
 * one side only weighs little, where every other marker on one side only means another recording.
 */
export function isWeakMarker(marker: VersionMarker): boolean {
  return marker === "remaster";
}

/** Markers on one side and not the other, the weak ones left out when `strongOnly`. */
export function markerDifference(
  a: ReadonlySet<VersionMarker>,
  b: ReadonlySet<VersionMarker>,
  strongOnly = false,
): VersionMarker[] {
  const all = new Set([...a, ...b]);
  return [...all].filter((m) => a.has(m) !== b.has(m) && !(strongOnly && isWeakMarker(m)));
}
