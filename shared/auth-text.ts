/**
 * What an `auth` setting's text is, told apart without reading it: inline credentials (JSON or
 * header lines) or the path of a file. The client decides how to load it by this; the engine
 * decides by it whether a value may be shown in a message (a path may, credentials never), without
 * loading the client to ask.
 */

/** A single `Name: value` line is header text too, not a file called that. */
const HEADER_LINE = /^\s*[!#$%&'*+\-.^_`|~0-9A-Za-z]+:[ \t]/;

/**
 * What an `auth` string holds, decided the way the client decides it: inline JSON (a headers or
 * token object), inline header text, or else the path of a file. Callers that take an `auth`
 * setting (the sync engine's project file) use it to know whether a value may be shown: a path
 * may, credentials never.
 */
export function authTextKind(auth: string): "json" | "headers" | "path" {
  const text = auth.trim();
  if (text.startsWith("{")) return "json";
  if (text.includes("\n") || HEADER_LINE.test(text)) return "headers";
  return "path";
}

/** Ends like a file of credentials would be named, and holds nothing a cookie or token holds. */
const PATH_LIKE = /^[^\r\n=;{}"<>|]{1,4096}\.(json|txt|headers|ya?ml|token|cookies?|conf|cfg|ini|env)$/i;

/**
 * Whether an `auth` string that is not inline credentials is clearly the path of a file, and so
 * may be shown in a message. A single-line cookie (`SID=…; SAPISID=…`) or a bare token also lands
 * here, and must not be repeated: only a value named like a file, or one that exists, is shown.
 */
export function looksLikePath(auth: string): boolean {
  return PATH_LIKE.test(auth.trim());
}
