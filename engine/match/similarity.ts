/** How alike two folded texts are, in [0, 1]. Pure. */

function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + 2 <= text.length; i++) {
    const pair = text.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

/** Sørensen–Dice over character pairs: tolerant of one spelling slip, harsh on other words. */
export function diceBigrams(a: string, b: string): number {
  const x = bigrams(a);
  const y = bigrams(b);
  const total = a.length - 1 + (b.length - 1);
  if (total <= 0) return a === b ? 1 : 0;
  let shared = 0;
  for (const [pair, n] of x) shared += Math.min(n, y.get(pair) ?? 0);
  return (2 * shared) / total;
}

/** Sørensen–Dice over distinct words: word order does not matter. */
export function diceWords(a: string, b: string): number {
  const x = new Set(a.split(" ").filter(Boolean));
  const y = new Set(b.split(" ").filter(Boolean));
  if (x.size + y.size === 0) return 0;
  let shared = 0;
  for (const word of x) if (y.has(word)) shared++;
  return (2 * shared) / (x.size + y.size);
}

/**
 * Consonants only, as Arabic script writes a word: short vowels are unwritten ("habibi" is "hbyby"),
 * a doubled consonant is written once, a final ة is read "a", "at" or "ah" by turns, and ق is
 * often not spoken in Egyptian and Levantine chat spelling ("alb" for قلب).
 */
function skeleton(text: string): string {
  return text
    .split(" ")
    .map((word) => word.replace(/[aeiouywq]/g, "").replace(/(?<=.)[th]$/, ""))
    .join("")
    .replace(/(.)\1+/g, "$1");
}

/**
 * 1 when the texts are the same without spaces (kana run words together: "yorunikakeru"), else the
 * better of word and character Dice. With `consonantsToo` a match of consonant skeletons counts
 * nearly as much, for text transliterated from Arabic.
 */
export function textSimilarity(a: string, b: string, consonantsToo = false): number {
  if (a === "" || b === "") return 0;
  const x = a.replace(/ /g, "");
  const y = b.replace(/ /g, "");
  if (x === y) return 1;
  const sim = Math.max(diceWords(a, b), diceBigrams(x, y));
  if (!consonantsToo) return sim;
  const [sx, sy] = [skeleton(a), skeleton(b)];
  return Math.max(sim, sx !== "" && sx === sy ? 0.95 : 0.9 * diceBigrams(sx, sy));
}
