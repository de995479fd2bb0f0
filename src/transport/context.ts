import { setTimeout as sleep } from "node:timers/promises";
import { Agent, type Dispatcher, ProxyAgent } from "undici";
import type { PieceIndex } from "../../shared/piece-index.js";
import { Redactor } from "../../shared/redact.js";
import {
  DEFAULT_RETRY,
  parseRetryAfter,
  RETRYABLE_NETWORK_CODES,
  type RetryPolicy,
  retryDelay,
} from "../../shared/retry.js";
import {
  API_KEY,
  API_PATH,
  CLIENT_NAME,
  CLIENT_NAME_ID,
  CONSENT_COOKIE,
  clientVersion,
  LANGUAGES,
  LOCATIONS,
  SERVICE_ORIGIN,
  UPLOAD_ORIGIN,
  USER_AGENT,
} from "../../shared/wire/constants.js";
import { resolveAuth } from "../auth/index.js";
import type { AuthProvider } from "../auth/types.js";
import {
  ArgumentError,
  AuthError,
  ErrorCodes,
  MusicApiError,
  ParseError,
  RateLimitError,
  ServiceError,
} from "../errors.js";
import { decodeBody, toTransportError } from "../http.js";
import { type Logger, silentLogger } from "../logger.js";
import type { MusicClientOptions } from "../options.js";
import { isObject, type JsonObject } from "../parsers/nav.js";
import type { ParseNotes } from "../parsers/notes.js";
import { collect } from "./collect.js";
import { asciiJsonText } from "./json-text.js";
import type { OperationContext, RawRequest, RawResponse, SendOptions } from "./operation-context.js";
import { readRefusal } from "./refusals.js";

/** Settings checked and fixed at construction. */
interface Settings {
  origin: string;
  uploadOrigin: string;
  language: string;
  location: string;
  user: string | undefined;
  timeoutMs: number;
  retry: RetryPolicy | null;
  logger: Logger;
}

function checkSettings(options: MusicClientOptions): Settings {
  const language = options.language ?? "en";
  if (!LANGUAGES.includes(language)) {
    throw new ArgumentError(
      "language",
      `"${language}" is not supported; use one of: ${LANGUAGES.join(", ")}`,
    );
  }
  const location = options.location ?? "";
  if (location !== "" && !LOCATIONS.includes(location)) {
    throw new ArgumentError(
      "location",
      `"${location}" is not supported; use one of: ${LOCATIONS.join(", ")}`,
    );
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new ArgumentError("timeoutMs", "must be a positive number of milliseconds");
  }
  if (options.user !== undefined && (typeof options.user !== "string" || options.user.trim() === "")) {
    throw new ArgumentError("user", "must be a brand account id (a non-empty string)");
  }
  return {
    origin: originOf("baseUrl", options.baseUrl ?? SERVICE_ORIGIN),
    uploadOrigin: originOf("uploadUrl", options.uploadUrl ?? UPLOAD_ORIGIN),
    language,
    location,
    user: options.user,
    timeoutMs,
    retry: options.retry === false ? null : { ...DEFAULT_RETRY, ...options.retry },
    logger: options.logger ?? silentLogger,
  };
}

function originOf(argument: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ArgumentError(argument, `"${value}" is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ArgumentError(argument, "must be an http or https URL");
  }
  return value.replace(/\/+$/, "");
}

/**
 * How requests leave: a keep-alive agent by default, the caller's dispatcher, a proxy, or (with
 * `dispatcher: false`) a fresh connection per request that is closed afterwards.
 */
interface Connections {
  /** A dispatcher for one request, and what to do when the request is over. */
  acquire(): { dispatcher: Dispatcher; release(): Promise<void> };
  /** A long-lived dispatcher for auth refreshes (undefined = undici's global one). */
  shared: Dispatcher | undefined;
}

function connections(options: MusicClientOptions, timeoutMs: number): Connections {
  const timeouts = { headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
  if (options.dispatcher === false) {
    const fresh = (): Dispatcher =>
      options.proxy
        ? new ProxyAgent({ uri: options.proxy, ...timeouts })
        : new Agent({ ...timeouts, pipelining: 0 });
    return {
      acquire() {
        const dispatcher = fresh();
        return { dispatcher, release: () => dispatcher.close() };
      },
      shared: undefined,
    };
  }
  const shared =
    options.dispatcher ??
    (options.proxy ? new ProxyAgent({ uri: options.proxy, ...timeouts }) : new Agent(timeouts));
  const noop = async (): Promise<void> => {};
  return { acquire: () => ({ dispatcher: shared, release: noop }), shared };
}

/**
 * An answer as `exchange` gives it: also the bytes its text is decoded from (on the first `text()`),
 * for the scrub and for `json`, and where in them the text starts (after a byte order mark).
 */
interface Answer extends RawResponse {
  bytes: Buffer;
  textStart: number;
}

const compressed = (encoding: string | undefined): encoding is string =>
  encoding !== undefined && encoding !== "identity";

/**
 * A body's text from its (decompressed) bytes. An uncompressed body's UTF-8 byte order mark is left
 * out, as undici's `text()` left it out; a decompressed body's stays, as `toString` always kept it.
 */
function textStart(bytes: Buffer, encoding: string | undefined): number {
  const bom =
    !compressed(encoding) && bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bom ? 3 : 0;
}

/**
 * A compressed body's bytes as the service wrote them. Bytes that do not decompress (corrupt, cut
 * short, or not compressed at all) arrived whole but say nothing readable: like a body that is not
 * JSON, a ParseError, not the connection failure zlib's bare message would be taken for.
 */
function decompressed(operation: string, bytes: Buffer, encoding: string): Buffer {
  try {
    return decodeBody(bytes, encoding);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // Only gzip, deflate and br are decoded (and can throw): the name printed is one of those.
    const name = encoding.trim().toLowerCase();
    throw new ParseError("(body)", `the response does not decompress as ${name} (${reason})`, { operation });
  }
}

const VISITOR_PATTERN = /ytcfg\.set\s*\(\s*(\{.+?\})\s*\)\s*;/;

/** The one transport every operation goes through; it is also the OperationContext operations see. */
class Transport implements OperationContext {
  readonly language: string;
  readonly origin: string;
  readonly logger: Logger;
  private readonly settings: Settings;
  private readonly auth: AuthProvider | null;
  private readonly conns: Connections;
  private readonly redactor: Redactor;
  /** Undefined until fetched; null when the service gave none (then the header is left out). */
  private visitorId: Promise<string | null> | undefined;

  constructor(options: MusicClientOptions) {
    this.settings = checkSettings(options);
    this.language = this.settings.language;
    this.origin = this.settings.origin;
    this.logger = this.settings.logger;
    this.conns = connections(options, this.settings.timeoutMs);
    this.auth = resolveAuth(options.auth, {
      oauthCredentials: options.oauthCredentials,
      dispatcher: this.conns.shared,
      timeoutMs: this.settings.timeoutMs,
      logger: this.logger,
    });
    this.redactor = new Redactor(() => this.auth?.secrets() ?? []);
  }

  get authKind() {
    return this.auth?.kind ?? null;
  }

  get authUser(): string {
    return this.auth?.authUser ?? "0";
  }

  requireAuth(operation: string): void {
    if (this.auth === null) {
      throw new AuthError(
        ErrorCodes.AUTH_REQUIRED,
        "this operation needs credentials; construct the client with `auth` (see `setup` or `setupOAuth`)",
        { operation },
      );
    }
  }

  notes(operation: string): ParseNotes {
    return {
      unknownRenderer: (renderer, where) =>
        this.logger.warn({ operation, renderer, where }, "skipped a renderer the parser does not know"),
    };
  }

  redact<T>(value: T): T {
    if (typeof value === "string") return this.redactor.text(value) as T;
    return value instanceof Error ? this.redactor.error(value) : this.redactor.value(value);
  }

  secretIndex(): PieceIndex {
    return this.redactor.ready();
  }

  /** The request body: the operation's fields plus the client context (docs/PROTOCOL.md#the-request-context). */
  private body(options: SendOptions): JsonObject {
    const client: JsonObject = {
      clientName: options.client?.clientName ?? CLIENT_NAME,
      clientVersion: options.client?.clientVersion ?? clientVersion(),
      hl: this.settings.language,
    };
    if (this.settings.location !== "") client.gl = this.settings.location;
    const user: JsonObject = {};
    if (this.settings.user !== undefined) user.onBehalfOfUser = this.settings.user;
    return { ...options.body, context: { client, user } };
  }

  /** The header set of one request (docs/PROTOCOL.md#headers), with credentials when the client has them. */
  private async headers(operation: string): Promise<Record<string, string>> {
    const headers: Record<string, string> = {
      "user-agent": USER_AGENT,
      accept: "*/*",
      "accept-encoding": "gzip, deflate",
      "content-type": "application/json",
      origin: SERVICE_ORIGIN,
      "x-youtube-client-name": CLIENT_NAME_ID,
      "x-youtube-client-version": clientVersion(),
    };
    if (this.auth !== null) Object.assign(headers, await this.auth.headers());
    if (headers["x-goog-visitor-id"] === undefined) {
      const visitor = await this.visitor(operation);
      if (visitor) headers["x-goog-visitor-id"] = visitor;
    }
    // Without a pasted cookie header, the consent cookie keeps EU requests off the consent page.
    if (headers.cookie === undefined) headers.cookie = CONSENT_COOKIE;
    return headers;
  }

  /** The visitor id, fetched once from the service's start page; a failure only means no header. */
  private visitor(operation: string): Promise<string | null> {
    this.visitorId ??= this.fetchVisitor().catch((error: unknown) => {
      this.logger.debug(
        { operation, reason: error instanceof Error ? this.redactor.text(error.message) : String(error) },
        "no visitor id; continuing without it",
      );
      return null;
    });
    return this.visitorId;
  }

  private async fetchVisitor(): Promise<string | null> {
    const response = await this.exchange("visitor_id", "GET", `${this.origin}/`, {
      "user-agent": USER_AGENT,
      accept: "*/*",
      "accept-encoding": "gzip, deflate",
      cookie: CONSENT_COOKIE,
    });
    if (response.status >= 400) return null;
    const match = VISITOR_PATTERN.exec(await response.text());
    if (!match?.[1]) return null;
    const config: unknown = JSON.parse(match[1]);
    const value = isObject(config) ? config.VISITOR_DATA : undefined;
    return typeof value === "string" && value !== "" ? value : null;
  }

  private url(endpoint: string, additionalParams = ""): string {
    const key = this.auth?.sendsApiKey ? `&key=${API_KEY}` : "";
    return `${this.origin}${API_PATH}${endpoint}?alt=json&prettyPrint=false${key}${additionalParams}`;
  }

  /**
   * Sends one InnerTube request. Whatever comes back (the parsed body, or any error) has the
   * client's credentials scrubbed out, so no caller ever holds one the service echoed back.
   */
  async send(options: SendOptions): Promise<unknown> {
    try {
      // The body was scrubbed as text before it was parsed (see `json`).
      return await this.sendWithRetries(options);
    } catch (error) {
      throw this.redactor.error(error);
    }
  }

  private async sendWithRetries(options: SendOptions): Promise<unknown> {
    const { operation } = options;
    const payload = JSON.stringify(this.body(options));
    const url = this.url(options.endpoint, options.additionalParams);
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      let failure: MusicApiError;
      try {
        const response = await this.authenticated(operation, (headers) =>
          this.exchange(operation, "POST", url, headers, payload),
        );
        if (response.status < 400) {
          const body = this.json(operation, response.bytes, response.textStart);
          // A read refused with HTTP 200 (failed status, gate panel) fails typed, before any parser;
          // writes keep their answer, which their operations judge themselves.
          const refusal = options.write ? undefined : readRefusal(operation, body);
          if (refusal) throw refusal;
          return body;
        }
        throw this.httpError(operation, response, await response.text());
      } catch (error) {
        if (!this.retryable(error)) throw error;
        failure = error;
      }
      const policy = this.settings.retry;
      const retryAfterMs = failure instanceof ServiceError ? failure.retryAfterMs : undefined;
      const delay =
        options.write || policy === null
          ? null
          : retryDelay(policy, attempt, Date.now() - started, retryAfterMs);
      if (delay === null) throw failure;
      this.logger.warn(
        { operation, endpoint: options.endpoint, attempt, delayMs: delay, code: failure.code },
        "retrying a read",
      );
      await sleep(delay);
    }
  }

  /**
   * One exchange with the request's headers. An OAuth token the service refuses (401) is refreshed
   * and the request sent once more, writes included (a 401 means nothing was done): a token can be
   * revoked or cut short before the expiry the client counts down to. Browser headers cannot be
   * renewed, so their 401 stands.
   */
  private async authenticated(
    operation: string,
    exchange: (headers: Record<string, string>) => Promise<Answer>,
  ): Promise<Answer> {
    const headers = await this.headers(operation);
    const response = await exchange(headers);
    if (response.status !== 401 || this.auth?.renew === undefined) return response;
    this.logger.info(
      { operation },
      "the service refused the OAuth token; refreshing it and trying once more",
    );
    await this.auth.renew(headers);
    return exchange(await this.headers(operation));
  }

  /** A status the policy lists, or a connection reset: the request may be sent again (reads only). */
  private retryable(error: unknown): error is MusicApiError {
    const policy = this.settings.retry;
    if (policy === null || !(error instanceof MusicApiError)) return false;
    if (error instanceof ServiceError)
      return error.status !== undefined && policy.statuses.includes(error.status);
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    return (
      error.code === ErrorCodes.CONNECTION && typeof code === "string" && RETRYABLE_NETWORK_CODES.has(code)
    );
  }

  /**
   * The body (its bytes from `start`) parsed, with the client's credentials scrubbed out. Scrubbing
   * the text once, before parsing, costs one scan of its bytes and nothing more when it holds no
   * credential (every real answer); walking the parsed value instead costs a visit of every node of
   * every response. The text parsed is ASCII, non-ASCII characters written as escapes, whenever
   * the scrub allows it (json-text.ts says why). Should a cut ever leave text that no longer
   * parses, the parsed original is scrubbed node by node instead.
   */
  private json(operation: string, bytes: Buffer, start: number): unknown {
    let text: string | undefined;
    const exact = () => (text ??= bytes.toString("utf8", start));
    const scrubbed = this.redactor.jsonBody(bytes, (needed) =>
      needed ? exact() : (asciiJsonText(bytes, start) ?? exact()),
    );
    try {
      return JSON.parse(scrubbed);
    } catch {
      // Not JSON as sent either: fall through to the typed error.
    }
    try {
      return this.redactor.value(JSON.parse(exact()));
    } catch {
      throw new ParseError("(body)", "the response is not JSON", { operation });
    }
  }

  /** A typed error for an HTTP error status, with the service's own message (credentials scrubbed). */
  private httpError(operation: string, response: RawResponse, text: string): MusicApiError {
    let serviceMessage: string | undefined;
    let serviceStatus: string | undefined;
    try {
      const body: unknown = JSON.parse(text);
      const error = isObject(body) && isObject(body.error) ? body.error : undefined;
      if (typeof error?.message === "string") serviceMessage = this.redactor.text(error.message);
      if (typeof error?.status === "string") serviceStatus = this.redactor.text(error.status);
    } catch {
      // A non-JSON error page: the status alone says what happened.
    }
    const status = response.status;
    const message = `the service answered HTTP ${status}${serviceMessage ? `: ${serviceMessage}` : ""}`;
    const retryAfterMs = parseRetryAfter(response.headers["retry-after"]);
    const details = { operation, status, serviceMessage, serviceStatus, retryAfterMs };
    if (status === 429) return new RateLimitError(message, retryAfterMs, details);
    if (status === 401 && this.auth !== null) {
      return new AuthError(ErrorCodes.AUTH_EXPIRED, `the service refused the credentials (${message})`, {
        operation,
      });
    }
    return new ServiceError(ErrorCodes.HTTP_ERROR, message, details);
  }

  /** One HTTP exchange: connection errors and time-outs become TransportErrors, bodies are decoded. */
  private async exchange(
    operation: string,
    method: "GET" | "POST",
    url: string,
    headers: Record<string, string>,
    body?: RawRequest["body"],
  ): Promise<Answer> {
    const { dispatcher, release } = this.conns.acquire();
    try {
      const { origin } = new URL(url);
      // The whole body is read inside the time-out handling.
      const response = await collect(dispatcher, {
        origin,
        path: url.slice(origin.length),
        method,
        headers,
        body: body as Dispatcher.DispatchOptions["body"],
        headersTimeout: this.settings.timeoutMs,
        bodyTimeout: this.settings.timeoutMs,
      });
      const responseHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) {
          responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
        }
      }
      const encoding = responseHeaders["content-encoding"];
      const bytes = compressed(encoding) ? decompressed(operation, response.body, encoding) : response.body;
      const start = textStart(bytes, encoding);
      // Decoded when first asked: a JSON answer is read as ASCII text instead (`json`).
      let text: string | undefined;
      const decoded = async () => (text ??= bytes.toString("utf8", start));
      return {
        status: response.statusCode,
        headers: responseHeaders,
        text: decoded,
        bytes,
        textStart: start,
      };
    } catch (error) {
      throw toTransportError(error, operation, this.settings.timeoutMs, this.redactor);
    } finally {
      await release();
    }
  }

  /** A plain HTTP exchange; the answer's headers and text come back scrubbed, as send's do. */
  async raw(request: RawRequest): Promise<RawResponse> {
    let response: Answer;
    try {
      response = await this.rawExchange(request);
    } catch (error) {
      throw this.redactor.error(error);
    }
    const text = this.redactor.body(await response.text(), response.bytes);
    return {
      status: response.status,
      headers: this.redactor.value(response.headers),
      text: async () => text,
    };
  }

  private async rawExchange(request: RawRequest): Promise<Answer> {
    const headers: Record<string, string> = request.authenticated
      ? await this.headers(request.operation)
      : {
          "user-agent": USER_AGENT,
          accept: "*/*",
          "accept-encoding": "gzip, deflate",
          cookie: CONSENT_COOKIE,
        };
    if (!request.authenticated) delete headers["content-type"];
    Object.assign(headers, request.headers);
    return this.exchange(request.operation, request.method, request.url, headers, request.body);
  }

  get uploadOrigin(): string {
    return this.settings.uploadOrigin;
  }
}

/** Builds the context a MusicClient's operations run in; all arguments are checked here. */
export function createContext(options: MusicClientOptions): OperationContext {
  return new Transport(options);
}
