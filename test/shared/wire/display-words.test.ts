/**
 * The service's display words (shared/wire/display-words.ts) and recent dates
 * (shared/wire/relative-dates.ts), checked against the real captures in ../shared/fixtures. The client
 * reads these tables and the emulator writes them, so only the captures can tell a wrong word:
 * every word is either found where the captures show it (case included) or listed below, with its
 * source, as one no capture shows — and the lists are checked too, so a new capture that shows a
 * listed word makes this test ask for it to be checked.
 */
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../../shared/wire/constants.js";
import {
  ARTIST_CATEGORIES,
  type ArtistCategory,
  DISPLAY_STRINGS,
  RESULT_TYPE_WORDS,
  type ResultTypeWord,
} from "../../../shared/wire/display-words.js";
import {
  DATE_UNITS,
  type DateUnit,
  RELATIVE_DATES,
  relativeDateText,
} from "../../../shared/wire/relative-dates.js";
import {
  capturesPresent,
  carouselTitles,
  episodeDates,
  historyShelfTitles,
  type Sightings,
  searchTypeWords,
} from "../../support/capture-words.js";

if (!capturesPresent)
  console.warn("display-words tests skipped: ../shared/fixtures is not beside the repository");

/** English words no capture shows where the parsers read them, and where they come from instead. */
const ENGLISH_NOT_IN_CAPTURES: {
  categories: Partial<Record<ArtistCategory, string>>;
  types: Partial<Record<ResultTypeWord, string>>;
} = {
  categories: {
    shows: "docs/PROTOCOL.md#display-words, carousel titles: `audiobooks and shows` (key `shows`)",
  },
  types: {
    // yt_get_history_20240713 shows `Station` on history rows, which is not a search result.
    station: "docs/PROTOCOL.md#display-words, top-result card types: `station`",
  },
};

/** Languages no capture is in: all their words come from ytmusicapi's locale files, not from a capture. */
const LANGUAGES_NOT_IN_CAPTURES = {
  languages: [
    "ar",
    "cs",
    "de",
    "es",
    "fr",
    "hi",
    "it",
    "ja",
    "ko",
    "nl",
    "pt",
    "ru",
    "tr",
    "ur",
    "zh_CN",
    "zh_TW",
  ],
  source:
    "docs/PROTOCOL.md#display-words: localized rows take other languages from ytmusicapi's locale files (2024-03 catalogue)",
};

const wordsOf = (w: string | readonly string[]): readonly string[] => (typeof w === "string" ? [w] : w);

/** Case-folded, for telling whether a translated word is just the English one. */
const fold = (w: string) => w.toLowerCase();

function expectShown(word: string, seen: Sightings, place: string): void {
  expect(seen.has(word), `"${word}" as ${place} in no capture (seen: ${[...seen.keys()].join(" | ")})`).toBe(
    true,
  );
}

// docs/PROTOCOL.md#display-words
describe.skipIf(!capturesPresent)("the display words are the captures' words", () => {
  const english = DISPLAY_STRINGS.en!;

  it("every English carousel title is a capture's carousel title, case included", () => {
    const titles = carouselTitles();
    for (const category of ARTIST_CATEGORIES) {
      if (ENGLISH_NOT_IN_CAPTURES.categories[category]) continue;
      for (const word of wordsOf(english.categories[category])) expectShown(word, titles, "a carousel title");
    }
  });

  it("every English type word is a capture's search-result type word, case included", () => {
    const words = searchTypeWords();
    for (const type of RESULT_TYPE_WORDS) {
      if (ENGLISH_NOT_IN_CAPTURES.types[type]) continue;
      expectShown(english.types[type], words, "a search result's type word");
    }
  });

  it("the English words listed as shown by no capture are indeed shown by none", () => {
    const titles = carouselTitles();
    const words = searchTypeWords();
    for (const category of Object.keys(ENGLISH_NOT_IN_CAPTURES.categories) as ArtistCategory[]) {
      for (const word of wordsOf(english.categories[category])) expect(titles.has(word), word).toBe(false);
    }
    for (const type of Object.keys(ENGLISH_NOT_IN_CAPTURES.types) as ResultTypeWord[]) {
      expect(words.has(english.types[type]), type).toBe(false);
    }
  });

  it("every other language is listed with its source, and no capture shows its own words", () => {
    expect(Object.keys(DISPLAY_STRINGS).filter((l) => l !== "en")).toEqual(
      LANGUAGES_NOT_IN_CAPTURES.languages,
    );
    expect(LANGUAGES.filter((l) => l !== "en")).toEqual(LANGUAGES_NOT_IN_CAPTURES.languages);
    expect(LANGUAGES_NOT_IN_CAPTURES.source).toMatch(/PROTOCOL\.md/);
    // A capture in one of these languages would show its words; then they must be checked above.
    const titles = new Set([...carouselTitles().keys()].map(fold));
    const words = new Set([...searchTypeWords().keys()].map(fold));
    for (const language of LANGUAGES_NOT_IN_CAPTURES.languages) {
      const table = DISPLAY_STRINGS[language]!;
      for (const category of ARTIST_CATEGORIES) {
        const own = wordsOf(table.categories[category]).filter(
          (w) => fold(w) !== fold(String(english.categories[category])),
        );
        for (const word of own) expect(titles.has(fold(word)), `${language} ${word}`).toBe(false);
      }
      for (const type of RESULT_TYPE_WORDS) {
        const word = table.types[type];
        if (fold(word) !== fold(english.types[type]))
          expect(words.has(fold(word)), `${language} ${word}`).toBe(false);
      }
    }
  });
});

/** English dates the captures show: the unit and number of each, and the capture's own text. */
const ENGLISH_DATES_SHOWN: { unit: DateUnit; n: number; capture: string }[] = [
  { unit: "day", n: 1, capture: "yt_get_podcast_20240830" }, // "1 day ago": the `one` form
  { unit: "day", n: 3, capture: "yt_get_new_episodes_20240830" }, // "3 days ago": the `other` form
];

/** Date texts of the captures that the table does not write, and why it need not. */
const DATES_NOT_IN_TABLE: Record<string, string> = {
  "2d ago":
    "ytm_2025_11_get_explore's episode carousel abbreviates; episode lists and podcast pages write `1 day ago`",
  "3d ago": "as `2d ago`; engine/pipeline/dates.ts reads the short form too",
};

// docs/PROTOCOL.md#display-words: relative dates, shared the same way
describe.skipIf(!capturesPresent)("the relative dates are the captures' dates", () => {
  it("the English day forms are the ones the episode captures show", () => {
    const dates = episodeDates();
    for (const { unit, n, capture } of ENGLISH_DATES_SHOWN) {
      const text = relativeDateText("en", unit, n);
      expectShown(text, dates, "an episode date");
      expect(dates.get(text)).toContain(capture);
    }
  });

  it("Today and Yesterday are the history capture's shelf titles", () => {
    const shelves = historyShelfTitles();
    expectShown(RELATIVE_DATES.en!.today, shelves, "a history shelf");
    expectShown(RELATIVE_DATES.en!.yesterday, shelves, "a history shelf");
  });

  it("every relative date of the captures is the table's, or listed with the reason it is not", () => {
    const written = new Set<string>();
    for (const unit of DATE_UNITS) for (let n = 1; n <= 60; n++) written.add(relativeDateText("en", unit, n));
    const relative = [...episodeDates().keys()].filter((t) => /\bago$/.test(t));
    expect(relative.length).toBeGreaterThan(0);
    for (const text of relative) expect(written.has(text) || text in DATES_NOT_IN_TABLE, text).toBe(true);
  });

  it("the forms no capture shows are other units and other languages, from CLDR", () => {
    // Written from CLDR's relative-time patterns (Intl.RelativeTimeFormat's text); the captures are
    // all English and show only days. The table covers the same languages as the display words.
    const shownUnits = new Set(ENGLISH_DATES_SHOWN.map((d) => d.unit));
    expect([...shownUnits]).toEqual(["day"]);
    expect(Object.keys(RELATIVE_DATES).filter((l) => l !== "en")).toEqual(
      LANGUAGES_NOT_IN_CAPTURES.languages,
    );
  });
});
