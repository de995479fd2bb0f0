import { createHash } from "node:crypto";

/**
 * The per-request authorization of browser-header auth (docs/PROTOCOL.md#browser-headers): the SHA-1 of
 * `"<ts> <SAPISID> <origin>"` in lower-case hex, sent as `SAPISIDHASH <ts>_<hex>`. Pure: the caller
 * supplies the time, so the value can be checked against one computed elsewhere.
 */
export function sapisidHash(sapisid: string, origin: string, unixSeconds: number): string {
  const ts = Math.floor(unixSeconds);
  const digest = createHash("sha1").update(`${ts} ${sapisid} ${origin}`, "utf8").digest("hex");
  return `SAPISIDHASH ${ts}_${digest}`;
}

/**
 * The cookies of a `cookie` header as name → value. Browsers sometimes quote values; the quotes are
 * not part of the value the hash is computed from, so they are dropped before splitting.
 */
export function parseCookieHeader(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of header.replaceAll('"', "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (name !== "") cookies.set(name, part.slice(eq + 1).trim());
  }
  return cookies;
}

export interface SapisidSource {
  value: string;
  cookie: "__Secure-3PAPISID" | "SAPISID";
}

/**
 * The SAPISID the hash is made from. The web client (and ytmusicapi) use `__Secure-3PAPISID`; when a
 * pasted cookie lacks it we fall back to `SAPISID`, which YouTube.js and ytmapi-rs read and which
 * normally carries the same value in a signed-in session.
 */
export function findSapisid(cookies: ReadonlyMap<string, string>): SapisidSource | null {
  const secure = cookies.get("__Secure-3PAPISID");
  if (secure) return { value: secure, cookie: "__Secure-3PAPISID" };
  const plain = cookies.get("SAPISID");
  if (plain) return { value: plain, cookie: "SAPISID" };
  return null;
}
