import { describe, expect, it } from "vitest";
import { entryKey, searchQuery } from "../../../engine/match/key.js";
import { entry } from "./candidates.js";

describe("entryKey", () => {
  it("is one readable key for case, accent, punctuation and feat. variants", () => {
    const forms = [
      entry("Hello (feat. Lionel Richie)", ["Adele"], 295),
      entry("HELLO!", ["Adèle feat. Lionel Richie"], 296),
      entry("hello", ["Lionel Richie", "ADELE"], null, { album: "25" }),
      entry("Hello [ft. Lionel Richie]", ["Adele"]),
    ];
    expect(new Set(forms.map(entryKey))).toEqual(new Set(["adele & lionel richie - hello"]));
  });

  it("differs for another song, another artist and another version", () => {
    const keys = [
      entry("Hello", ["Adele"]),
      entry("Hello", ["Lionel Richie"]),
      entry("Hello (Live)", ["Adele"]),
      entry("Hello - Acoustic", ["Adele"]),
      // Asking for the remaster may get it where the plain entry gets the plain one: not one answer.
      entry("Hello - Remastered 2015", ["Adele"]),
      entry("Hello, Goodbye", ["Adele"]),
      entry("Hello", []),
    ].map(entryKey);
    expect(keys).toEqual([
      "adele - hello",
      "lionel richie - hello",
      "adele - hello (live)",
      "adele - hello (acoustic)",
      "adele - hello (remaster)",
      "adele - hello goodbye",
      "hello",
    ]);
  });

  it("writes other scripts in Latin letters where it can", () => {
    expect(entryKey(entry("Звезда по имени Солнце", ["Кино"]))).toBe("kino - zvezda po imeni solntse");
    expect(entryKey(entry("よるにかける", ["YOASOBI"]))).toBe(entryKey(entry("Yorunikakeru", ["yoasobi"])));
  });
});

describe("searchQuery", () => {
  it.each([
    ["Get Lucky (feat. Pharrell Williams) - Radio Edit", ["Daft Punk"], "Get Lucky radio edit Daft Punk"],
    ["Let It Be - Remastered 2009", ["The Beatles"], "Let It Be The Beatles"],
    ["Hello (Live at the NRJ Awards)", ["Adele"], "Hello live Adele"],
    ["One Kiss", ["Calvin Harris & Dua Lipa"], "One Kiss Calvin Harris"],
    ["夜に駆ける (Yoru ni Kakeru)", ["YOASOBI"], "夜に駆ける YOASOBI"],
    ["Untitled", [], "Untitled"],
  ])("%s by %j → %s", (title, artists, query) => {
    expect(searchQuery(entry(title, artists))).toBe(query);
  });
});
