/** Titles and artist names drawn from the word lists. */
import type { Rng } from "../random.js";
import { ADJECTIVES, FIRST_NAMES, LAST_NAMES, NOUNS } from "../words.js";

/** `words` capitalised words, adjectives before nouns ("Golden River", "Quiet Stone Lantern"). */
export function title(r: Rng, words: number): string {
  const parts: string[] = [];
  for (let i = 0; i < words; i++) {
    const w = i % 2 === 0 && i < words - 1 ? r.pick(ADJECTIVES) : r.pick(NOUNS);
    parts.push(w[0]!.toUpperCase() + w.slice(1));
  }
  return parts.join(" ");
}

/** A band's plural: "Lights" stays, "City" becomes "Cities", others take an "s". */
function plural(words: string): string {
  if (words.endsWith("s")) return words;
  if (/[^aeiou]y$/.test(words)) return `${words.slice(0, -1)}ies`;
  return `${words}s`;
}

/** A band ("The Golden Rivers"), a person, a two-word name, or a person and band. */
export function artistName(r: Rng): string {
  const k = r.int(0, 3);
  if (k === 0) return `The ${plural(title(r, 2))}`;
  if (k === 1) return `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`;
  if (k === 2) return title(r, 2);
  return `${r.pick(FIRST_NAMES)} & The ${plural(title(r, 1))}`;
}
