/**
 * Display strings that clients' parsers compare, in the page's display language (`hl`): carousel
 * titles of artist and channel pages and the top-result card's type word. The words come from the
 * shared wire-constant table (src/transport/display-strings.ts); English keeps the service's own
 * capitalisation, other languages capitalise the table's first letter.
 */
import {
  type ArtistCategory,
  displayStringsOf,
  type ResultTypeWord,
} from "../../src/transport/display-strings.js";

const ENGLISH_TITLES: Readonly<Record<ArtistCategory, string>> = {
  albums: "Albums",
  singles: "Singles & EPs",
  shows: "Audiobooks and shows",
  videos: "Videos",
  playlists: "Playlists",
  related: "Fans might also like",
  episodes: "Latest episodes",
  podcasts: "Podcasts",
};

function capitalise(word: string, language: string): string {
  const first = word.charAt(0);
  return (language === "tr" ? first.toLocaleUpperCase("tr") : first.toUpperCase()) + word.slice(1);
}

/** The title of an artist / channel carousel of `category`. */
export function categoryTitle(category: ArtistCategory, language: string): string {
  const titles = displayStringsOf(language).categories[category];
  if (language === "en" || displayStringsOf(language) === displayStringsOf("en"))
    return ENGLISH_TITLES[category];
  return capitalise(typeof titles === "string" ? titles : (titles[0] as string), language);
}

/** The type word a top-result card (and a typed search row) starts its subtitle with. */
export function typeWord(type: ResultTypeWord, language: string): string {
  return capitalise(displayStringsOf(language).types[type], language);
}
