/** The match cache of file sources. */

import { inArray, sql } from "drizzle-orm";
import { chunk } from "../../../shared/chunk.js";
import type { CachedMatch } from "../../match/cached-match.js";
import { inSlices, lastOfEach, type Stored } from "../dialect.js";
import type { Row } from "../tables.js";
import type { MatchStore } from "../types.js";

/** Keys (or rows of 5 columns) per statement. */
const SLICE = 1000;

const cachedMatchOf = (r: Row<"matchCache">): CachedMatch => ({
  key: r.entryKey,
  videoId: r.videoId,
  score: r.score,
  reasons: JSON.parse(r.reasons) as string[],
  matchedAt: r.matchedAt,
});

export const matchStore: MatchStore & ThisType<Stored> = {
  async cachedMatches(keys) {
    const { db, t } = this.d;
    const out = new Map<string, CachedMatch>();
    for (const slice of chunk(keys, SLICE)) {
      for (const r of await db.select().from(t.matchCache).where(inArray(t.matchCache.entryKey, slice))) {
        out.set(r.entryKey, cachedMatchOf(r));
      }
    }
    return out;
  },

  async recordMatches(matches) {
    const m = this.d.t.matchCache;
    const rows = lastOfEach(matches, (c) => c.key).map((c) => ({
      entryKey: c.key,
      videoId: c.videoId,
      score: c.score,
      reasons: JSON.stringify(c.reasons),
      matchedAt: c.matchedAt,
    }));
    // All or nothing, whatever the number of statements.
    await inSlices(this.d, rows, SLICE, (q, slice) =>
      q
        .insert(m)
        .values(slice)
        .onConflictDoUpdate({
          target: m.entryKey,
          set: {
            videoId: sql`excluded.video_id`,
            score: sql`excluded.score`,
            reasons: sql`excluded.reasons`,
            matchedAt: sql`excluded.matched_at`,
          },
        }),
    );
  },
};
