/**
 * The engine's tables on PostgreSQL (../tables.ts defines them, for both databases). drizzle-kit reads
 * this file (drizzle.engine-pg.config.ts) to generate `migrations/engine-pg/`.
 */

import { pgColumns } from "../pg-columns.js";
import { tables } from "../tables.js";

/** All of them, for the stores (drizzle-kit reads only the tables exported one by one below). */
export const engineTables = tables(pgColumns);

export const { runs, journal, runBefore, approvals, ownedPlaylists, ownedRows } = engineTables;
export const { tombstones, targetSnapshots, locks, recipeGenerations, conditions } = engineTables;
export const { accountHealth, recipeHealth, sourceReads, matchCache, accounts } = engineTables;
