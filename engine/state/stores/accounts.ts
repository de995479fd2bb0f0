/** Accounts kept in the state (credentials arrive sealed; see engine/accounts/). */
import { asc, eq } from "drizzle-orm";
import { changed, type Stored } from "../dialect.js";
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
    const { db, t } = this.d;
    const [row] = await db.select().from(t.accounts).where(eq(t.accounts.name, name));
    return row ? storedAccountOf(row) : null;
  },

  async storedAccounts() {
    const { db, t } = this.d;
    const rows = await db
      .select()
      .from(t.accounts)
      .orderBy(asc(this.d.bytewise(t.accounts.name)));
    return rows.map(storedAccountOf);
  },

  async removeAccount(name) {
    const { db, t } = this.d;
    return changed(await db.delete(t.accounts).where(eq(t.accounts.name, name))) > 0;
  },
};
