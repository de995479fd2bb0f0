import { describe, expect, it } from "vitest";
import { fold, foldArtists } from "../../../engine/match/normalise.js";
import { textSimilarity } from "../../../engine/match/similarity.js";
import { parseTitle } from "../../../engine/match/title.js";
import { toLatin } from "../../../engine/match/transliterate.js";

describe("toLatin", () => {
  it.each([
    ["よるにかける", "yorunikakeru"],
    ["ヨルニカケル", "yorunikakeru"],
    ["きょう", "kyou"],
    ["しゃしん", "shashin"],
    ["がっこう", "gakkou"],
    ["マッチ", "matchi"],
    ["ファイナル", "fainaru"],
    ["ラーメン", "ramen"],
    ["Звезда", "Zvezda".toLowerCase()],
    ["Щелкунчик", "shchelkunchik"],
    ["Їжак", "yizhak"],
    ["نور", "nwr"],
    ["夜に", "夜ni"],
  ])("%s → %s", (text, latin) => {
    expect(toLatin(text)).toBe(latin);
  });
});

describe("fold", () => {
  it("drops case, accents, punctuation and joins apostrophes", () => {
    expect(fold("Beyoncé — Déjà Vu!")).toBe("beyonce deja vu");
    expect(fold("Don't Stop Me Now")).toBe("dont stop me now");
    expect(fold("Rock & Roll")).toBe("rock and roll");
    expect(fold("Ｆｕｌｌｗｉｄｔｈ ｶﾞﾝﾀﾞﾑ")).toBe("fullwidth gandamu");
    expect(fold("Røyksopp Ærø Straße")).toBe("royksopp aero strasse");
  });
});

describe("foldArtists", () => {
  it("splits every joining form and folds each name once", () => {
    expect(foldArtists(["Calvin Harris, Dua Lipa & Young Thug", "Dua Lipa"])).toEqual([
      "calvin harris",
      "dua lipa",
      "young thug",
    ]);
    expect(foldArtists(["Shawn Mendes x Camila Cabello"])).toEqual(["shawn mendes", "camila cabello"]);
    expect(foldArtists(["AdeleVEVO", "Adele - Topic", "The Killers"])).toEqual(["adele", "killers"]);
    expect(foldArtists(["Malcolm X"])).toEqual(["malcolm x"]);
  });
});

describe("parseTitle", () => {
  it("separates the core, featured artists, markers and aliases", () => {
    const t = parseTitle("Get Lucky (feat. Pharrell Williams) [Official Video] - Radio Edit", false);
    expect(t).toMatchObject({
      coreRaw: "Get Lucky",
      core: "get lucky",
      featured: ["Pharrell Williams"],
      aliases: [],
    });
    expect([...t.markers]).toEqual(["radio edit"]);
    expect(parseTitle("夜に駆ける (Yoru ni Kakeru)", false).aliases).toEqual(["yoru ni kakeru"]);
  });

  it("reads marker words in a title only where no song title uses them", () => {
    expect([...parseTitle("Live Forever", false).markers]).toEqual([]);
    expect([...parseTitle("Live Forever (Live at Knebworth)", false).markers]).toEqual(["live"]);
    expect([...parseTitle("blinding lights sped up", false).markers]).toEqual(["sped up"]);
    expect([...parseTitle("Levels (Original Mix)", false).markers]).toEqual([]);
    expect([...parseTitle("Levels (Skrillex Remix)", false).markers]).toEqual(["remix"]);
  });

  it("takes a video's title from 'Artist - Title', unless the second half is a note", () => {
    expect(parseTitle("Adele - Hello (Official Music Video)", true)).toMatchObject({
      core: "hello",
      named: ["Adele", "Hello"],
    });
    const live = parseTitle("Hello - Live at the NRJ Awards", true);
    expect(live.core).toBe("hello");
    expect([...live.markers]).toEqual(["live"]);
    expect(parseTitle("Adele - Hello", false).core).toBe("adele");
  });
});

describe("textSimilarity", () => {
  const arabic = (native: string, latin: string) => textSimilarity(fold(native), fold(latin), true);

  it("compares Arabic script with its chat spellings by consonants", () => {
    expect(arabic("ليلى حسن", "Layla Hassan")).toBeGreaterThanOrEqual(0.85);
    expect(arabic("فرقة الشمس", "Firqat Al Shams")).toBeGreaterThanOrEqual(0.85);
    expect(arabic("قلب", "Alb")).toBeGreaterThanOrEqual(0.85);
    expect(arabic("قمر", "Layl")).toBeLessThan(0.5);
    expect(textSimilarity(fold("قمر"), fold("Qamar"))).toBeLessThan(0.85);
  });

  it("equates kana run together with romaji written in words", () => {
    expect(textSimilarity(fold("ソラノオト"), fold("Sora no Oto"))).toBe(1);
    expect(textSimilarity(fold("メロディー"), fold("Merodii"))).toBeGreaterThanOrEqual(0.85);
    expect(textSimilarity("hello", "goodbye")).toBeLessThan(0.3);
  });
});
