/**
 * Credentials checked as the service checks them (docs/PROTOCOL.md#authentication): a SAPISIDHASH computed from the
 * cookie's SAPISID, the time and an origin; or an OAuth bearer token issued by the emulator's own
 * device flow. Brand accounts are chosen with `context.user.onBehalfOfUser`.
 */
import { createHash, randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { SERVICE_ORIGIN } from "../shared/wire/constants.js";
import type { EmulatorState, Viewer } from "./context.js";
import { ApiError, permissionDenied, unauthenticated } from "./errors.js";
import type { AccountRow } from "./store/rows.js";

/** Origins a client may have hashed with: ytmusicapi and ytmapi-rs use music, YouTube.js www. */
const HASH_ORIGINS = [SERVICE_ORIGIN, "https://www.youtube.com"];

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function cookieValue(cookie: string, name: string): string | undefined {
  for (const part of cookie.replace(/"/g, "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/**
 * Who is asking, or null without credentials. Credentials that are present but wrong (bad hash,
 * old timestamp, unknown or expired token) are refused with 401 whatever the endpoint.
 */
export function resolveViewer(
  state: EmulatorState,
  headers: IncomingHttpHeaders,
  onBehalfOfUser: unknown,
): Viewer | null {
  const authorization = header(headers, "authorization");
  if (!authorization) return null;
  let login: AccountRow | null;
  let via: Viewer["via"];
  if (/^bearer\s/i.test(authorization)) {
    login = accountForAccessToken(state, authorization.replace(/^bearer\s+/i, "").trim());
    if (!login)
      throw unauthenticated("Request had invalid authentication credentials. Expected OAuth 2 access token.");
    via = "oauth";
  } else {
    const m = /SAPISIDHASH (\d+)_([0-9a-f]{40})/i.exec(authorization);
    if (!m) throw unauthenticated("Request had invalid authentication credentials.");
    const cookie = header(headers, "cookie") ?? "";
    const sapisid = cookieValue(cookie, "__Secure-3PAPISID") ?? cookieValue(cookie, "SAPISID");
    if (!sapisid) throw unauthenticated("Request had invalid authentication credentials.");
    const ts = Number(m[1]);
    const nowSeconds = Math.floor(state.now() / 1000);
    if (ts < nowSeconds - state.auth.maxHashAgeSeconds || ts > nowSeconds + state.auth.futureSkewSeconds) {
      throw unauthenticated("Request had invalid authentication credentials.");
    }
    const origins = new Set([header(headers, "origin"), header(headers, "x-origin"), ...HASH_ORIGINS]);
    const given = m[2]!.toLowerCase();
    const ok = [...origins].some(
      (o) => o && createHash("sha1").update(`${ts} ${sapisid} ${o}`).digest("hex") === given,
    );
    login = ok ? state.store.accounts.loginBySapisid(sapisid) : null;
    if (!login) throw unauthenticated("Request had invalid authentication credentials.");
    via = "cookie";
  }
  if (typeof onBehalfOfUser === "string" && onBehalfOfUser !== "") {
    const brand = state.store.accounts.brandAccount(login.id, onBehalfOfUser);
    if (!brand) throw permissionDenied("The caller does not have permission to act for this user.");
    return { account: brand, via };
  }
  return { account: login, via };
}

function accountForAccessToken(state: EmulatorState, token: string): AccountRow | null {
  const row = state.store.oauth.accessToken(token);
  if (!row || row.expiresAt === null || row.expiresAt <= state.now()) return null;
  return state.store.accounts.account(row.accountId);
}

// ── OAuth device flow (served on the emulator's own origin) ──

export interface OAuthReply {
  status: number;
  body: Record<string, unknown>;
}

const oauthError = (status: number, error: string, description: string): OAuthReply => ({
  status,
  body: { error, error_description: description },
});

const SCOPE = "https://www.googleapis.com/auth/youtube";

function newToken(prefix: string): string {
  return prefix + randomBytes(32).toString("base64url");
}

export function deviceCode(state: EmulatorState, form: URLSearchParams): OAuthReply {
  const clientId = form.get("client_id");
  if (!clientId) return oauthError(401, "invalid_client", "The OAuth client was not found.");
  const device = newToken("AH-1Ng");
  const userCode = newUserCode();
  const expiresAt = state.now() + state.oauth.deviceCodeTtlSeconds * 1000;
  state.store.oauth.addDeviceCode({ deviceCode: device, userCode, clientId, expiresAt });
  return {
    status: 200,
    body: {
      device_code: device,
      user_code: userCode,
      expires_in: state.oauth.deviceCodeTtlSeconds,
      interval: state.oauth.interval,
      verification_url: `${state.baseUrl}/_emulator/oauth/device`,
    },
  };
}

/** A code the user types on the sign-in page: nine consonants in threes (`BCD-FGH-JKL`). */
function newUserCode(): string {
  const letters = "BCDFGHJKLMNPQRSTVWXZ";
  return [...randomBytes(9)]
    .map((b) => letters[b % letters.length])
    .join("")
    .replace(/(...)(...)(...)/, "$1-$2-$3");
}

/** Issues an access token (and a refresh token with it, for a device code's first exchange). */
function issue(
  state: EmulatorState,
  accountId: number,
  clientId: string,
  withRefresh: boolean,
): Record<string, unknown> {
  const access = newToken("ya29.emu-");
  const ttl = state.oauth.accessTokenTtlSeconds;
  const oauth = state.store.oauth;
  oauth.addToken({ token: access, kind: "access", accountId, clientId, expiresAt: state.now() + ttl * 1000 });
  const body: Record<string, unknown> = {
    access_token: access,
    expires_in: ttl,
    scope: SCOPE,
    token_type: "Bearer",
  };
  if (withRefresh) {
    const refresh = newToken("1//emu-");
    oauth.addToken({ token: refresh, kind: "refresh", accountId, clientId, expiresAt: null });
    body.refresh_token = refresh;
    body.refresh_token_expires_in = 604_800;
  }
  return body;
}

/** The grant types a device code is exchanged with: Google's older name and RFC 8628's. */
const DEVICE_GRANTS = new Set([
  "http://oauth.net/grant_type/device/1.0",
  "urn:ietf:params:oauth:grant-type:device_code",
]);

export function token(state: EmulatorState, form: URLSearchParams): OAuthReply {
  const clientId = form.get("client_id");
  const secret = form.get("client_secret");
  if (!clientId || !secret) return oauthError(401, "invalid_client", "Unauthorized");
  const grant = form.get("grant_type");
  return state.store.tx(() => {
    if (grant !== null && DEVICE_GRANTS.has(grant)) return deviceGrant(state, form, clientId);
    if (grant === "refresh_token") return refreshGrant(state, form, clientId);
    return oauthError(400, "unsupported_grant_type", "Invalid grant_type: " + String(grant));
  });
}

/**
 * A poll with a device code. Each poll is counted; a pending code is approved by itself on the
 * configured poll (tests need no browser), and an approved code is exchanged for tokens once.
 */
function deviceGrant(state: EmulatorState, form: URLSearchParams, clientId: string): OAuthReply {
  const code = form.get("code") ?? form.get("device_code") ?? "";
  const oauth = state.store.oauth;
  const row = oauth.deviceCode(code);
  if (!row || row.used) return oauthError(400, "invalid_grant", "Malformed auth code.");
  if (row.clientId !== clientId) return oauthError(401, "unauthorized_client", "Unauthorized");
  if (row.expiresAt <= state.now()) return oauthError(400, "expired_token", "The device code has expired.");
  const polls = row.polls + 1;
  let accountId = row.accountId;
  const auto = state.oauth.autoApproveAfterPolls;
  if (accountId === null && auto !== null && polls >= auto) accountId = state.oauth.autoApproveAccountId;
  oauth.recordPoll(code, polls, accountId);
  // Google answers a pending device code with HTTP 428.
  if (accountId === null) return oauthError(428, "authorization_pending", "Precondition Required");
  oauth.useDeviceCode(code);
  return { status: 200, body: issue(state, accountId, clientId, true) };
}

function refreshGrant(state: EmulatorState, form: URLSearchParams, clientId: string): OAuthReply {
  const row = state.store.oauth.refreshToken(form.get("refresh_token") ?? "");
  if (!row) return oauthError(400, "invalid_grant", "Token has been expired or revoked.");
  if (row.clientId !== clientId) return oauthError(401, "unauthorized_client", "Unauthorized");
  return { status: 200, body: issue(state, row.accountId, clientId, false) };
}

/** Approval of a user code (what the user does in the browser); used by the control endpoint. */
export function approveUserCode(state: EmulatorState, userCode: string, accountId: number): boolean {
  if (!state.store.accounts.account(accountId)) throw new ApiError(404, "No such account.", "notFound");
  return state.store.oauth.approve(userCode, accountId);
}

/** Makes every access token expire now (to test refresh). */
export function expireAccessTokens(state: EmulatorState): number {
  return state.store.oauth.expireAccessTokens(state.now() - 1);
}
