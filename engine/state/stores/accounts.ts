/** Accounts kept in the state (credentials arrive sealed; see engine/accounts/). */
import { eq } from "drizzle-orm";
import { changed, inByteOrder, oneRow, type Stored } from "../dialect.js";
import { json, storedAccountOf } from "../rows.js";
import type { AccountStore } from "../types.js";

export const accountStore: AccountStore & ThisType<Stored> = {
  async saveAccount(a) {
    const { db, t } = this.d;
    const set = { settings: json(a.settings), sealed: a.sealed, updatedAt: a.updatedAt };
    await db
      .insert(t.accounts)
      .values({ name: a.name, createdAt: a.createdAt, ...set })
      .onConflictDoUpdate({ target: t.accounts.name, set });
  },

  async storedAccount(name) {
    const row = await oneRow(this.d.db, this.d.t.accounts, eq(this.d.t.accounts.name, name));
    return row && storedAccountOf(row);
  },

  async storedAccounts() {
    return (await inByteOrder(this, this.d.t.accounts, this.d.t.accounts.name)).map(storedAccountOf);
  },

  async removeAccount(name) {
    const { db, t } = this.d;
    return changed(await db.delete(t.accounts).where(eq(t.accounts.name, name))) > 0;
  },
};
