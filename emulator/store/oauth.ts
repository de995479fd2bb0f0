/**
 * The OAuth device flow's records: device codes (pending, approved, used) and the access and
 * refresh tokens issued for them. The flow's rules (when a code has expired, when a poll approves
 * it by itself, what each grant answers) are the protocol's and live in auth.ts; this module only
 * reads and writes the rows, with statements prepared once.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "./db.js";
import { oauthDeviceCodes, oauthTokens } from "./schema.js";

const p = sql.placeholder;

export interface DeviceCodeRow {
  clientId: string;
  polls: number;
  /** The account that approved the code, or null while pending. */
  accountId: number | null;
  expiresAt: number;
  used: boolean;
}

export type TokenKind = "access" | "refresh";

export class OAuthStore {
  private readonly q;

  constructor(db: Db) {
    const codes = oauthDeviceCodes;
    const tokens = oauthTokens;
    const byCode = eq(codes.deviceCode, p("deviceCode"));
    const tokenOf = (kind: TokenKind) => and(eq(tokens.token, p("token")), eq(tokens.kind, kind));
    this.q = {
      addCode: db
        .insert(codes)
        .values({
          deviceCode: p("deviceCode"),
          userCode: p("userCode"),
          clientId: p("clientId"),
          polls: 0,
          accountId: null,
          expiresAt: p("expiresAt"),
          used: false,
        })
        .prepare(),
      code: db
        .select({
          clientId: codes.clientId,
          polls: codes.polls,
          accountId: codes.accountId,
          expiresAt: codes.expiresAt,
          used: codes.used,
        })
        .from(codes)
        .where(byCode)
        .prepare(),
      poll: db
        .update(codes)
        .set({ polls: sql`${p("polls")}`, accountId: sql`${p("accountId")}` })
        .where(byCode)
        .prepare(),
      use: db.update(codes).set({ used: true }).where(byCode).prepare(),
      approve: db
        .update(codes)
        .set({ accountId: sql`${p("accountId")}` })
        .where(and(eq(codes.userCode, p("userCode")), eq(codes.used, false)))
        .prepare(),
      addToken: db
        .insert(tokens)
        .values({
          token: p("token"),
          kind: p("kind"),
          accountId: p("accountId"),
          clientId: p("clientId"),
          expiresAt: p("expiresAt"),
        })
        .prepare(),
      access: db
        .select({ accountId: tokens.accountId, expiresAt: tokens.expiresAt })
        .from(tokens)
        .where(tokenOf("access"))
        .prepare(),
      refresh: db
        .select({ accountId: tokens.accountId, clientId: tokens.clientId })
        .from(tokens)
        .where(tokenOf("refresh"))
        .prepare(),
      expireAccess: db
        .update(tokens)
        .set({ expiresAt: sql`${p("at")}` })
        .where(eq(tokens.kind, "access"))
        .prepare(),
    };
  }

  // ── device codes ──

  addDeviceCode(code: { deviceCode: string; userCode: string; clientId: string; expiresAt: number }): void {
    this.q.addCode.run(code);
  }

  deviceCode(deviceCode: string): DeviceCodeRow | null {
    return this.q.code.get({ deviceCode }) ?? null;
  }

  /** Records a poll of a device code: the polls so far and who approved it (null: still pending). */
  recordPoll(deviceCode: string, polls: number, accountId: number | null): void {
    this.q.poll.run({ deviceCode, polls, accountId });
  }

  /** Marks a device code used: it was exchanged for tokens and is refused from now on. */
  useDeviceCode(deviceCode: string): void {
    this.q.use.run({ deviceCode });
  }

  /** Approves the unused device code with this user code for an account; false when there is none. */
  approve(userCode: string, accountId: number): boolean {
    return this.q.approve.run({ userCode, accountId }).changes > 0;
  }

  // ── tokens ──

  /** Records an issued token; `expiresAt` is null for refresh tokens (they do not expire here). */
  addToken(token: {
    token: string;
    kind: TokenKind;
    accountId: number;
    clientId: string;
    expiresAt: number | null;
  }): void {
    this.q.addToken.run(token);
  }

  /** The account and expiry of an access token, or null for an unknown one. */
  accessToken(token: string): { accountId: number; expiresAt: number | null } | null {
    return this.q.access.get({ token }) ?? null;
  }

  /** The account and client a refresh token was issued to, or null for an unknown one. */
  refreshToken(token: string): { accountId: number; clientId: string } | null {
    return this.q.refresh.get({ token }) ?? null;
  }

  /** Sets every access token's expiry to `at`; the number of tokens changed. */
  expireAccessTokens(at: number): number {
    return this.q.expireAccess.run({ at }).changes;
  }
}
