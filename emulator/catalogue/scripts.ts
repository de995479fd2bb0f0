/**
 * Titles and names in Japanese kana, Cyrillic and Arabic, each with the Latin spelling people use
 * for it on other services (romaji, a common Russian transliteration, Arabic chat spelling). A
 * matcher given the Latin form must still find the song: the search text carries both.
 */
import type { Rng } from "../random.js";

/** A text in its own script and as it is written in Latin letters. */
export interface Written {
  native: string;
  latin: string;
}

export type Script = "japanese" | "cyrillic" | "arabic";
export const SCRIPTS: readonly Script[] = ["japanese", "cyrillic", "arabic"];

/** Native word and its Latin spelling, `|`-separated pairs. */
const pairs = (list: string): Written[] =>
  list.split(" ").map((p) => {
    const [native, latin] = p.split("|");
    return { native: native!, latin: latin!.replace(/_/g, " ") };
  });

const WORDS: Record<Script, Written[]> = {
  japanese: pairs(
    "さくら|sakura なみだ|namida よる|yoru ひかり|hikari そら|sora ゆめ|yume はな|hana かぜ|kaze " +
      "ほし|hoshi あめ|ame うみ|umi こころ|kokoro まち|machi つき|tsuki なつ|natsu ふゆ|fuyu " +
      "あした|ashita きみ|kimi ネオン|neon メロディー|merodii シグナル|shigunaru",
  ),
  cyrillic: pairs(
    "ночь|noch город|gorod звезда|zvezda река|reka ветер|veter сердце|serdtse небо|nebo " +
      "лето|leto зима|zima дорога|doroga море|more огонь|ogon свет|svet весна|vesna тишина|tishina",
  ),
  arabic: pairs(
    "ليل|layl قمر|qamar بحر|bahr حب|hob نجمة|najma سماء|sama طريق|tariq قلب|alb مدينة|madina " +
      "نور|nour حلم|helm",
  ),
};

const NAMES: Record<Script, Written[]> = {
  japanese: pairs("ミドリ|Midori アオイ|Aoi ハルカ|Haruka ユウキ|Yuuki ソラノオト|Sora_no_Oto ヨアケ|Yoake"),
  cyrillic: pairs(
    "Анна_Петрова|Anna_Petrova Иван_Соколов|Ivan_Sokolov Мария_Волкова|Mariya_Volkova " +
      "Группа_Север|Gruppa_Sever Лёша_Морозов|Lyosha_Morozov",
  ).map((n) => ({ native: n.native.replace(/_/g, " "), latin: n.latin })),
  arabic: pairs(
    "نور_الهدى|Nour_El_Houda عمر_خالد|Omar_Khaled ليلى_حسن|Layla_Hassan فرقة_الشمس|Firqat_Al_Shams",
  ).map((n) => ({ native: n.native.replace(/_/g, " "), latin: n.latin })),
};

/** Each word's first letter upper case (scripts without case stay as they are). */
const capitalise = (s: string) =>
  s.replace(/(^|\s)(\p{Ll})/gu, (_, a: string, b: string) => a + b.toUpperCase());

/**
 * A title of one or two words: kana joined by の ("よるのそら", "Yoru no Sora"), Russian by и
 * ("Ночь и город", "Noch i gorod"), Arabic as a call (يا قمر, "Ya Qamar") or by و.
 */
export function scriptTitle(r: Rng, script: Script): Written {
  const a = r.pick(WORDS[script]);
  if (r.chance(0.4)) return { native: capitalise(a.native), latin: capitalise(a.latin) };
  const b = r.pick(WORDS[script].filter((w) => w !== a));
  switch (script) {
    case "japanese":
      return { native: `${a.native}の${b.native}`, latin: capitalise(`${a.latin} no ${b.latin}`) };
    case "cyrillic":
      return {
        native: `${capitalise(a.native)} и ${b.native}`,
        latin: `${capitalise(a.latin)} i ${b.latin}`,
      };
    case "arabic":
      return r.chance(0.5)
        ? { native: `يا ${a.native}`, latin: `Ya ${capitalise(a.latin)}` }
        : { native: `${a.native} و ${b.native}`, latin: capitalise(`${a.latin} wa ${b.latin}`) };
  }
}

/** An artist name of the script, the `n`-th of its list (names repeat with a number past it). */
export function scriptArtist(script: Script, n: number): Written {
  const list = NAMES[script];
  const name = list[n % list.length]!;
  const round = Math.floor(n / list.length);
  return round === 0 ? name : { native: `${name.native} ${round + 1}`, latin: `${name.latin} ${round + 1}` };
}
