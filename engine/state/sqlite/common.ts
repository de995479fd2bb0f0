/** What the SQLite stores share: the drizzle database over one connection, and how they encode JSON. */
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type * as schema from "../schema.js";

export type Db = BetterSQLite3Database<typeof schema>;

/** Takes the write lock at BEGIN, so a read-then-write cannot interleave with another process. */
export const IMMEDIATE = { behavior: "immediate" } as const;

export const json = (value: unknown): string => JSON.stringify(value ?? null);
export const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
