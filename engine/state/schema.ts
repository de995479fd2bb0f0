/**
 * The engine's tables on SQLite (./tables.ts defines them, for both databases). drizzle-kit reads
 * this file (drizzle.engine.config.ts) to generate `migrations/engine/`.
 */
import { sqliteColumns, tables } from "./tables.js";

const t = tables(sqliteColumns);

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
