/**
 * The headers a signed-in browser sends for one of the emulator's logins: its cookie and a fresh
 * SAPISIDHASH. Public (`musicapi/emulator`), and apart from auth.ts, which checks credentials
 * against the emulator's state, so that the public declarations do not reach that state.
 */
import { createHash } from "node:crypto";
import { SERVICE_ORIGIN, USER_AGENT } from "../shared/wire/constants.js";
import type { AccountRow } from "./store/rows.js";

export function sapisidHash(sapisid: string, origin: string, timestampSeconds: number): string {
  const hex = createHash("sha1").update(`${timestampSeconds} ${sapisid} ${origin}`).digest("hex");
  return `SAPISIDHASH ${timestampSeconds}_${hex}`;
}

/** The cookie header a seeded login's browser would send. */
export function cookieFor(account: AccountRow): string {
  const sid = createHash("sha1").update(`sid:${account.sapisid}`).digest("base64url").slice(0, 24);
  return (
    `SOCS=CAI; SID=${sid}; HSID=A${sid.slice(0, 16)}; SAPISID=${account.sapisid}; ` +
    `__Secure-1PAPISID=${account.sapisid}; __Secure-3PAPISID=${account.sapisid}`
  );
}

/** Ready-to-use browser headers (the JSON `setup` writes) for a login, hashed at `nowSeconds`. */
export function browserHeaders(account: AccountRow, nowSeconds: number): Record<string, string> {
  return {
    accept: "*/*",
    "accept-language": "en-US,en;q=0.5",
    authorization: sapisidHash(account.sapisid, SERVICE_ORIGIN, nowSeconds),
    "content-type": "application/json",
    cookie: cookieFor(account),
    origin: SERVICE_ORIGIN,
    "user-agent": USER_AGENT,
    "x-goog-authuser": String(account.authUser),
    "x-origin": SERVICE_ORIGIN,
  };
}
