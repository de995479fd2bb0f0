/**
 * The plumbing of the server's answers: every page leaves through `send`, which scrubs it of any
 * credential the engine knows, and sets headers that keep the page from being framed, sniffed,
 * cached or scripted.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody, sendBody } from "../../shared/http.js";
import { engineScrubber } from "../output/scrub.js";
import { errorPage } from "./message-pages.js";

const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  // Not no-referrer: with it a browser sends "Origin: null" on the page's own forms, which the
  // server must refuse as it refuses another site's; same-origin tells other sites nothing.
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
} as const;

export function send(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  sendBody(res, status, engineScrubber.text(body), {
    "content-type": "text/html; charset=utf-8",
    ...SECURITY_HEADERS,
    ...headers,
  });
}

export function sendText(
  res: ServerResponse,
  status: number,
  body: string,
  contentType = "text/plain; charset=utf-8",
): void {
  send(res, status, body, { "content-type": contentType });
}

export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  send(res, status, errorPage(status, message), headers);
}

/** A request the server refuses with a 4xx page. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const MAX_BODY = 8 * 1024;

/** A form post's fields; anything but a small url-encoded form is a 4xx. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded")
    throw new HttpError(400, "an action is posted as a form (application/x-www-form-urlencoded)");
  const body = await readBody(req, MAX_BODY, () => new HttpError(413, "the form is too large"));
  return new URLSearchParams(body.toString("utf8"));
}

/** The path's segments, decoded; a malformed escape is a 400. */
export function segmentsOf(pathname: string): string[] {
  try {
    return pathname
      .split("/")
      .filter((s) => s !== "")
      .map((s) => decodeURIComponent(s));
  } catch {
    throw new HttpError(400, "the address is malformed");
  }
}

/** One cookie's value from the request. */
export function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}
