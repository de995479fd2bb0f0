/**
 * The Spotify stand-in's issued tokens as rows (the rules of issuing and refreshing them live in
 * emulator/services/spotify/auth.ts; this module only reads and writes), with statements
 * prepared once. Kept in the database so that a sign-in outlives the emulator's process.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "./db.js";
import { spotifyTokens } from "./schema.js";

const p = sql.placeholder;

export type SpotifyTokenKind = "access" | "refresh";

export interface SpotifyTokenRow {
  grant: "app" | "user";
  clientId: string;
  scope: string[];
  /** Unix milliseconds; null for a refresh token. */
  expiresAt: number | null;
}

/** An expired access token is still told apart from an unknown one for a day, then forgotten. */
const FORGET_EXPIRED_MS = 86_400_000;

export class SpotifyTokenStore {
  private readonly q;

  constructor(db: Db) {
    const t = spotifyTokens;
    const byToken = (kind: SpotifyTokenKind) => and(eq(t.token, p("token")), eq(t.kind, kind));
    this.q = {
      add: db
        .insert(t)
        .values({
          token: p("token"),
          kind: p("kind"),
          grant: p("grant"),
          clientId: p("clientId"),
          scope: p("scope"),
          expiresAt: p("expiresAt"),
        })
        .prepare(),
      get: (kind: SpotifyTokenKind) =>
        db
          .select({ grant: t.grant, clientId: t.clientId, scope: t.scope, expiresAt: t.expiresAt })
          .from(t)
          .where(byToken(kind))
          .prepare(),
      remove: db.delete(t).where(byToken("refresh")).prepare(),
      expire: db
        .update(t)
        .set({ expiresAt: sql`${p("at")}` })
        .where(eq(t.kind, "access"))
        .prepare(),
      forget: db
        .delete(t)
        .where(and(eq(t.kind, "access"), lt(t.expiresAt, sql`${p("before")}`)))
        .prepare(),
    };
    this.access = this.q.get("access");
    this.refresh = this.q.get("refresh");
  }

  private readonly access;
  private readonly refresh;

  add(token: string, kind: SpotifyTokenKind, row: SpotifyTokenRow, now: number): void {
    this.q.forget.run({ before: now - FORGET_EXPIRED_MS });
    this.q.add.run({ token, kind, ...row, scope: row.scope.join(" ") });
  }

  /** The token's row, or null for one never issued (or forgotten, or used up). */
  get(token: string, kind: SpotifyTokenKind): SpotifyTokenRow | null {
    const r = (kind === "access" ? this.access : this.refresh).get({ token });
    if (!r) return null;
    return {
      grant: r.grant === "app" ? "app" : "user",
      clientId: r.clientId,
      scope: r.scope.split(" ").filter(Boolean),
      expiresAt: r.expiresAt,
    };
  }

  /** Ends a refresh token (a public client's is replaced by each refresh); false when it was not there. */
  removeRefresh(token: string): boolean {
    return this.q.remove.run({ token }).changes > 0;
  }

  /** Sets every access token's expiry to `at`. */
  expireAccess(at: number): void {
    this.q.expire.run({ at });
  }
}
