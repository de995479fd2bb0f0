/** The emulator's accounts: logins, their brand accounts, premium subscriptions. */
import { and, eq, isNotNull, isNull, max, or, sql } from "drizzle-orm";
import type { Db } from "./db.js";
import type { AccountRow, ProfileRow } from "./rows.js";
import { accounts } from "./schema.js";
import { contains, containsPattern, lower } from "./selections.js";

export class AccountStore {
  /** Account look-ups run on every signed-in request: prepared once (drizzle placeholders). */
  private readonly q;

  constructor(private readonly db: Db) {
    const t = accounts;
    const all = () => db.select().from(t);
    this.q = {
      byId: all()
        .where(eq(t.id, sql.placeholder("id")))
        .prepare(),
      all: all().orderBy(t.id).prepare(),
      lastId: db
        .select({ id: max(t.id) })
        .from(t)
        .prepare(),
      byChannel: all()
        .where(eq(t.channelId, sql.placeholder("channelId")))
        .prepare(),
      login: all()
        .where(and(eq(t.sapisid, sql.placeholder("sapisid")), isNull(t.parentId)))
        .prepare(),
      brand: all()
        .where(and(eq(t.parentId, sql.placeholder("parentId")), eq(t.pageId, sql.placeholder("pageId"))))
        .prepare(),
      profiles: db
        .select({ id: t.id, name: t.name, handle: t.handle, channelId: t.channelId })
        .from(t)
        .where(
          and(
            isNotNull(t.handle),
            or(contains(lower(t.name), "pattern"), contains(lower(t.handle), "pattern")),
          ),
        )
        .orderBy(t.id)
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"))
        .prepare(),
    };
  }

  account(id: number): AccountRow | null {
    return this.q.byId.get({ id }) ?? null;
  }

  accounts(): AccountRow[] {
    return this.q.all.all();
  }

  /** The id a new account takes: one after the highest. */
  nextId(): number {
    return (this.q.lastId.get()?.id ?? 0) + 1;
  }

  /** The account whose user channel this is, if any. */
  byChannel(channelId: string): AccountRow | null {
    return this.q.byChannel.get({ channelId }) ?? null;
  }

  loginBySapisid(sapisid: string): AccountRow | null {
    return this.q.login.get({ sapisid }) ?? null;
  }

  brandAccount(parentId: number, pageId: string): AccountRow | null {
    return this.q.brand.get({ parentId, pageId }) ?? null;
  }

  /** Accounts with a handle whose name or handle contains `query` (the profiles search). */
  searchProfiles(query: string, offset: number, limit: number): ProfileRow[] {
    const rows = this.q.profiles.all({ pattern: containsPattern(query), offset, limit });
    return rows.map((r) => ({ ...r, handle: r.handle ?? "" }));
  }

  /** Turns an account's premium subscription on or off (a control endpoint). */
  setPremium(id: number, premium: boolean): void {
    this.db.update(accounts).set({ premium }).where(eq(accounts.id, id)).run();
  }
}
