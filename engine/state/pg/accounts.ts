/** Accounts kept in the state on PostgreSQL (credentials arrive sealed; see engine/accounts/). */
import { asc, eq } from "drizzle-orm";
import { storedAccountOf } from "../rows.js";
import type { AccountStore, StoredAccount } from "../types.js";
import { json, type PgDb } from "./common.js";
import { bytewise, touched } from "./query.js";
import * as schema from "./schema.js";

export class PgAccountStore implements AccountStore {
  constructor(private readonly db: PgDb) {}

  async saveAccount(a: StoredAccount): Promise<void> {
    const changed = { settings: json(a.settings), sealed: a.sealed, updatedAt: a.updatedAt };
    await this.db
      .insert(schema.accounts)
      .values({ name: a.name, createdAt: a.createdAt, ...changed })
      .onConflictDoUpdate({ target: schema.accounts.name, set: changed });
  }

  async storedAccount(name: string): Promise<StoredAccount | null> {
    const [row] = await this.db.select().from(schema.accounts).where(eq(schema.accounts.name, name));
    return row ? storedAccountOf(row) : null;
  }

  async storedAccounts(): Promise<StoredAccount[]> {
    const rows = await this.db
      .select()
      .from(schema.accounts)
      .orderBy(asc(bytewise(schema.accounts.name)));
    return rows.map(storedAccountOf);
  }

  async removeAccount(name: string): Promise<boolean> {
    return touched(await this.db.delete(schema.accounts).where(eq(schema.accounts.name, name)));
  }
}
