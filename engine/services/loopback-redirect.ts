/**
 * The local end of an OAuth sign-in (RFC 8252 §7.3): a server on 127.0.0.1 only, waiting a
 * bounded time for the browser to come back to `http://127.0.0.1:<port><path>` with the `state`
 * this sign-in sent. Only the first callback that brings that state is taken; the server then
 * closes. Everything else is turned away without effect: another path or method a plain 404; a
 * request naming another host a 404 (a web page in the person's browser may aim at the port:
 * DNS rebinding sends its own host name); a callback with another state (a forged or stale
 * redirect) a short page saying so; a request too long to be a redirect a 404 too. Each refusal
 * that matters is also told to the person (`onRefused`), in words that quote nothing of the request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** What the redirect brought back. */
export type RedirectOutcome =
  | { kind: "code"; code: string }
  /** The service's error word (e.g. `access_denied`), reduced to [a-z_]. */
  | { kind: "error"; error: string };

export interface RedirectOptions {
  /** 0: a free port the system picks. */
  port: number;
  /** The callback's path, e.g. `/callback`. */
  path: string;
  /** The unguessable value the callback must bring back. */
  state: string;
  timeoutMs: number;
  /** Told of each request turned away that a person should know of. */
  onRefused?: (why: string) => void;
}

export interface RedirectListener {
  /** `http://127.0.0.1:<port><path>`: what the authorize address names. */
  redirectUri: string;
  /** The first callback with the state; rejects with RedirectTimeoutError when none comes in time. */
  outcome: Promise<RedirectOutcome>;
  /** Stops listening and ends every connection (idempotent). */
  close(): Promise<void>;
}

/** No callback came back in time. */
export class RedirectTimeoutError extends Error {
  constructor(readonly seconds: number) {
    super(`no sign-in came back within ${seconds} s`);
    this.name = "RedirectTimeoutError";
  }
}

/** The port could not be listened on; the message says why in a person's words. */
export class RedirectListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RedirectListenError";
  }
}

/** A real redirect is a few hundred characters; a much longer request line is not one. */
export const MAX_REQUEST_LINE = 4096;
/** Bounds on what a connection may hold the server for: a browser sends its request at once. */
const HEADERS_TIMEOUT_MS = 10_000;
const CLOSE_GRACE_MS = 1_000;

const PAGES = {
  done: "Signed in. You can close this tab and go back to the terminal.\n",
  denied: "The sign-in was not completed: access was not allowed. The terminal says what to do.\n",
  failed: "The sign-in was not completed. The terminal says why.\n",
  wrongState:
    "This is not the sign-in the terminal is waiting for (its state does not match). " +
    "Open the address the terminal printed, and approve there.\n",
  notFound: "Not found\n",
} as const;

function answer(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    connection: "close",
  });
  res.end(text);
}

/** The service's error word, reduced to what such words are made of (never the request's text as sent). */
function errorWord(value: string): string {
  const word = value
    .toLowerCase()
    .replace(/[^a-z_]/g, "")
    .slice(0, 40);
  return word === "" ? "unknown_error" : word;
}

/** What one request gets: its answer, what the person is told, and the outcome when it is the callback. */
interface Verdict {
  status: number;
  page: string;
  told?: string;
  outcome?: RedirectOutcome;
}

/** The answer to one request (pure: the server only applies it). */
export function verdict(
  req: Pick<IncomingMessage, "method" | "url" | "headers">,
  w: { host: string; path: string; state: string; taken: boolean },
): Verdict {
  const notFound = { status: 404, page: PAGES.notFound };
  if (w.taken)
    return { ...notFound, told: "a second callback came after the sign-in was taken; it was turned away" };
  if ((req.headers.host ?? "").toLowerCase() !== w.host)
    return {
      ...notFound,
      told: `a request for another host than ${w.host} was turned away (a web page may have tried to reach this sign-in)`,
    };
  const target = req.url ?? "";
  if (target.length > MAX_REQUEST_LINE)
    return {
      ...notFound,
      told: `a request longer than ${MAX_REQUEST_LINE} characters was turned away: it is no sign-in redirect`,
    };
  let url: URL;
  try {
    url = new URL(target, `http://${w.host}`);
  } catch {
    return notFound;
  }
  if (req.method !== "GET" || url.pathname !== w.path) return notFound;
  const q = url.searchParams;
  if (q.getAll("state").length !== 1 || q.get("state") !== w.state)
    return {
      status: 400,
      page: PAGES.wrongState,
      told:
        "a callback with another state than this sign-in sent was turned away (a stale or forged redirect); " +
        "open the address printed above",
    };
  const error = q.get("error");
  const code = q.get("code");
  if (error === null && code !== null && code !== "" && q.getAll("code").length === 1)
    return { status: 200, page: PAGES.done, outcome: { kind: "code", code } };
  const word = error !== null ? errorWord(error) : "no_code";
  return {
    status: 200,
    page: word === "access_denied" ? PAGES.denied : PAGES.failed,
    outcome: { kind: "error", error: word },
  };
}

/**
 * Listens on 127.0.0.1:`port` and waits for the callback. Throws RedirectListenError when the port
 * cannot be had (in use, not allowed).
 */
export async function listenForRedirect(o: RedirectOptions): Promise<RedirectListener> {
  const told = o.onRefused ?? (() => {});
  const sockets = new Set<Socket>();
  let taken = false;
  let settle: { resolve(r: RedirectOutcome): void; reject(e: Error): void } | null = null;
  const outcome = new Promise<RedirectOutcome>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Nothing may leave the rejection unhandled when the caller has stopped listening to it.
  outcome.catch(() => {});
  let host = "";

  // Set once the server listens (below); `handle` runs only after that.
  let close: () => Promise<void> = async () => {};

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const v = verdict(req, { host, path: o.path, state: o.state, taken });
    if (v.told) told(v.told);
    if (v.outcome) {
      taken = true;
      res.on("finish", () => void close());
    }
    answer(res, v.status, v.page);
    if (v.outcome) settle?.resolve(v.outcome);
  };

  const server = createServer(
    { maxHeaderSize: 16 * 1024, headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: HEADERS_TIMEOUT_MS },
    handle,
  );
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  // Node answers a request over its header limit itself; the person hears of it too.
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    if (err.code === "HPE_HEADER_OVERFLOW" || err.code === "HPE_URI_TOO_LONG")
      told("a request too large to be a sign-in redirect was turned away");
    if (socket.writable)
      socket.end(
        "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n" +
          `Content-Length: ${PAGES.notFound.length}\r\n\r\n${PAGES.notFound}`,
      );
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => reject(listenError(e, o.port)));
    server.listen({ host: "127.0.0.1", port: o.port, exclusive: true }, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  host = `127.0.0.1:${port}`;

  let closed: Promise<void> | null = null;
  close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      clearTimeout(timer);
      server.close(() => resolve());
      // Ended, not cut: an answer on its way still reaches the browser; a peer that keeps its
      // end open is cut a moment later.
      for (const s of sockets) {
        s.end();
        setTimeout(() => s.destroy(), CLOSE_GRACE_MS).unref();
      }
    });
    return closed;
  };
  const timer = setTimeout(() => {
    taken = true;
    settle?.reject(new RedirectTimeoutError(Math.round(o.timeoutMs / 1000)));
  }, o.timeoutMs);
  // A time-out ends the wait at once; a callback once its answer is sent (see `handle`).
  outcome.catch(() => void close());
  return { redirectUri: `http://${host}${o.path}`, outcome, close };
}

function listenError(e: NodeJS.ErrnoException, port: number): RedirectListenError {
  if (e.code === "EADDRINUSE")
    return new RedirectListenError(
      `port ${port} of 127.0.0.1 is in use: free it, or choose another with --port`,
    );
  if (e.code === "EACCES")
    return new RedirectListenError(
      `port ${port} of 127.0.0.1 may not be listened on here: choose one above 1023`,
    );
  return new RedirectListenError(`cannot listen on 127.0.0.1:${port} (${e.code ?? "error"})`);
}
