/** The match cache of file sources on SQLite. */
import { inArray } from "drizzle-orm";
import { cachedMatchOf } from "../rows.js";
import * as schema from "../schema.js";
import type { CachedMatch, MatchStore } from "../types.js";
import type { Db } from "./common.js";

export class SqliteMatchStore implements MatchStore {
  constructor(private readonly db: Db) {}

  async cachedMatches(keys: readonly string[]): Promise<Map<string, CachedMatch>> {
    const out = new Map<string, CachedMatch>();
    // SQLite binds at most 32,766 values per statement: ask in slices.
    for (let i = 0; i < keys.length; i += 500) {
      const rows = this.db
        .select()
        .from(schema.matchCache)
        .where(inArray(schema.matchCache.entryKey, keys.slice(i, i + 500)))
        .all();
      for (const r of rows) {
        out.set(r.entryKey, cachedMatchOf(r));
      }
    }
    return out;
  }

  async recordMatches(matches: readonly CachedMatch[]): Promise<void> {
    this.db.transaction((tx) => {
      for (const m of matches) {
        const row = {
          videoId: m.videoId,
          score: m.score,
          reasons: JSON.stringify(m.reasons),
          matchedAt: m.matchedAt,
        };
        tx.insert(schema.matchCache)
          .values({ entryKey: m.key, ...row })
          .onConflictDoUpdate({ target: schema.matchCache.entryKey, set: row })
          .run();
      }
    });
  }
}
