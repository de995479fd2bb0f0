/**
 * Playlist-file entries made from the emulator's catalogue, each with its known answer, disturbed
 * the way real exports from other services are: case and punctuation, "feat." forms, bracketed
 * suffixes that do not change the recording, durations a few seconds off, no album, titles written
 * in Latin letters for a song in another script, and songs the catalogue does not have at all.
 * The answers come from the emulator's database (`matchAnswers`), never from the matcher.
 */
import type { Rng } from "../emulator/random.js";
import type { MatchAnswer } from "../emulator/store/catalogue.js";
import type { SongEntry } from "../engine/match/entry.js";

/** One bench entry: what the file says, the right video (null: not in the catalogue), how it was made. */
export interface BenchEntry {
  entry: SongEntry;
  answer: string | null;
  kind: string;
}

/** Notes exporters add that name the same recording (a "Single Version" or "Mono" would be another). */
const SUFFIXES = [" (Album Version)", " [Explicit]", " (Bonus Track)", " - Explicit", " (Original Mix)"];

function recase(r: Rng, s: string): string {
  const k = r.next();
  if (k < 0.2) return s.toUpperCase();
  if (k < 0.4) return s.toLowerCase();
  if (k < 0.5) return s.replace(/\b\w/g, (c) => c.toUpperCase());
  return s;
}

/** Punctuation as another service writes it: apostrophes, dashes and commas come and go. */
function repunctuate(r: Rng, s: string): string {
  if (r.chance(0.3)) return s.replace(/['’,.!?]/g, "");
  if (r.chance(0.2)) return `${s}!`;
  return s;
}

/** The disturbances every kind of entry may get; each entry takes a few of them. */
function disturb(r: Rng, e: SongEntry, a: MatchAnswer): SongEntry {
  let title = repunctuate(r, recase(r, e.title));
  if (r.chance(0.25)) title += r.pick(SUFFIXES);
  const off = r.chance(0.7) ? r.int(1, 3) * (r.chance(0.5) ? 1 : -1) : 0;
  return {
    ...e,
    title,
    artists: e.artists.map((n) => recase(r, n)),
    album: r.chance(0.4) ? null : a.albumTitle,
    durationSeconds: r.chance(0.1) ? null : a.durationSeconds + off,
  };
}

const plain = (a: MatchAnswer): SongEntry => ({
  title: a.title,
  artists: [a.artists[0]!],
  album: a.albumTitle,
  durationSeconds: a.durationSeconds,
  isrc: null,
  explicit: null,
  videoId: null,
});

/** Featured artists as exports write them: in the title, or as a second artist. */
function featured(r: Rng, a: MatchAnswer): SongEntry {
  const [main, guest] = a.artists;
  const title = a.title.replace(/\s*[([]?(feat\.|ft\.|featuring)[^)\]]*[)\]]?/i, "").trim();
  const form = r.int(0, 2);
  if (form === 0) return { ...plain(a), title: `${title} (feat. ${guest})`, artists: [main!] };
  if (form === 1) return { ...plain(a), title: `${title} ft. ${guest}`, artists: [main!] };
  return { ...plain(a), title, artists: [main!, guest!] };
}

/** A song in another script as a Latin-letter export lists it. */
function transliterated(a: MatchAnswer): SongEntry {
  const artists = a.artists.map((n, i) => a.latinArtists[i] ?? n);
  return { ...plain(a), title: a.latinTitle ?? a.title, artists: artists.slice(0, 1) };
}

const NONSENSE = "zorvex quillan murrow tessaly brandeth ovolin skarn peverel".split(" ");

function absent(r: Rng): SongEntry {
  const word = () => r.pick(NONSENSE);
  const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);
  return {
    title: `${cap(word())} ${cap(word())}`,
    artists: [`The ${cap(word())}s`],
    album: null,
    durationSeconds: r.int(150, 300),
    isrc: null,
    explicit: null,
    videoId: null,
  };
}

/** `count` entries: originals (half of them songs with look-alikes), versions, features, scripts, covers, absent ones. */
export function benchEntries(r: Rng, answers: readonly MatchAnswer[], count: number): BenchEntry[] {
  const hasVariants = new Set(answers.map((a) => a.variantOf).filter((v): v is string => v !== null));
  const originals = answers.filter((a) => a.original && a.lookalike === null);
  const hard = originals.filter((a) => hasVariants.has(a.videoId));
  const versions = answers.filter((a) => a.lookalike === "version");
  const covers = answers.filter((a) => a.lookalike === "cover");
  const feats = answers.filter((a) => a.artists.length > 1);
  const scripts = answers.filter((a) => a.latinTitle !== null);
  const out: BenchEntry[] = [];
  for (let i = 0; i < count; i++) {
    const k = r.next();
    const take = (list: readonly MatchAnswer[], kind: string, make: (a: MatchAnswer) => SongEntry) => {
      const a = r.pick(list);
      out.push({ entry: disturb(r, make(a), a), answer: a.videoId, kind });
    };
    if (k < 0.3 && hard.length) take(hard, "original with look-alikes", plain);
    else if (k < 0.55) take(originals, "original", plain);
    else if (k < 0.65 && versions.length) take(versions, "a version (live, remix…)", plain);
    else if (k < 0.72 && covers.length) take(covers, "a cover", plain);
    else if (k < 0.8 && feats.length) take(feats, "featured artist", (a) => featured(r, a));
    else if (k < 0.9 && scripts.length) take(scripts, "transliterated title", transliterated);
    else out.push({ entry: absent(r), answer: null, kind: "not in the catalogue" });
  }
  return out;
}
