/**
 * How song search reads text: folded to the letters and digits people type, split into tokens.
 * The generator writes new songs' search text in this form and the store folds each query the same
 * way, so a query matches whatever its spelling of punctuation, case and Latin accents.
 */

/**
 * Lower case, Latin accents dropped ("Beyoncé" → "beyonce"), and every run of anything but letters
 * and digits (- ' " ( ) [ ] , . & + …) one space. Marks on other scripts stay: a kana's dakuten or
 * a Cyrillic breve makes another letter there, not an accented one.
 */
export function foldSearchText(text: string): string {
  return text
    .normalize("NFD")
    .replace(/(\p{Script=Latin})\p{M}+/gu, "$1")
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, " ")
    .trim();
}

/** The query's tokens, each once, in the order typed. */
export function searchTokens(query: string): string[] {
  const folded = foldSearchText(query);
  return folded ? [...new Set(folded.split(" "))] : [];
}

/**
 * Whether a song's title is what the query names: every token of the title is in the query, and
 * the query's other tokens all belong to the artists ("artist title", "title artist", "title").
 * Title and artists come as their tokens (`searchTokens`).
 */
export function namesTitle(
  queryTokens: readonly string[],
  titleTokens: readonly string[],
  artistTokens: ReadonlySet<string>,
): boolean {
  if (titleTokens.length === 0 || !titleTokens.every((t) => queryTokens.includes(t))) return false;
  return queryTokens.every((t) => titleTokens.includes(t) || artistTokens.has(t));
}
