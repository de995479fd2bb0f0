/**
 * Cyrillic, Japanese kana and Arabic → Latin letters, so that "Звезда" meets "Zvezda" and
 * "よるにかける" meets "Yoru ni Kakeru". Approximate on purpose: the result is only ever compared
 * with what a person typed, never shown as a spelling. Kanji (and any script without a table here)
 * pass through unchanged: they cannot be read without a dictionary.
 */

// biome-ignore format: a table reads best in rows
const CYRILLIC: Record<string, string> = {
  а: "a", б: "b", в: "v", г: "g", д: "d", е: "e", ё: "yo", ж: "zh", з: "z", и: "i", й: "y",
  к: "k", л: "l", м: "m", н: "n", о: "o", п: "p", р: "r", с: "s", т: "t", у: "u", ф: "f",
  х: "kh", ц: "ts", ч: "ch", ш: "sh", щ: "shch", ъ: "", ы: "y", ь: "", э: "e", ю: "yu", я: "ya",
  // Ukrainian, Belarusian and Serbian letters that the Russian table lacks.
  і: "i", ї: "yi", є: "ye", ґ: "g", ў: "u", ј: "j", љ: "lj", њ: "nj", ћ: "c", ђ: "dj", џ: "dz",
};

// Arabic script writes no short vowels, so the Latin side is compared by its consonants too
// (see similarity.ts); the long vowels here are only a best guess.
// biome-ignore format: a table reads best in rows
const ARABIC: Record<string, string> = {
  ا: "a", أ: "a", إ: "i", آ: "a", ٱ: "a", ء: "", ب: "b", ت: "t", ث: "th", ج: "j", ح: "h",
  خ: "kh", د: "d", ذ: "dh", ر: "r", ز: "z", س: "s", ش: "sh", ص: "s", ض: "d", ط: "t", ظ: "z",
  ع: "", غ: "gh", ف: "f", ق: "q", ك: "k", ل: "l", م: "m", ن: "n", ه: "h", ة: "a", و: "w",
  ؤ: "w", ي: "y", ى: "a", ئ: "y", ـ: "",
  // Persian and Urdu additions.
  پ: "p", چ: "ch", ژ: "zh", گ: "g", ک: "k", ی: "y",
};

// Hiragana in gojūon order; katakana are mapped onto these by code point first.
// biome-ignore format: a table reads best in rows
const KANA: Record<string, string> = {
  あ: "a", い: "i", う: "u", え: "e", お: "o",
  か: "ka", き: "ki", く: "ku", け: "ke", こ: "ko", が: "ga", ぎ: "gi", ぐ: "gu", げ: "ge", ご: "go",
  さ: "sa", し: "shi", す: "su", せ: "se", そ: "so", ざ: "za", じ: "ji", ず: "zu", ぜ: "ze", ぞ: "zo",
  た: "ta", ち: "chi", つ: "tsu", て: "te", と: "to", だ: "da", ぢ: "ji", づ: "zu", で: "de", ど: "do",
  な: "na", に: "ni", ぬ: "nu", ね: "ne", の: "no",
  は: "ha", ひ: "hi", ふ: "fu", へ: "he", ほ: "ho", ば: "ba", び: "bi", ぶ: "bu", べ: "be", ぼ: "bo",
  ぱ: "pa", ぴ: "pi", ぷ: "pu", ぺ: "pe", ぽ: "po",
  ま: "ma", み: "mi", む: "mu", め: "me", も: "mo", や: "ya", ゆ: "yu", よ: "yo",
  ら: "ra", り: "ri", る: "ru", れ: "re", ろ: "ro", わ: "wa", ゐ: "i", ゑ: "e", を: "o", ん: "n",
  ゔ: "vu", ゕ: "ka", ゖ: "ke",
};

/** Small kana that change the syllable before them rather than standing alone. */
const SMALL_Y: Record<string, string> = { ゃ: "a", ゅ: "u", ょ: "o" };
const SMALL_VOWEL: Record<string, string> = { ぁ: "a", ぃ: "i", ぅ: "u", ぇ: "e", ぉ: "o", ゎ: "a" };
const SOKUON = "っ";
const LONG_MARK = "ー";

function toHiragana(ch: string): string {
  const code = ch.codePointAt(0)!;
  return code >= 0x30a1 && code <= 0x30f6 ? String.fromCodePoint(code - 0x60) : ch;
}

/** Folds a small kana into the syllable written before it: き+ゃ → kya, し+ゃ → sha, フ+ァ → fa. */
function joinSmall(previous: string, ch: string): string | null {
  const y = SMALL_Y[ch];
  if (y !== undefined && previous.endsWith("i") && previous.length > 1) {
    const stem = previous.slice(0, -1);
    return /(sh|ch|j)$/.test(stem) ? stem + y : `${stem}y${y}`;
  }
  const vowel = SMALL_VOWEL[ch];
  if (vowel !== undefined && previous.length > 1) return previous.replace(/[aeiou]$/, "") + vowel;
  return null;
}

/** Kana run → Hepburn; the sokuon doubles the next consonant and the long mark is dropped. */
function kanaToLatin(text: string): string {
  const out: string[] = [];
  let doubleNext = false;
  for (const raw of text) {
    const ch = toHiragana(raw);
    if (ch === SOKUON) {
      doubleNext = true;
      continue;
    }
    if (ch === LONG_MARK) continue;
    const joined = out.length > 0 ? joinSmall(out[out.length - 1]!, ch) : null;
    if (joined !== null) {
      out[out.length - 1] = joined;
      continue;
    }
    let syllable = KANA[ch] ?? SMALL_Y[ch] ?? SMALL_VOWEL[ch] ?? (ch === "・" ? " " : ch);
    if (doubleNext && /^[a-z]/.test(syllable))
      syllable = syllable.startsWith("ch") ? `t${syllable}` : syllable[0] + syllable;
    doubleNext = false;
    out.push(syllable);
  }
  return out.join("");
}

const KANA_RUN = /[\u3041-\u309f\u30a0-\u30ff]+/gu;
const ARABIC_DIGIT = /[\u0660-\u0669\u06f0-\u06f9]/gu;

/** Text with Cyrillic, kana and Arabic letters replaced by Latin ones; everything else unchanged. */
export function toLatin(text: string): string {
  return text
    .replace(KANA_RUN, kanaToLatin)
    .replace(ARABIC_DIGIT, (d) => String(d.codePointAt(0)! & 0xf))
    .replace(/[\u0400-\u04ff\u0600-\u06ff]/gu, (ch) => {
      const lower = ch.toLowerCase();
      return CYRILLIC[lower] ?? ARABIC[ch] ?? ch;
    });
}

/** Whether the text holds Arabic letters, whose Latin spellings add vowels the script leaves out. */
export function hasArabic(text: string): boolean {
  return /\p{Script=Arabic}/u.test(text);
}
