/** Accounts kept in the state (credentials arrive sealed; see engine/accounts/). */
import { and, eq } from "drizzle-orm";
import { changed, inByteOrder, json, oneRow, type Stored } from "../dialect.js";
import type { Row } from "../tables.js";
import type { AccountStore, StoredAccount } from "../types.js";

export const accountStore: AccountStore & ThisType<Stored> = {
  async saveAccount(a) {
    const { db, t } = this.d;
    const set = written(a);
    await db
      .insert(t.accounts)
      .values({ name: a.name, createdAt: a.createdAt, ...set })
      .onConflictDoUpdate({ target: t.accounts.name, set });
  },

  async swapAccount(a, sealedBefore) {
    const { db, t } = this.d;
    const set = written(a);
    const where = and(eq(t.accounts.name, a.name), eq(t.accounts.sealed, sealedBefore));
    return changed(await db.update(t.accounts).set(set).where(where)) > 0;
  },

  async storedAccount(name) {
    const row = await oneRow(this.d.db, this.d.t.accounts, { name });
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

/** The columns a save or a swap writes (createdAt only when the row is new). */
function written(a: StoredAccount) {
  return { settings: json(a.settings), sealed: a.sealed, updatedAt: a.updatedAt };
}

/**
 * Settings that are not a JSON object (a row edited by hand) read as none: the copy sealed with
 * the credentials then no longer matches, which `accounts list` says and every run refuses.
 */
function storedAccountOf(r: Row<"accounts">): StoredAccount {
  let settings: unknown = null;
  try {
    settings = JSON.parse(r.settings);
  } catch {
    // left as none
  }
  const isObject = typeof settings === "object" && settings !== null && !Array.isArray(settings);
  return { ...r, settings: isObject ? (settings as Record<string, unknown>) : {} };
}
