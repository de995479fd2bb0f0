/**
 * One JSON request to another music service (Spotify, ListenBrainz, Last.fm), as their readers
 * need it: "not now" answers (429 with Retry-After, the throttling 5xx, a dropped connection)
 * waited out and tried again within bounds, anything else handed back for the service's reader to
 * explain in that service's own terms. What leaves here never holds a credential: an error names
 * the service, the status and the address without its query (Last.fm's key travels in the query),
 * and the callers register their tokens and keys with the engine's scrubber besides.
 */
import { request } from "undici";
import {
  parseRetryAfter,
  RETRYABLE_NETWORK_CODES,
  RETRYABLE_STATUSES,
  type RetryBounds,
  retryDelay,
} from "../../shared/retry.js";

/** A read of another service that failed: its name, the HTTP status (null: no answer), and why. */
export class ServiceReadError extends Error {
  readonly service: string;
  readonly status: number | null;

  constructor(service: string, status: number | null, message: string, options: { cause?: unknown } = {}) {
    super(`${service}: ${message}`, options);
    this.name = "ServiceReadError";
    this.service = service;
    this.status = status;
  }
}

export interface ServiceRequest {
  url: URL;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

export interface ServiceAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; null for an empty one (204). */
  json: unknown;
}

export interface ServiceHttp {
  sleep(ms: number): Promise<void>;
  now(): number;
  random?(): number;
  /** How many times to ask and how long to wait at most. */
  retry?: RetryBounds;
}

/**
 * Waits are bounded in total: a service asking for a longer pause than this (Last.fm's and
 * Spotify's rate limits can say minutes) fails the read with a message saying so, and the next
 * scheduled run tries again, rather than holding the account's lock for that long.
 */
export const SERVICE_RETRY: RetryBounds = Object.freeze({
  attempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  totalMs: 60_000,
});

/** A body larger than this is refused: no list page of these services comes near it. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

/** The address as errors show it: no query, where keys and tokens may travel. */
export function shownAddress(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

async function once(service: string, req: ServiceRequest): Promise<ServiceAnswer> {
  const res = await request(req.url, {
    method: req.method ?? "GET",
    headers: { accept: "application/json", ...req.headers },
    ...(req.body !== undefined ? { body: req.body } : {}),
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  const length = Number(res.headers["content-length"] ?? 0);
  if (length > MAX_BODY_BYTES) {
    await res.body.dump();
    throw new ServiceReadError(service, res.statusCode, `${shownAddress(req.url)} answered ${length} bytes`);
  }
  const text = await res.body.text();
  if (text.length > MAX_BODY_BYTES) {
    throw new ServiceReadError(service, res.statusCode, `${shownAddress(req.url)} answered too much`);
  }
  return {
    status: res.statusCode,
    headers: res.headers,
    json: parsed(service, req.url, res.statusCode, text),
  };
}

function parsed(service: string, url: URL, status: number, text: string): unknown {
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    // An error page in HTML (a proxy's, a gateway's) is not a reason to say more than its status.
    if (status >= 400) return null;
    throw new ServiceReadError(service, status, `${shownAddress(url)} did not answer JSON`);
  }
}

/** One header of an answer (the first, when the service repeated it). */
export function answerHeader(a: ServiceAnswer, name: string): string | undefined {
  const v = a.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
const header = answerHeader;

function networkCode(e: unknown): string | null {
  const code = (e as { code?: unknown })?.code ?? (e as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === "string" ? code : null;
}

/**
 * Sends `req` until the service answers something other than "not now", within `deps.retry`.
 * Returns that answer, whatever its status: the caller reads the service's own error shape. Throws
 * ServiceReadError when the service kept saying "not now", or could not be reached.
 */
export async function serviceJson(
  service: string,
  req: ServiceRequest,
  deps: ServiceHttp,
): Promise<ServiceAnswer> {
  const bounds = deps.retry ?? SERVICE_RETRY;
  const started = deps.now();
  for (let attempt = 1; ; attempt++) {
    let answer: ServiceAnswer | null = null;
    let failure: unknown = null;
    try {
      answer = await once(service, req);
    } catch (e) {
      if (e instanceof ServiceReadError) throw e;
      failure = e;
    }
    const code = failure ? networkCode(failure) : null;
    const again = answer
      ? RETRYABLE_STATUSES.includes(answer.status)
      : code !== null && retryableNetwork(code);
    if (answer && !again) return answer;
    const wait = again
      ? retryDelay(
          bounds,
          attempt,
          deps.now() - started,
          answer ? retryAfter(answer, deps) : undefined,
          deps.random,
        )
      : null;
    if (wait === null) throw gaveUp(service, req.url, answer, failure, attempt);
    await deps.sleep(wait);
  }
}

function retryableNetwork(code: string): boolean {
  return RETRYABLE_NETWORK_CODES.has(code) || code === "ECONNREFUSED" || code === "UND_ERR_HEADERS_TIMEOUT";
}

function retryAfter(a: ServiceAnswer, deps: ServiceHttp): number | undefined {
  return parseRetryAfter(header(a, "retry-after"), deps.now()) ?? windowReset(a);
}

/**
 * ListenBrainz says how long its rate limit lasts in `X-RateLimit-Reset-In` (seconds) rather than
 * Retry-After; read only on a 429, where it is the wait asked for (on any other answer it is just
 * the window's end).
 */
function windowReset(a: ServiceAnswer): number | undefined {
  const v = header(a, "x-ratelimit-reset-in");
  return a.status === 429 && v !== undefined && /^\d+$/.test(v.trim()) ? Number(v) * 1000 : undefined;
}

function gaveUp(
  service: string,
  url: URL,
  answer: ServiceAnswer | null,
  failure: unknown,
  attempts: number,
): ServiceReadError {
  const where = shownAddress(url);
  if (!answer) {
    const code = networkCode(failure);
    return new ServiceReadError(service, null, `${where} could not be reached (${code ?? "no answer"})`);
  }
  const tries = attempts === 1 ? "" : ` after ${attempts} tries`;
  if (answer.status === 429) {
    // The parsed wait, not the header's text: what a service sends is not echoed into messages.
    const after = parseRetryAfter(header(answer, "retry-after")) ?? windowReset(answer);
    const asked = after !== undefined ? `; it asks to wait ${Math.ceil(after / 1000)} s` : "";
    return new ServiceReadError(service, 429, `${where} is rate limited (HTTP 429)${tries}${asked}`);
  }
  return new ServiceReadError(service, answer.status, `${where} answered HTTP ${answer.status}${tries}`);
}
