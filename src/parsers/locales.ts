/**
 * What the parsers look up in the service's display strings (the table lives in
 * shared/wire/display-words.ts, a wire constant shared with the emulator): displayed text → the category or
 * result type it names, per display language. Comparisons are case-insensitive: both sides are
 * lower-cased with `foldCase`.
 */
import {
  ARTIST_CATEGORIES,
  type ArtistCategory,
  DISPLAY_STRINGS,
  type DisplayStrings,
  displayStringsOf,
  RESULT_TYPE_WORDS,
  type ResultTypeWord,
} from "../../shared/wire/display-words.js";

export { ARTIST_CATEGORIES, type ArtistCategory, RESULT_TYPE_WORDS, type ResultTypeWord };

/**
 * Displayed text lower-cased by the rules of its language: Turkish pairs dotted `İ` with `i` and
 * `I` with dotless `ı`, where the default rules would turn `İlişkili` into `i̇lişkili` (an `i`
 * with a combining dot) and miss the table's word.
 */
export function foldCase(text: string, language: string): string {
  return language === "tr" ? text.toLocaleLowerCase("tr") : text.toLowerCase();
}

/** What the parsers look up, lower-cased: displayed text → what it names. */
export interface Locale {
  readonly categoryOfTitle: ReadonlyMap<string, ArtistCategory>;
  readonly typeOfWord: ReadonlyMap<string, ResultTypeWord>;
}

function buildLocale(language: string, strings: DisplayStrings): Locale {
  const categoryOfTitle = new Map<string, ArtistCategory>();
  for (const category of ARTIST_CATEGORIES) {
    const titles = strings.categories[category];
    for (const title of typeof titles === "string" ? [titles] : titles) {
      categoryOfTitle.set(foldCase(title, language), category);
    }
  }
  const typeOfWord = new Map<string, ResultTypeWord>();
  for (const type of RESULT_TYPE_WORDS) typeOfWord.set(foldCase(strings.types[type], language), type);
  return { categoryOfTitle, typeOfWord };
}

/** Each language's lookups, built by its first page read: nothing is computed at import. */
const locales = new Map<string, Locale>();

/** The display strings of `language`; English for a language without a table (the client refuses those). */
export function localeOf(language: string): Locale {
  const known = Object.hasOwn(DISPLAY_STRINGS, language) ? language : "en";
  let locale = locales.get(known);
  if (!locale) {
    locale = buildLocale(known, displayStringsOf(known));
    locales.set(known, locale);
  }
  return locale;
}

/** The languages with a table (the tests check that every supported language has one). */
export function localeLanguages(): string[] {
  return Object.keys(DISPLAY_STRINGS);
}
