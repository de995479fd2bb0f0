/** Accounts kept in the state on SQLite (credentials arrive sealed; see engine/accounts/). */
import { asc, eq } from "drizzle-orm";
import { storedAccountOf } from "../rows.js";
import * as schema from "../schema.js";
import type { AccountStore, StoredAccount } from "../types.js";
import { type Db, json } from "./common.js";

export class SqliteAccountStore implements AccountStore {
  constructor(private readonly db: Db) {}

  async saveAccount(a: StoredAccount): Promise<void> {
    const changed = { settings: json(a.settings), sealed: a.sealed, updatedAt: a.updatedAt };
    this.db
      .insert(schema.accounts)
      .values({ name: a.name, createdAt: a.createdAt, ...changed })
      .onConflictDoUpdate({ target: schema.accounts.name, set: changed })
      .run();
  }

  async storedAccount(name: string): Promise<StoredAccount | null> {
    const row = this.db.select().from(schema.accounts).where(eq(schema.accounts.name, name)).get();
    return row ? storedAccountOf(row) : null;
  }

  async storedAccounts(): Promise<StoredAccount[]> {
    return this.db
      .select()
      .from(schema.accounts)
      .orderBy(asc(schema.accounts.name))
      .all()
      .map(storedAccountOf);
  }

  async removeAccount(name: string): Promise<boolean> {
    return this.db.delete(schema.accounts).where(eq(schema.accounts.name, name)).run().changes > 0;
  }
}
