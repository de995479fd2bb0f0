/**
 * Songs and videos search, as the service's behaves for a matcher: every token of the query must
 * be in the song's search text, in any order, and results come by popularity, with a modest bonus
 * for a song whose title is what the query names. The bonus puts the exact title near the top, not
 * always first: a live take or karaoke upload with a few times its views still comes above it.
 */
import type { Statement } from "better-sqlite3";
import { Memo } from "../memo.js";
import type { Db } from "./db.js";
import { SEARCH_VIDEOS_FROM } from "./search-kinds.js";
import { namesTitle, searchTokens } from "./search-text.js";

/** How many times its views a song whose title the query names counts for. */
export const TITLE_BONUS = 3;

/** What ranking reads of a matching song, beside its video id. */
interface Match {
  v: string;
  title: string;
  latinTitle: string | null;
  views: number;
  /** The song's row id, to read its artists' names when the title is short enough to weigh. */
  id: number;
}

/**
 * How many of the most viewed matches the bonus applies to: it reorders the head of the list, as
 * a search engine re-ranks its first candidates, so a common word does not read every song that
 * holds it. Fixed, so that every page of a query ranks the same list.
 */
const BONUS_WINDOW = 40;

export class SongSearch {
  /** Per number of tokens, the statement that requires each of them. */
  private readonly statements = new Map<number, Statement>();

  /** Per song, its title's and artists' tokens (the catalogue does not change). */
  private readonly tokensOf = new Memo<string, SongTokens>(100_000);

  private artistsStatement?: Statement;

  /** Per song id, what ranking reads of it: the full-text scan then returns ids alone. */
  private readonly matchOf = new Memo<number, Match>(200_000);

  private matchStatement?: Statement;

  private match(id: number): Match {
    this.matchStatement ??= this.db.$client.prepare(
      "SELECT video_id AS v, title, latin_title AS latinTitle, views, id FROM songs WHERE id = ?",
    );
    return this.matchOf.get(id, () => this.matchStatement!.get(id) as Match);
  }

  constructor(private readonly db: Db) {}

  /** A song's artist and featured artist, names and Latin spellings, as one text. */
  private artistNames(id: number): string {
    this.artistsStatement ??= this.db.$client.prepare(
      `SELECT a.name || ' ' || coalesce(a.latin_name, '') || ' ' || coalesce(b.name, '') || ' ' ||
         coalesce(b.latin_name, '') AS names
       FROM songs s JOIN artists a ON a.id = s.artist_id LEFT JOIN artists b ON b.id = s.featured_artist_id
       WHERE s.id = ?`,
    );
    return (this.artistsStatement.get(id) as { names: string }).names;
  }

  /**
   * Whether the query names the song's title (or its Latin spelling): a title longer than the
   * query (`folded`, its tokens joined) cannot be one, which spares folding most titles.
   */
  private named(tokens: readonly string[], folded: string, m: Match): boolean {
    const short = (title: string | null) => title !== null && title.length <= folded.length + 8;
    if (!short(m.title) && !short(m.latinTitle)) return false;
    const t = this.tokensOf.get(m.v, () => ({
      titles: [m.title, m.latinTitle].filter((x): x is string => x !== null).map(searchTokens),
      artists: new Set(searchTokens(this.artistNames(m.id))),
    }));
    return t.titles.some((title) => namesTitle(tokens, title, t.artists));
  }

  /**
   * The matches ranked from `offset`. `songs_by_views` holds songs then videos, each in order of
   * views (migration 0004), so reading one kind's rowid range in order meets the most viewed
   * matches first; the bonus reorders the first `BONUS_WINDOW` of them, and reading stops once no
   * later row, bonus and all, could reach the page. The full-text table is not one drizzle
   * models: this query is written as SQL.
   */
  search<T>(
    kind: "songs" | "videos",
    query: string,
    offset: number,
    limit: number,
    rowOf: (videoId: string) => T | null,
  ): T[] {
    const tokens = searchTokens(query);
    if (tokens.length === 0 || limit <= 0) return [];
    const [from, to] =
      kind === "songs" ? [1, SEARCH_VIDEOS_FROM] : [SEARCH_VIDEOS_FROM + 1, 2 * SEARCH_VIDEOS_FROM];
    const need = offset + limit;
    const best: Candidate[] = [];
    const folded = tokens.join(" ");
    const likes = tokens.map((t) => `%${t}%`);
    const limitRows = Math.max(need, BONUS_WINDOW);
    const ids = this.statement(tokens.length).all(...likes, from, to, limitRows) as number[];
    for (let i = 0; i < ids.length; i++) {
      const m = this.match(ids[i]!);
      const bonus = i < BONUS_WINDOW ? TITLE_BONUS : 1;
      // Rows come in order of views: once even the bonus cannot lift one into the page, none can.
      if (best.length >= need && m.views * bonus <= best[need - 1]!.score) break;
      const score = bonus > 1 && this.named(tokens, folded, m) ? m.views * bonus : m.views;
      insertRanked(best, { v: m.v, score }, need);
    }
    const out: T[] = [];
    for (const c of best.slice(offset, need)) {
      const row = rowOf(c.v);
      if (row) out.push(row);
    }
    return out;
  }

  private statement(tokens: number): Statement {
    let s = this.statements.get(tokens);
    if (!s) {
      const likes = Array.from({ length: tokens }, () => "f.search_text LIKE ?").join(" AND ");
      // Ids alone: the full-text scan is the cost, and each song's fields come from `match`'s memo.
      s = this.db.$client
        .prepare(
          `SELECT f.song_id FROM songs_by_views f
         WHERE ${likes} AND f.rowid BETWEEN ? AND ? ORDER BY f.rowid LIMIT ?`,
        )
        .pluck();
      this.statements.set(tokens, s);
    }
    return s;
  }
}

interface SongTokens {
  titles: string[][];
  artists: Set<string>;
}

interface Candidate {
  v: string;
  score: number;
}

/**
 * Puts `c` into `best` (highest score first, at most `keep`); an equal score goes after those
 * already there, which came first in order of views.
 */
function insertRanked(best: Candidate[], c: Candidate, keep: number): void {
  let i = best.length;
  while (i > 0 && best[i - 1]!.score < c.score) i--;
  if (i >= keep) return;
  best.splice(i, 0, c);
  if (best.length > keep) best.pop();
}
