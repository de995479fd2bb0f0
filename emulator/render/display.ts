/**
 * Display strings that clients' parsers compare, in the page's display language (`hl`): carousel
 * titles of artist and channel pages and the type word of search results. The words come from the
 * wire-constant module shared/wire/display-words.ts, whose English words are the captures' own
 * (case included) and whose other languages are written lower-case, as ytmusicapi's locale files
 * keep them: the service starts a title with a capital, so the first letter is capitalised.
 */
import {
  type ArtistCategory,
  displayStringsOf,
  type ResultTypeWord,
} from "../../shared/wire/display-words.js";

function capitalise(word: string, language: string): string {
  const first = word.charAt(0);
  return (language === "tr" ? first.toLocaleUpperCase("tr") : first.toUpperCase()) + word.slice(1);
}

/** The title of an artist / channel carousel of `category`; the first word where a language has two. */
export function categoryTitle(category: ArtistCategory, language: string): string {
  const titles = displayStringsOf(language).categories[category];
  return capitalise(typeof titles === "string" ? titles : (titles[0] as string), language);
}

/** The type word a top-result card (and a typed search row) starts its subtitle with. */
export function typeWord(type: ResultTypeWord, language: string): string {
  return capitalise(displayStringsOf(language).types[type], language);
}
