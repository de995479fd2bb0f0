import { credentialJson, writeSecretFile } from "../../shared/secret-file.js";
import { SERVICE_ORIGIN, USER_AGENT } from "../../shared/wire/constants.js";
import { AuthError, ErrorCodes } from "../errors.js";
import { parseHeaderLines } from "./header-lines.js";
import { findSapisid, parseCookieHeader, sapisidHash } from "./sapisid.js";
import type { AuthProvider } from "./types.js";

/**
 * Headers of the connection rather than the request: the HTTP client sets them itself, and undici
 * refuses several of them outright (`transfer-encoding`, `keep-alive`, `upgrade`, `expect`), while a
 * pasted `connection: close` would quietly turn connection reuse off.
 */
const CONNECTION_HEADERS = new Set([
  "host",
  "content-length",
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "upgrade",
  "expect",
]);

/**
 * Headers a pasted set must not carry into our requests (docs/PROTOCOL.md#browser-headers drops `sec-*`, `host`,
 * `content-length` and `accept-encoding`; the other connection headers go for the reason above).
 * `accept-encoding` matters: a browser offers `br, zstd`, and the transport decodes only what it asks for.
 */
export function isDropped(name: string): boolean {
  return name.startsWith("sec") || name === "accept-encoding" || CONNECTION_HEADERS.has(name);
}

/** Headers a setup-made file always has, replacing what the browser sent (docs/PROTOCOL.md#headers, docs/PROTOCOL.md#browser-headers). */
const SETUP_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({
  "user-agent": USER_AGENT,
  accept: "*/*",
  "accept-encoding": "gzip, deflate",
  "content-type": "application/json",
  // ytmusicapi also writes `content-encoding: gzip` without compressing anything; our transport does
  // not compress either, so the file does not claim it.
  origin: SERVICE_ORIGIN,
});

/** Headers setup refuses to go without; `authorization` is recomputed per request, so not needed. */
const REQUIRED = ["cookie", "x-goog-authuser"] as const;

/** Lower-cased names, the dropped ones removed. */
function keptHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!isDropped(lower)) kept[lower] = value;
  }
  return kept;
}

/**
 * The browser-header configuration from pasted request headers: the kept headers, the default set
 * over them, `cookie` and `x-goog-authuser` required. Pure; {@link setup} adds the I/O.
 */
export function browserHeadersFromText(text: string): Record<string, string> {
  const kept = keptHeaders(parseHeaderLines(text));
  const missing = REQUIRED.filter((name) => kept[name] === undefined || kept[name] === "");
  if (missing.length > 0) {
    throw new AuthError(
      ErrorCodes.AUTH_INVALID,
      `the pasted request headers lack ${missing.map((m) => `\`${m}\``).join(" and ")}; copy the headers ` +
        "of an authenticated POST to /youtubei/v1/browse from the browser's network panel",
    );
  }
  if (findSapisid(parseCookieHeader(kept.cookie!)) === null) {
    throw new AuthError(
      ErrorCodes.AUTH_INVALID,
      "the pasted cookie has neither `__Secure-3PAPISID` nor `SAPISID`: copy the headers of a request " +
        "made while signed in to music.youtube.com",
    );
  }
  return { ...kept, ...SETUP_DEFAULTS };
}

export interface SetupOptions {
  /** Where to save the configuration (JSON, mode 0600). Not saved when omitted. */
  filepath?: string;
  /** The copied request headers; read from standard input when omitted. */
  headersRaw?: string;
  /** Where to read the headers from when `headersRaw` is omitted; default standard input. */
  input?: NodeJS.ReadableStream;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Turns request headers copied from a signed-in browser session into the browser-auth configuration
 * and returns it as a JSON string that `new MusicClient({ auth })` accepts. With `filepath`, the same
 * JSON is written there (keys sorted, 4-space indent, mode 0600).
 */
export async function setup(options: SetupOptions = {}): Promise<string> {
  const text = options.headersRaw ?? (await readAll(options.input ?? process.stdin));
  const json = credentialJson(browserHeadersFromText(text));
  if (options.filepath !== undefined) await writeSecretFile(options.filepath, `${json}\n`);
  return json;
}

/**
 * Header values must be ISO-8859-1 on the wire; a pasted value with other characters (an accented
 * name in a cookie, say) is sent percent-encoded as UTF-8 bytes, printable ASCII left as it is.
 */
export function encodeHeaderValue(value: string): string {
  return value.replace(/[^\x20-\x7e]+/g, (run) =>
    Array.from(
      Buffer.from(run, "utf8"),
      (byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    ).join(""),
  );
}

/** How many past SAPISIDHASH values stay secrets (a new one is made each second). */
const RECENT_HASHES = 8;

export interface BrowserProviderOptions {
  /** Milliseconds since the epoch; the hash carries the current second. */
  now?: () => number;
  /** Where the headers came from, for messages (`auth file "browser.json"`); never a value. */
  source: string;
}

/**
 * Browser-header auth: the pasted cookie and companions on every request, with a fresh SAPISIDHASH.
 * Every check happens here, at construction, so a bad file fails before the first request.
 */
export function browserProvider(
  headers: Record<string, string>,
  options: BrowserProviderOptions,
): AuthProvider {
  const kept = keptHeaders(headers);
  const cookie = kept.cookie;
  if (cookie === undefined || cookie.trim() === "") {
    throw new AuthError(
      ErrorCodes.AUTH_INVALID,
      `${options.source} has no \`cookie\` header; browser auth needs the cookie of a signed-in session ` +
        "(run `musicapi browser` with freshly copied request headers)",
    );
  }
  const cookies = parseCookieHeader(cookie);
  const sapisid = findSapisid(cookies);
  if (sapisid === null) {
    throw new AuthError(
      ErrorCodes.AUTH_INVALID,
      `the cookie in ${options.source} has neither \`__Secure-3PAPISID\` nor \`SAPISID\`; copy the headers ` +
        "of a request made while signed in to music.youtube.com",
    );
  }
  const origin = kept.origin ?? kept["x-origin"] ?? SERVICE_ORIGIN;
  const now = options.now ?? Date.now;
  // The pasted authorization is stale the moment it is copied; ours is computed per request. The
  // transport never compresses bodies, so a content-encoding from the paste would be a lie.
  const { authorization: pasted, "content-encoding": _encoding, ...rest } = kept;
  const fixed: Record<string, string> = {};
  for (const [name, value] of Object.entries(rest)) fixed[name] = encodeHeaderValue(value);

  const secrets = new Set<string>([cookie, fixed.cookie ?? cookie, sapisid.value]);
  if (pasted) secrets.add(pasted);
  for (const value of cookies.values()) secrets.add(value);
  // Answers to earlier requests may still be on their way while newer hashes are sent.
  const recent: string[] = [];
  // Every response and error is scrubbed with this list: made again only when a hash comes, and
  // frozen, so that a scrubber can tell at a glance it is the one it saw (shared/piece-index.ts).
  let listed: readonly string[] | null = null;
  // The hash carries the whole second only: requests within one second share one SHA-1.
  let hashed = { second: Number.NaN, authorization: "" };

  return {
    kind: "browser",
    sendsApiKey: true,
    authUser: kept["x-goog-authuser"]?.trim() || "0",
    async headers() {
      const second = Math.floor(now() / 1000);
      if (hashed.second !== second) {
        hashed = { second, authorization: sapisidHash(sapisid.value, origin, second) };
      }
      const { authorization } = hashed;
      if (recent[recent.length - 1] !== authorization) {
        recent.push(authorization);
        if (recent.length > RECENT_HASHES) recent.shift();
        listed = null;
      }
      return { ...fixed, authorization };
    },
    secrets() {
      listed ??= Object.freeze([...secrets, ...recent]);
      return listed;
    },
  };
}
