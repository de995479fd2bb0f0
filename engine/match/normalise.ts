/**
 * Text folded to what two services agree on: case, accents, punctuation and script are dropped, so
 * "Beyoncé", "BEYONCE" and "beyonce!" compare equal. Pure.
 */
import { toLatin } from "./transliterate.js";

// Letters NFKD leaves whole although people write them without the stroke or ligature.
const LETTERS: Record<string, string> = {
  ø: "o",
  æ: "ae",
  œ: "oe",
  ß: "ss",
  đ: "d",
  ł: "l",
  ı: "i",
  þ: "th",
};

/** Lower-case Latin words separated by single spaces; apostrophes join ("don't" → "dont"). */
export function fold(text: string): string {
  return toLatin(text.normalize("NFKC"))
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[øæœßđłıþ]/g, (ch) => LETTERS[ch] ?? ch)
    .replace(/['’‘`´]/g, "")
    .replace(/&/g, " and ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Whether folding left only Latin letters and digits (kanji, Hangul, Greek… stay as they are). */
export function isReadable(folded: string): boolean {
  return /^[a-z0-9 ]*$/.test(folded);
}

/**
 * Every way of writing several artists in one name: "A & B", "A and B", "A, B", "A x B", "A feat. B",
 * "A with B", "A; B", "A / B", "A + B", "A vs. B". Both sides are split alike, so a duo's own name
 * ("Simon & Garfunkel") still compares equal to itself.
 */
const ARTIST_SEPARATOR =
  /\s*(?:[&,;/+]|\bfeat\b\.?|\bft\b\.?|\bfeaturing\b|\bwith\b|\band\b|\bvs\b\.?|\s[x×]\s)\s*/i;

/** The names as written, one per artist, in the order given. */
export function splitArtistNames(names: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    for (const part of name.normalize("NFKC").split(ARTIST_SEPARATOR)) {
      const trimmed = part.trim();
      if (trimmed !== "" && !out.includes(trimmed)) out.push(trimmed);
    }
  }
  return out;
}

/**
 * One artist name folded for comparison. A channel's "Adele - Topic" and "AdeleVEVO" are the artist's
 * own uploads, and a leading "The" comes and goes between services.
 */
export function foldArtist(name: string): string {
  return fold(name.replace(/\s+-\s+topic\s*$/i, "").replace(/vevo\s*$/i, ""))
    .replace(/^the /, "")
    .trim();
}

/** Split and folded, without repeats or empty names. */
export function foldArtists(names: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of splitArtistNames(names)) {
    const folded = foldArtist(name);
    if (folded !== "" && !out.includes(folded)) out.push(folded);
  }
  return out;
}
