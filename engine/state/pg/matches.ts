/** The match cache of file sources on PostgreSQL. */
import { inArray, sql } from "drizzle-orm";
import { cachedMatchOf } from "../rows.js";
import type { CachedMatch, MatchStore } from "../types.js";
import type { PgDb } from "./common.js";
import { lastOfEach, slices } from "./query.js";
import * as schema from "./schema.js";

// A statement binds at most 65,535 parameters: 1,000 keys (or rows of 5 columns) stay well under.
const SLICE = 1000;

export class PgMatchStore implements MatchStore {
  constructor(private readonly db: PgDb) {}

  async cachedMatches(keys: readonly string[]): Promise<Map<string, CachedMatch>> {
    const t = schema.matchCache;
    const out = new Map<string, CachedMatch>();
    for (const slice of slices(keys, SLICE)) {
      for (const r of await this.db.select().from(t).where(inArray(t.entryKey, slice))) {
        out.set(r.entryKey, cachedMatchOf(r));
      }
    }
    return out;
  }

  async recordMatches(matches: readonly CachedMatch[]): Promise<void> {
    const rows = lastOfEach(matches, (m) => m.key).map((m) => ({
      entryKey: m.key,
      videoId: m.videoId,
      score: m.score,
      reasons: JSON.stringify(m.reasons),
      matchedAt: m.matchedAt,
    }));
    if (rows.length === 0) return;
    const t = schema.matchCache;
    // All or nothing, as on SQLite, whatever the number of statements.
    await this.db.transaction(async (tx) => {
      for (const slice of slices(rows, SLICE)) {
        await tx
          .insert(t)
          .values(slice)
          .onConflictDoUpdate({
            target: t.entryKey,
            set: {
              videoId: sql`excluded.video_id`,
              score: sql`excluded.score`,
              reasons: sql`excluded.reasons`,
              matchedAt: sql`excluded.matched_at`,
            },
          });
      }
    });
  }
}
