import { existsSync, readFileSync } from "node:fs";
import type { Dispatcher } from "undici";
import { authTextKind, looksLikePath } from "../../shared/auth-text.js";
import { ArgumentError, AuthError, ErrorCodes } from "../errors.js";
import type { Logger } from "../logger.js";
import type { MusicClientOptions, OAuthCredentials } from "../options.js";
import { browserProvider } from "./browser.js";
import { parseHeaderLines } from "./header-lines.js";
import { fullHeaderProvider, oauthProvider } from "./oauth.js";
import { looksLikeToken, readToken } from "./token-file.js";
import type { AuthProvider } from "./types.js";

export interface ResolveAuthOptions {
  oauthCredentials?: OAuthCredentials;
  /** Dispatcher for OAuth refresh requests (the client's, so a proxy applies to them too). */
  dispatcher?: Dispatcher;
  timeoutMs: number;
  logger: Logger;
  /** Milliseconds since the epoch; default `Date.now` (tests move the clock). */
  now?: () => number;
}

/**
 * Turns the `auth` option into a provider (docs/PROTOCOL.md#which-credentials), reading a file when given a path. All
 * checks happen here, so unusable credentials fail at construction, before any request. Messages
 * name the file or the missing part, never a header value or a token.
 */
export function resolveAuth(
  auth: MusicClientOptions["auth"],
  options: ResolveAuthOptions,
): AuthProvider | null {
  if (auth === undefined || auth === null) return null;
  if (typeof auth === "string") return fromString(auth, options);
  if (typeof auth === "object" && !Array.isArray(auth)) {
    return fromObject(auth as Record<string, unknown>, "the `auth` object", undefined, options);
  }
  throw new ArgumentError(
    "auth",
    "must be browser header text, a JSON string, a path to a headers or token file, a headers object or a token object",
  );
}

function fromString(auth: string, options: ResolveAuthOptions): AuthProvider {
  const text = auth.trim();
  if (text === "") throw new ArgumentError("auth", "is an empty string");
  switch (authTextKind(text)) {
    case "json":
      return fromObject(parseJsonObject(text, "the `auth` string"), "the `auth` JSON", undefined, options);
    case "headers":
      return fromHeaders(parseHeaderLines(text), "the `auth` header text", options);
    case "path":
      return fromFile(text, options);
  }
}

function parseJsonObject(text: string, source: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the text, which holds the credentials: not repeated here.
    throw new AuthError(ErrorCodes.AUTH_INVALID, `${source} starts like JSON but does not parse as JSON`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AuthError(ErrorCodes.AUTH_INVALID, `${source} is JSON but not an object`);
  }
  return value as Record<string, unknown>;
}

function fromFile(path: string, options: ResolveAuthOptions): AuthProvider {
  const source = `auth file "${path}"`;
  let content: string;
  try {
    content = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (!looksLikePath(path) && !existsSync(path)) {
      throw new AuthError(
        ErrorCodes.AUTH_INVALID,
        "the `auth` string is neither a readable file nor credentials (it is not repeated here, as it " +
          "may hold one): give header text, a JSON string, or the path of a file made by " +
          "`musicapi browser` or `musicapi oauth`",
      );
    }
    if (code === "ENOENT") {
      throw new AuthError(
        ErrorCodes.AUTH_INVALID,
        `${source} not found (give header text, a JSON string, or the path of a file made by \`musicapi browser\` or \`musicapi oauth\`)`,
      );
    }
    throw new AuthError(
      ErrorCodes.AUTH_INVALID,
      `${source} cannot be read (${typeof code === "string" ? code : "error"})`,
    );
  }
  const neither = () =>
    new AuthError(
      ErrorCodes.AUTH_INVALID,
      `${source} is neither a browser headers file nor an OAuth token file`,
    );
  const text = content.trim();
  if (text.startsWith("{")) {
    let value: Record<string, unknown>;
    try {
      value = parseJsonObject(text, source);
    } catch {
      throw neither();
    }
    if (!looksLikeToken(value) && !hasAnyHeader(value, ["cookie", "authorization", "x-goog-authuser"])) {
      throw neither();
    }
    return fromObject(value, source, path, options);
  }
  // Raw copied headers saved as they were pasted are accepted too, as long as they carry a cookie.
  const headers = parseHeaderLines(text);
  if (!hasAnyHeader(headers, ["cookie"])) throw neither();
  return fromHeaders(headers, source, options);
}

function hasAnyHeader(value: Record<string, unknown>, names: readonly string[]): boolean {
  return Object.keys(value).some((key) => names.includes(key.toLowerCase()));
}

function fromObject(
  value: Record<string, unknown>,
  source: string,
  filepath: string | undefined,
  options: ResolveAuthOptions,
): AuthProvider {
  if (looksLikeToken(value)) {
    return oauthProvider(readToken(value, source), {
      credentials: options.oauthCredentials,
      filepath,
      dispatcher: options.dispatcher,
      timeoutMs: options.timeoutMs,
      logger: options.logger,
      now: options.now,
    });
  }
  const headers: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (typeof v === "string") headers[name] = v;
    else if (typeof v === "number") headers[name] = String(v);
    else {
      throw new AuthError(
        ErrorCodes.AUTH_INVALID,
        `${source}: header \`${name}\` does not have a text value`,
      );
    }
  }
  return fromHeaders(headers, source, options);
}

/** A header set: bearer headers are the full-header OAuth variant, anything else browser auth. */
function fromHeaders(
  headers: Record<string, string>,
  source: string,
  options: ResolveAuthOptions,
): AuthProvider {
  const authorization = Object.entries(headers).find(([name]) => name.toLowerCase() === "authorization")?.[1];
  if (authorization !== undefined && /^bearer\s/i.test(authorization.trim()))
    return fullHeaderProvider(headers);
  return browserProvider(headers, { source, now: options.now });
}
