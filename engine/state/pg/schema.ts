/**
 * The engine's tables on PostgreSQL (../tables.ts defines them, for both databases). drizzle-kit reads
 * this file (drizzle.engine-pg.config.ts) to generate `migrations/engine-pg/`.
 */
import { pgColumns, tables } from "../tables.js";

const t = tables(pgColumns);

export const { runs, journal, runBefore, approvals, ownedPlaylists, ownedRows, tombstones, targetSnapshots } =
  t;
export const {
  locks,
  recipeGenerations,
  conditions,
  accountHealth,
  recipeHealth,
  sourceReads,
  matchCache,
  accounts,
} = t;
