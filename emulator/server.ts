/**
 * The HTTP server: routing of `POST /youtubei/v1/<endpoint>` (any query parameters), the HTML and
 * script pages, the streams (`/videoplayback`), the player's tracking address, the upload host,
 * the OAuth endpoints and the control endpoints under `/_emulator/`. Every failure becomes the service's JSON error format; nothing a
 * client sends can crash it.
 */
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import { type Duplex, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { gunzipSync } from "node:zlib";
import { readBody as readLimitedBody, sendBody, sendJson } from "../shared/http.js";
import { deviceCode, resolveViewer, token } from "./auth.js";
import { type CachedResponse, encodeResponse } from "./cache.js";
import type { ApiContext, ApiRoute, EmulatorState, Viewer } from "./context.js";
import { handleControl } from "./control.js";
import { ApiError, invalidArgument, notFound, Refusal } from "./errors.js";
import { type Fault, truncateLists } from "./faults.js";
import { basejs, playlistHtml, startPage } from "./render/pages.js";
import { attributeRequest, logRequest } from "./request-log.js";
import { recordPlayback } from "./routes/player.js";
import { uploadFinalize, uploadStart } from "./routes/uploads.js";
import { type StreamAnswer, videoplayback } from "./routes/videoplayback.js";
import { handleLastfm } from "./services/lastfm/index.js";
import { handleListenBrainz } from "./services/listenbrainz/index.js";
import { handleSpotify } from "./services/spotify/index.js";
import { streamBytes } from "./stream-bytes.js";

/**
 * Limits on what a client may send (emulator/README.md "Limits"), far above any real client's
 * requests (the largest, a batch playlist edit, is some hundred KB) and low enough that a hostile
 * one cannot exhaust memory. API and control bodies: 5 MiB, before and after gunzip (a gzip bomb
 * is cut off while it inflates). OAuth and upload-start forms: 64 KiB. Request line and headers:
 * 32 KiB (Node's default is 16 KiB; a browser's cookie jar stays well under either). Uploads
 * stream and are bound by their declared size instead.
 */
const MAX_BODY = 5 * 1024 * 1024;
const MAX_FORM_BODY = 64 * 1024;
const MAX_HEADER_SIZE = 32 * 1024;

export function count(state: EmulatorState, key: string): void {
  state.counts.set(key, (state.counts.get(key) ?? 0) + 1);
}

/** The service's answer to a body over the limit, in its error format. */
const payloadTooLarge = (limit: number) =>
  new ApiError(413, `Request payload size exceeds the limit: ${limit} bytes.`, "badRequest");

/** The body, refused in the service's format as soon as it passes `limit`. */
function readBody(req: IncomingMessage, limit = MAX_BODY): Promise<Buffer> {
  return readLimitedBody(req, limit, () => payloadTooLarge(limit));
}

/**
 * JSON bodies may be gzipped whatever `content-encoding` says: sniff the magic bytes (docs/PROTOCOL.md#headers). The
 * inflated size is bound while inflating (zlib stops at `maxOutputLength`), so a small body that
 * would inflate to gigabytes costs at most `limit` bytes and gets the same 413 as a large one.
 */
export function decodeBody(raw: Buffer, limit = MAX_BODY): string {
  if (raw.length >= 2 && raw[0] === 0x1f && raw[1] === 0x8b) {
    try {
      return gunzipSync(raw, { maxOutputLength: limit }).toString("utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") throw payloadTooLarge(limit);
      throw invalidArgument("Invalid gzip payload received.");
    }
  }
  return raw.toString("utf8");
}

function sendEncoded(res: ServerResponse, r: CachedResponse, acceptsGzip: boolean): void {
  const gzip = acceptsGzip && r.gzip !== null;
  const body = gzip ? r.gzip! : r.json;
  const headers: Record<string, string | number> = {
    "content-type": "application/json; charset=UTF-8",
    "content-length": body.length,
    vary: "Origin, X-Origin, Referer",
  };
  if (gzip) headers["content-encoding"] = "gzip";
  res.writeHead(200, headers);
  res.end(body);
}

function sendError(res: ServerResponse, e: ApiError, extra: Record<string, string> = {}): void {
  sendJson(res, e.httpStatus, e.body(), extra);
}

function sendText(res: ServerResponse, status: number, type: string, text: string): void {
  sendBody(res, status, text, { "content-type": type });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Applies a fault that ends the exchange; returns true when the response is done. `slow` only
 * delays and lets the request go on; `failed-status` is handled by the API dispatcher.
 */
async function applyFault(res: ServerResponse, fault: Fault): Promise<boolean> {
  switch (fault.kind) {
    case "slow":
      await sleep(fault.delayMs ?? 1000);
      return false;
    case "rate-limit":
      sendError(
        res,
        new ApiError(429, "Resource has been exhausted (e.g. check quota).", "rateLimitExceeded"),
        {
          "retry-after": String(fault.retryAfter ?? 1),
        },
      );
      return true;
    case "server-error":
      sendError(res, new ApiError(500, "Internal error encountered.", "backendError"));
      return true;
    case "unavailable":
      sendError(
        res,
        new ApiError(503, "The service is currently unavailable.", "backendError"),
        fault.retryAfter !== undefined ? { "retry-after": String(fault.retryAfter) } : {},
      );
      return true;
    case "conflict":
      // What the service answers an idempotent write that is already so, and any edit of a
      // playlist created moments ago (docs/PROTOCOL.md#errors): a plain 409.
      sendError(res, new ApiError(409, "The operation was aborted.", "conflict"));
      return true;
    case "throttled":
      // Throttling that comes as a 400 rather than a 429: the quota status, with Retry-After.
      sendError(
        res,
        new ApiError(
          400,
          "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute'.",
          "rateLimitExceeded",
          "RESOURCE_EXHAUSTED",
        ),
        { "retry-after": String(fault.retryAfter ?? 1) },
      );
      return true;
    case "cut": {
      // Promise a long body, send a fragment of it, then drop the connection.
      res.writeHead(200, { "content-type": "application/json; charset=UTF-8", "content-length": "4096" });
      res.write('{"responseContext":{"serviceTrackingParams":[{"service":"CSI","params":[');
      await sleep(5);
      res.socket?.destroy();
      return true;
    }
    case "failed-status":
    case "gated":
    case "truncate":
      return false;
  }
}

function objectBody(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidArgument("Invalid JSON payload received. Unexpected token.");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw invalidArgument("Invalid JSON payload received. Expected an object at the top level.");
  }
  return parsed as Record<string, unknown>;
}

function clientContext(body: Record<string, unknown>): {
  clientName: string;
  hl: string;
  gl: string | null;
  onBehalfOfUser: unknown;
} {
  const context = body.context;
  if (context !== undefined && (context === null || typeof context !== "object")) {
    throw invalidArgument(
      "Invalid value at 'context' (type.googleapis.com/youtube.api.pfiinnertube.InnerTubeContext)",
    );
  }
  const c = (context ?? {}) as {
    client?: { clientName?: unknown; hl?: unknown; gl?: unknown };
    user?: { onBehalfOfUser?: unknown };
  };
  return {
    clientName: typeof c.client?.clientName === "string" ? c.client.clientName : "WEB_REMIX",
    hl: typeof c.client?.hl === "string" ? c.client.hl : "en",
    gl: typeof c.client?.gl === "string" ? c.client.gl : null,
    onBehalfOfUser: c.user?.onBehalfOfUser,
  };
}

/** An API request read and parsed: its body as text and as an object, the client's context, who asks. */
interface ApiInput {
  route: ApiRoute;
  text: string;
  body: Record<string, unknown>;
  client: ReturnType<typeof clientContext>;
  viewer: Viewer | null;
}

/** Reads and parses an API request, refusing it in the service's order: size, endpoint, body, credentials. */
async function readApiInput(
  state: EmulatorState,
  req: IncomingMessage,
  endpoint: string,
  route: ApiRoute | undefined,
): Promise<ApiInput> {
  const raw = await readBody(req);
  if (!route) throw notFound(`The requested URL /youtubei/v1/${endpoint} was not found on this server.`);
  const text = decodeBody(raw);
  const body = objectBody(text);
  const client = clientContext(body);
  const viewer = resolveViewer(state, req.headers, client.onBehalfOfUser);
  return { route, text, body, client, viewer };
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function settled<T>(p: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await p };
  } catch (error) {
    return { ok: false, error };
  }
}

async function handleApi(
  state: EmulatorState,
  routes: ReadonlyMap<string, ApiRoute>,
  req: IncomingMessage,
  res: ServerResponse,
  endpoint: string,
  query: URLSearchParams,
): Promise<void> {
  const known = routes.get(endpoint);
  // Unknown endpoints share one counter, so that junk paths cannot grow the table.
  count(state, known ? endpoint : "unknown");
  const logged = logRequest(state, res, known ? endpoint : "unknown", known?.write === true);
  const fault = state.faults.pick(endpoint, header(req, "x-emulator-fault"));
  // The request is read before a fault answers it, so that the log knows whose request a faulted
  // write was too; a refusal found while reading waits until the fault has had its turn.
  const input = req.method === "POST" ? await settled(readApiInput(state, req, endpoint, known)) : null;
  attributeRequest(state, logged, input?.ok ? (input.value.viewer?.account.id ?? null) : null);
  if (fault && (await applyFault(res, fault))) {
    req.resume();
    return;
  }
  if (!input) throw new ApiError(405, "Method not allowed.", "methodNotAllowed");
  if (!input.ok) throw input.error;
  const { route, text, body, client, viewer } = input.value;
  if (fault?.kind === "gated") {
    // A write behind a feature gate: HTTP 200 holding only an engagement panel (docs/PROTOCOL.md#errors).
    sendJson(res, 200, {
      responseContext: {},
      actions: [{ showEngagementPanelEndpoint: { identifier: { tag: "PAfeature_enablement" } } }],
    });
    return;
  }
  if (fault?.kind === "failed-status") {
    // A refused write: HTTP 200, a failed status, and no state change.
    sendJson(res, 200, { responseContext: {}, status: "STATUS_FAILED" });
    return;
  }
  const acceptsGzip = /\bgzip\b/.test(header(req, "accept-encoding") ?? "");
  const cacheKey =
    route.write || fault?.kind === "truncate"
      ? null
      : `${endpoint}\n${query}\n${viewer?.account.id ?? "-"}\n${Math.floor(state.now() / 86_400_000)}\n${text}`;
  const version = state.store.version;
  if (cacheKey && state.cache) {
    const hit = state.cache.get(cacheKey, version);
    if (hit) return sendEncoded(res, hit, acceptsGzip);
  }
  const ctx: ApiContext = {
    state,
    endpoint,
    query,
    body,
    headers: req.headers,
    viewer,
    clientName: client.clientName,
    language: client.hl,
    location: client.gl,
  };
  let result: unknown;
  try {
    result = route.write ? state.store.tx(() => route.handler(ctx)) : route.handler(ctx);
  } catch (e) {
    // The transaction has been rolled back; the refusal is the service's HTTP 200 answer.
    if (e instanceof Refusal) result = { responseContext: {}, ...e.body };
    else throw e;
  }
  if (fault?.kind === "truncate") result = truncateLists(result);
  // Only a read that changed nothing may be reused (a taste-profile form is a write in a browse).
  const cacheable = cacheKey !== null && state.cache !== null && state.store.version === version;
  const encoded = encodeResponse(result, acceptsGzip, cacheable);
  if (cacheable) state.cache!.set(cacheKey, version, encoded);
  sendEncoded(res, encoded, acceptsGzip);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

async function handleOAuth(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  kind: "device" | "token",
) {
  count(state, kind === "device" ? "oauth/device/code" : "oauth/token");
  const text = decodeBody(await readBody(req, MAX_FORM_BODY), MAX_FORM_BODY);
  let form: URLSearchParams;
  if ((header(req, "content-type") ?? "").includes("json")) {
    const obj = objectBody(text);
    form = new URLSearchParams(Object.entries(obj).map(([k, v]): [string, string] => [k, String(v)]));
  } else {
    form = new URLSearchParams(text);
  }
  const reply = kind === "device" ? deviceCode(state, form) : token(state, form);
  sendJson(res, reply.status, reply.body);
}

export async function route(
  state: EmulatorState,
  routes: ReadonlyMap<string, ApiRoute>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://emulator.invalid");
  const path = url.pathname;
  try {
    if (await handleSpotify(state, req, res, url)) return;
    if (await handleListenBrainz(state, req, res, url)) return;
    if (await handleLastfm(state, req, res, url)) return;
    if (path.startsWith("/youtubei/v1/")) {
      await handleApi(state, routes, req, res, path.slice("/youtubei/v1/".length), url.searchParams);
      return;
    }
    if (path.startsWith("/_emulator/")) {
      await handleControl(state, req, res, path.slice("/_emulator/".length), url.searchParams, () =>
        readBody(req),
      );
      return;
    }
    if (path === "/upload/usermusic/http" && req.method === "POST")
      return await handleUpload(state, req, res, url);
    if (path === "/o/oauth2/device/code" && req.method === "POST")
      return await handleOAuth(state, req, res, "device");
    if ((path === "/token" || path === "/o/oauth2/token") && req.method === "POST") {
      return await handleOAuth(state, req, res, "token");
    }
    if ((req.method === "GET" || req.method === "HEAD") && handlePage(state, req, res, url)) return;
    count(state, "unknown");
    throw notFound(`The requested URL ${path} was not found on this server.`);
  } catch (e) {
    answerFailure(res, e);
  }
}

/**
 * The upload host: `x-goog-upload-command: start` opens a session and answers its address in a
 * header; any other command sends the file to the session and finalizes it.
 */
async function handleUpload(state: EmulatorState, req: IncomingMessage, res: ServerResponse, url: URL) {
  const command = (header(req, "x-goog-upload-command") ?? "").toLowerCase();
  if (command === "start") {
    count(state, "upload/start");
    const fault = state.faults.pick("upload/start", header(req, "x-emulator-fault"));
    if (fault && (await applyFault(res, fault))) return;
    const form = new URLSearchParams(decodeBody(await readBody(req, MAX_FORM_BODY), MAX_FORM_BODY));
    const r = uploadStart(state, req.headers, form, url.searchParams);
    res.writeHead(200, {
      "x-goog-upload-url": r.uploadUrl,
      "x-goog-upload-status": "active",
      "content-length": "0",
    });
    res.end();
    return;
  }
  count(state, "upload/finalize");
  const fault = state.faults.pick("upload/finalize", header(req, "x-emulator-fault"));
  if (fault && (await applyFault(res, fault))) return;
  await uploadFinalize(state, req, res, url.searchParams);
}

/**
 * The GET pages: the start page, the player script, the `/playlist` page, the streams and the
 * playback tracking address. False when the path is none of them.
 */
function handlePage(state: EmulatorState, req: IncomingMessage, res: ServerResponse, url: URL): boolean {
  const path = url.pathname;
  if (path === "/") {
    count(state, "GET /");
    sendText(res, 200, "text/html; charset=utf-8", startPage(state));
    return true;
  }
  if (path.startsWith("/s/player/") && path.endsWith("/base.js")) {
    count(state, "GET base.js");
    sendText(res, 200, "text/javascript", basejs(state));
    return true;
  }
  if (path === "/playlist") {
    count(state, "GET /playlist");
    sendText(res, 200, "text/html; charset=utf-8", playlistHtml(state, url.searchParams.get("list") ?? ""));
    return true;
  }
  if (path === "/videoplayback") {
    count(state, "GET /videoplayback");
    sendStream(res, videoplayback(state, url.searchParams, header(req, "range")));
    return true;
  }
  if (path === "/api/stats/playback") {
    count(state, "GET /api/stats/playback");
    recordPlayback(state, req.headers, url.searchParams);
    res.writeHead(204);
    res.end();
    return true;
  }
  return false;
}

/**
 * Writes a stream answer: the stream host's bare statuses for refusals (no JSON body), else the
 * bytes, made as they are sent, so a long episode costs no more memory than a short song.
 */
function sendStream(res: ServerResponse, answer: StreamAnswer): void {
  if (!answer.body) {
    res.writeHead(answer.status, { ...answer.headers, "content-length": "0" });
    res.end();
    return;
  }
  res.writeHead(answer.status, answer.headers);
  const { videoId, itag, range } = answer.body;
  if (res.req.method === "HEAD" || !range) {
    res.end();
    return;
  }
  pipeline(Readable.from(streamBytes(videoId, itag, range)), res).catch(() => res.socket?.destroy());
}

/**
 * Any failure as the service's error format: an ApiError as itself, anything else (an emulator
 * bug) as a 500 that still looks like the service failing, never like a dropped socket. Once the
 * headers are out, only dropping the connection is left.
 */
function answerFailure(res: ServerResponse, e: unknown): void {
  if (res.headersSent) {
    res.socket?.destroy();
    return;
  }
  if (e instanceof ApiError) {
    sendError(res, e);
  } else {
    process.emitWarning(`emulator: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    sendError(res, new ApiError(500, "Internal error encountered.", "backendError"));
  }
}

/**
 * Requests Node refuses before any handler runs (headers over `maxHeaderSize`, a malformed request
 * line, a stalled request) get their answer in the service's error format too, not Node's bare
 * status line; the connection is then closed, as the parser cannot go on.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || err.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  const e =
    err.code === "HPE_HEADER_OVERFLOW"
      ? new ApiError(431, `Request header fields exceed the limit: ${MAX_HEADER_SIZE} bytes.`)
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? new ApiError(408, "The request timed out.")
        : invalidArgument("The request could not be parsed.");
  const text = JSON.stringify(e.body());
  socket.end(
    `HTTP/1.1 ${e.httpStatus} ${STATUS_CODES[e.httpStatus]}\r\n` +
      "content-type: application/json; charset=UTF-8\r\n" +
      `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}

export function createEmulatorServer(state: EmulatorState, routes: ReadonlyMap<string, ApiRoute>): Server {
  const server = createServer({ maxHeaderSize: MAX_HEADER_SIZE }, (req, res) => {
    route(state, routes, req, res).catch(() => res.socket?.destroy());
  });
  server.on("clientError", answerClientError);
  server.keepAliveTimeout = 30_000;
  return server;
}
