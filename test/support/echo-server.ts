/**
 * A hostile service for the leak tests of docs/ENGINE.md#credentials: it takes the credentials each request
 * carries (cookie, every cookie value, authorization) and sends them back, in the many ways a
 * real service, proxy or error page could: in error messages, status words and reasons, headers,
 * percent-encoded, base64, JSON- and HTML-escaped, cut short, inside a failed write's body, inside
 * a read the parser cannot make sense of. Alone it answers every request so; with `upstream` (the
 * emulator) it forwards reads and plants the credentials in the answers' texts, so the engine gets
 * far enough to plan and write. Listens on 127.0.0.1 only.
 */
import type { IncomingHttpHeaders } from "node:http";
import { endpointOf, type Reply, type SeenRequest, startServer, type TestServer } from "./replay-server.js";

/** The credentials of one request, as the server saw them. */
export interface Reflected {
  cookie: string;
  authorization: string;
  /** What follows the authorization's scheme: the SAPISIDHASH or the bearer token. */
  token: string;
  /** The SAPISID (or __Secure-3PAPISID), else the longest cookie value. */
  sapisid: string;
  /** Every cookie value of 8 characters or more. */
  values: string[];
}

/** OAuth form fields that are secrets (a refresh sends the client secret and the refresh token). */
const FORM_SECRETS = ["client_secret", "refresh_token", "device_code"];

/**
 * The credentials a request carries: its cookie and authorization headers, and the secret fields
 * of a form body (an OAuth token request), whose client secret then stands in for the SAPISID.
 */
export function reflect(request: { headers: IncomingHttpHeaders; text?: string }): Reflected {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join("; ") : (v ?? ""));
  const cookie = one(request.headers.cookie);
  const authorization = one(request.headers.authorization);
  const pairs = cookie
    .split(";")
    .map((p) => [p.slice(0, p.indexOf("=")).trim(), p.slice(p.indexOf("=") + 1).trim()]);
  const form = one(request.headers["content-type"]).includes("form")
    ? new URLSearchParams(request.text ?? "")
    : null;
  const formValues = FORM_SECRETS.map((name) => form?.get(name) ?? "").filter((v) => v !== "");
  const values = [...pairs.map(([, v]) => v!), ...formValues].filter((v) => v.length >= 8);
  const named = (name: string) => pairs.find(([n]) => n === name)?.[1];
  const longest = [...values].sort((a, b) => b.length - a.length)[0] ?? "";
  const token = authorization.slice(authorization.indexOf(" ") + 1) || (form?.get("refresh_token") ?? "");
  return {
    cookie: cookie || formValues.join("&"),
    authorization: authorization || token,
    token,
    sapisid: named("__Secure-3PAPISID") ?? named("SAPISID") ?? form?.get("client_secret") ?? longest,
    values,
  };
}

/** Every way the server can echo; each is one reply (see `echoReply`). */
export const ECHO_WAYS = [
  "error-message",
  "error-status",
  "error-reasons",
  "url-encoded",
  "form-encoded",
  "lower-hex",
  "double-encoded",
  "base64",
  "base64url",
  "truncated",
  "json-escaped",
  "html-escaped",
  "headers",
  "html-page",
  "status-failed",
  "read-unparseable",
  "oauth-error",
  "all-in-one",
] as const;
export type EchoWay = (typeof ECHO_WAYS)[number];

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
const b64url = (s: string) => Buffer.from(s, "utf8").toString("base64url");
const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());
const html = (s: string) =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
const unicode = (s: string) =>
  s.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Prefixes and a middle piece of each credential: what a service that truncates would send. */
function pieces(c: Reflected): string[] {
  const out = [c.sapisid.slice(0, 12), c.sapisid.slice(0, 13), c.cookie.slice(0, 20), c.token.slice(0, 12)];
  for (const v of c.values) out.push(v.slice(0, 12), v.slice(2, 14));
  const middle = Math.floor(c.cookie.length / 2);
  out.push(c.cookie.slice(middle, middle + 12));
  return out.filter((p) => p.length >= 12);
}

/** The credentials in every spelling this server knows, one per line: for the all-in-one answers. */
export function everySpelling(c: Reflected): string {
  return [
    c.cookie,
    c.authorization,
    encodeURIComponent(c.cookie),
    new URLSearchParams({ cookie: c.cookie, auth: c.authorization }).toString(),
    lowerHex(encodeURIComponent(c.sapisid)),
    encodeURIComponent(encodeURIComponent(c.sapisid)),
    b64(c.cookie),
    b64(`x${c.sapisid}yz`),
    b64url(`ab${c.sapisid}`),
    unicode(c.cookie),
    html(c.cookie),
    ...pieces(c),
  ].join("\n");
}

function error(status: number, fields: Record<string, unknown>, headers?: Record<string, string>): Reply {
  return {
    status,
    body: { error: { code: status, message: "refused", status: "INVALID_ARGUMENT", ...fields } },
    ...(headers ? { headers } : {}),
  };
}

/** Header values must be Latin-1 without line breaks: the credentials are, as they came in headers. */
function echoHeaders(c: Reflected): Record<string, string> {
  return {
    "www-authenticate": `Bearer error="invalid_token", error_description="${c.token}"`,
    "set-cookie": `SAPISID=${c.sapisid}; Path=/; Secure`,
    "x-echo-cookie": c.cookie,
    "x-echo-base64": b64(c.cookie),
  };
}

/** The answer that echoes `c` in one way. */
export function echoReply(way: EchoWay, c: Reflected): Reply {
  switch (way) {
    case "error-message":
      return error(400, { message: `cookie ${c.cookie} authorization ${c.authorization}` });
    case "error-status":
      return error(400, { status: c.sapisid });
    case "error-reasons":
      return error(403, {
        errors: [{ reason: c.sapisid, message: c.cookie, domain: c.token }],
        details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", metadata: { cookie: c.cookie } }],
      });
    case "url-encoded":
      return error(400, {
        message: `${encodeURIComponent(c.cookie)} ${encodeURIComponent(c.authorization)}`,
      });
    case "form-encoded":
      return error(400, {
        message: new URLSearchParams({ cookie: c.cookie, auth: c.authorization }).toString(),
      });
    case "lower-hex":
      return error(400, { message: lowerHex(encodeURIComponent(c.cookie)) });
    case "double-encoded":
      return error(400, { message: encodeURIComponent(encodeURIComponent(c.cookie)) });
    case "base64":
      return error(400, { message: `session ${b64(c.cookie)} ${b64(`x${c.sapisid}yz`)}` });
    case "base64url":
      return error(400, { message: `${b64url(c.cookie)} ${b64url(`ab${c.sapisid}`)}` });
    case "truncated":
      return error(400, { message: pieces(c).join(" "), status: c.sapisid.slice(0, 14) });
    case "json-escaped":
      return jsonEscaped(c);
    case "html-escaped":
      return error(400, { message: `<p>${html(c.cookie)}</p><i>${html(c.authorization)}</i>` });
    case "headers":
      return error(401, { message: "sign in again" }, echoHeaders(c));
    case "html-page":
      return {
        status: 500,
        body: `<html><body>cookie: ${c.cookie}<input value="${html(c.cookie)}"></body></html>`,
      };
    case "status-failed":
      return { body: statusFailed(c) };
    case "read-unparseable":
      return {
        body: {
          contents: { [`${c.sapisid}Renderer`]: { title: { runs: [{ text: c.cookie }] } } },
          [b64(c.cookie)]: 1,
        },
      };
    case "oauth-error":
      return { status: 400, body: { error: c.sapisid, error_description: everySpelling(c) } };
    case "all-in-one":
      return error(
        400,
        { message: everySpelling(c), status: c.sapisid, errors: [{ reason: c.cookie }] },
        echoHeaders(c),
      );
  }
}

/** A body whose JSON text escapes `/` and symbols, and whose message holds JSON with `\u` escapes. */
function jsonEscaped(c: Reflected): Reply {
  const inner = `{"cookie":"${unicode(c.cookie)}","auth":${JSON.stringify(c.authorization)}}`;
  const text = JSON.stringify({ error: { code: 400, message: inner, status: c.sapisid } }).replace(
    /\//g,
    "\\/",
  );
  return { status: 400, headers: { "content-type": "application/json; charset=utf-8" }, body: text };
}

/** A write the service refused with HTTP 200, its whole body carrying the credentials. */
export function statusFailed(c: Reflected): Record<string, unknown> {
  return {
    status: "STATUS_FAILED",
    actions: [
      {
        addToToastAction: {
          item: { notificationTextRenderer: { successResponseText: { runs: [{ text: c.cookie }] } } },
        },
      },
    ],
    error: { message: encodeURIComponent(c.cookie), reason: c.sapisid },
    echo: everySpelling(c),
    [c.sapisid]: b64(c.token),
  };
}

/** Plants a spelling of the credentials after every `runs[].text` (titles, names, descriptions). */
export function plant(value: unknown, c: Reflected): unknown {
  // Spelled once per answer, not once per object in it: a browse page holds thousands of objects.
  const spellings = everySpelling(c).split("\n");
  let n = 0;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== "object" || v === null) return v;
    const out: Record<string, unknown> = {};
    for (const [key, x] of Object.entries(v)) {
      if (key === "text" && typeof x === "string") out[key] = `${x} ${spellings[n++ % spellings.length]}`;
      else out[key] = walk(x);
    }
    return out;
  };
  return walk(value);
}

/** What the server does with one request: an echo, or (with an upstream) forward it, planted or not. */
export type EchoAction = EchoWay | "forward" | "forward-planted";
export type EchoRoute = (request: SeenRequest) => EchoAction;

const WRITES = /^(playlist\/create|playlist\/delete|browse\/edit_playlist|like\/|feedback|subscription\/)/;

/**
 * The engine's route: writes are refused with a STATUS_FAILED body full of credentials, searches
 * answer an error in every spelling, other reads are forwarded and come back with credentials in
 * their texts. The start page and anything outside the API are forwarded untouched.
 */
export const engineRoute: EchoRoute = (request) => {
  const endpoint = endpointOf(request.path);
  if (endpoint === null) return "forward";
  if (WRITES.test(endpoint)) return "status-failed";
  if (endpoint === "search") return "all-in-one";
  return "forward-planted";
};

export interface EchoServerOptions {
  /** Forward here (the emulator's URL) what the route says to forward. */
  upstream?: string;
  /** Default: every request gets `all-in-one` without an upstream, `engineRoute` with one. */
  route?: EchoRoute;
}

export interface EchoServer extends TestServer {
  /** How often each action was taken: a test can check that the echoes really happened. */
  counts: Map<EchoAction, number>;
  /** Every answer body it sent, as text: the leaks the client had to scrub. */
  sent: string[];
}

async function forward(upstream: string, request: SeenRequest, planted: boolean): Promise<Reply> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !["host", "content-length", "accept-encoding", "connection"].includes(name))
      headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const url = `${upstream}${request.path}${request.query ? `?${request.query}` : ""}`;
  const response = await fetch(url, {
    method: request.method,
    headers,
    ...(request.method === "GET" || request.method === "HEAD" ? {} : { body: request.text }),
  });
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  if (!planted || !type.includes("json"))
    return { status: response.status, headers: { "content-type": type }, body: text };
  const c = reflect(request);
  return { status: response.status, headers: echoHeaders(c), body: plant(JSON.parse(text), c) };
}

/** Starts the echoing server on 127.0.0.1. */
export async function startEchoServer(options: EchoServerOptions = {}): Promise<EchoServer> {
  const route = options.route ?? (options.upstream ? engineRoute : () => "all-in-one" as const);
  const counts = new Map<EchoAction, number>();
  const sent: string[] = [];
  const server = await startServer(async (request) => {
    const action = route(request);
    counts.set(action, (counts.get(action) ?? 0) + 1);
    let reply: Reply;
    if (action === "forward" || action === "forward-planted") {
      if (!options.upstream) throw new Error(`the route said ${action}, and the echo server has no upstream`);
      reply = await forward(options.upstream, request, action === "forward-planted");
    } else reply = echoReply(action, reflect(request));
    const headers = JSON.stringify(reply.headers ?? {});
    // Serialized once, here, for both the record and the answer (the server would serialize an
    // object again, as JSON with the same content-type): planted pages run to megabytes.
    if (typeof reply.body !== "string" && reply.body !== undefined)
      reply = {
        ...reply,
        body: JSON.stringify(reply.body),
        headers: { "content-type": "application/json; charset=utf-8", ...reply.headers },
      };
    sent.push(typeof reply.body === "string" ? reply.body : '""', headers);
    return reply;
  });
  return { ...server, counts, sent };
}
