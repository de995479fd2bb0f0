/** What the PostgreSQL stores share: the drizzle database over one pool, and how they encode JSON. */
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import type * as schema from "./schema.js";

export type PgDb = NodePgDatabase<typeof schema>;

// JSON is kept as text, as on SQLite, so that what is read back is byte for byte what was written.
export { json, parse } from "../sqlite/common.js";
