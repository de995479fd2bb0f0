/**
 * The status page's HTTP server (node:http): access control, then the route. Safe by default: it
 * listens on 127.0.0.1, refuses any other address without an access token (and any token shorter
 * than 16 characters), answers only to its own address (engine/web/host-check.ts), takes writes
 * only from its own pages, limits wrong tokens, answers every bad request with a 4xx page and every
 * failure with a page that holds no stack.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { networkInterfaces } from "node:os";
import { engineScrubber } from "../output/scrub.js";
import { ActionRefused, describeAction, isActionKind, performAction } from "./actions.js";
import type { WebHost } from "./host.js";
import {
  type HostName,
  type HostPolicy,
  hostAllowed,
  hostPolicy,
  isLoopback,
  writeSource,
} from "./host-check.js";
import { cookie, HttpError, readForm, segmentsOf, send, sendError, sendText } from "./http-io.js";
import { confirmPage, resultPage } from "./message-pages.js";
import { RateLimit, SignInLimit } from "./rate-limit.js";
import * as routes from "./routes.js";
import { Secrets } from "./secrets.js";

export interface WebOptions {
  /** `127.0.0.1:8484`, `[::1]:8484`, `0.0.0.0:8484`, or a port alone (on 127.0.0.1). */
  address: string;
  /** Required on any address but loopback. */
  token: string | null;
  /** Names besides the bound address the page answers to (a reverse proxy's): `--http-hosts`. */
  hosts?: readonly HostName[];
  /** Actions of one kind allowed per minute (default 5). */
  actionsPerMinute?: number;
  /** The machine's addresses, which a wildcard bind answers to (default: its interfaces', now). */
  machineAddresses?: () => readonly string[];
}

export interface RunningWeb {
  url: string;
  server: Server;
  close(): Promise<void>;
}

const SESSION = "musicsync_session";

/** Shorter tokens are refused at start: the page's only lock beyond loopback must not be guessable. */
export const MIN_TOKEN_LENGTH = 16;

/** How the request was let in: no token is set, the login cookie, or the token as a bearer header. */
type Access = "open" | "session" | "bearer";

/** `host:port` → its parts; throws a one-line error for anything else. */
export function parseAddress(text: string): { host: string; port: number } {
  const m = /^(?:(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):)?(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : Number.NaN;
  if (!m || port > 65535) throw new Error(`--http: "${text}" is not host:port (e.g. 127.0.0.1:8484)`);
  return { host: m[1] ?? m[2] ?? "127.0.0.1", port };
}

/** Why the server must not start, or null. Never quotes the token. */
export function startRefusal(host: string, token: string | null): string | null {
  if (token !== null && token !== "") {
    if (token.length < MIN_TOKEN_LENGTH)
      return `the access token (--http-token or MUSICSYNC_HTTP_TOKEN) is shorter than ${MIN_TOKEN_LENGTH} characters: make a longer one (e.g. openssl rand -hex 16)`;
    if (/[\s\p{Cc}]/u.test(token))
      return "the access token (--http-token or MUSICSYNC_HTTP_TOKEN) holds a space or a control character: use letters, digits and punctuation";
    return null;
  }
  if (isLoopback(host)) return null;
  return `--http ${host}: listening beyond this machine needs an access token (--http-token or MUSICSYNC_HTTP_TOKEN)`;
}

/** The machine's own addresses, read at each ask: an interface may come up after the page starts. */
function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

function bearerOf(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  return auth && /^Bearer\s+/i.test(auth) ? auth.replace(/^Bearer\s+/i, "").trim() : undefined;
}

class Web {
  private readonly secrets: Secrets;
  private readonly limit: RateLimit;
  private readonly signIns = new SignInLimit();
  private readonly machine: () => readonly string[];

  constructor(
    private readonly host: WebHost,
    o: WebOptions,
    private readonly policy: HostPolicy,
  ) {
    this.secrets = new Secrets(o.token || null);
    this.limit = new RateLimit(o.actionsPerMinute ?? 5);
    this.machine = o.machineAddresses ?? interfaceAddresses;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      // First, on every request (/healthz too): a rebound name learns nothing, not even that we live.
      if (!hostAllowed(this.policy, req.headers.host, this.machine))
        throw new HttpError(
          421,
          "this page answers only to the address it listens on: the request's Host header names another (a reverse proxy's name is given with --http-hosts)",
        );
      const url = new URL(req.url ?? "/", "http://localhost");
      const parts = segmentsOf(url.pathname);
      if (parts[0] === "healthz" && parts.length === 1) return sendText(res, 200, "ok\n");
      if (parts[0] === "login" && parts.length === 1) return this.login(req, res, url);
      const access = this.authorize(req);
      if (parts[0] === "actions" && parts.length === 3)
        return await this.action(req, res, access, parts.slice(1) as [string, string]);
      if (req.method !== "GET" && req.method !== "HEAD")
        throw new HttpError(405, "this page is only read", { allow: "GET, HEAD" });
      await this.page(res, parts);
    } catch (e) {
      this.fail(res, e);
    }
  }

  private async page(res: ServerResponse, parts: string[]): Promise<void> {
    const [first, second] = parts;
    if (parts.length === 0) return routes.index(this.host, res);
    if (parts.length === 1 && first === "readyz") return routes.ready(this.host, res);
    if (parts.length === 1 && first === "metrics") return routes.metrics(res);
    if (parts.length === 2 && first === "runs") return routes.run(this.host, res, second!);
    if (parts.length === 2 && first === "accounts") return routes.account(this.host, res, second!);
    if (parts.length === 2 && first === "drift") return routes.drift(this.host, res, second!);
    throw new HttpError(404, "no such page");
  }

  /** The login cookie or a bearer header; everything passes when no token is set (loopback). */
  private authorize(req: IncomingMessage): Access {
    if (!this.secrets.required) return "open";
    // The cookie first: it cannot be guessed, so a person who holds one is never slowed by a guesser.
    if (this.secrets.sessionValid(cookie(req, SESSION))) return "session";
    const bearer = bearerOf(req);
    if (bearer === undefined)
      throw new HttpError(401, "sign in: open /login?token=… or send the token as a bearer header", {
        "www-authenticate": "Bearer",
      });
    this.tryToken(req, bearer);
    return "bearer";
  }

  /** A token offered at /login or as a bearer: limited per client address and overall. */
  private tryToken(req: IncomingMessage, given: string): void {
    const address = req.socket.remoteAddress ?? "";
    const wait = this.signIns.wait(address);
    if (wait !== null)
      throw new HttpError(429, `too many wrong access tokens: try again in ${wait} s`, {
        "retry-after": String(wait),
      });
    if (this.secrets.tokenValid(given)) return;
    this.signIns.failed(address);
    throw new HttpError(401, "that is not the access token", { "www-authenticate": "Bearer" });
  }

  /**
   * A write comes from this page: its Origin (or Referer) names it. Every browser sends Origin with
   * a POST, so one with neither is a program, let in only with the token as a bearer header.
   */
  private checkWriteSource(req: IncomingMessage, access: Access): void {
    const { origin, referer } = req.headers;
    const from = writeSource(this.policy, origin, referer, this.machine);
    if (from === "ours" || (from === "none" && access === "bearer")) return;
    throw new HttpError(
      403,
      from === "other"
        ? "a write must come from this page: the request's Origin (or Referer) names another site"
        : "a write must come from this page: the request has no Origin or Referer header (a program sends the access token as a bearer header)",
    );
  }

  private login(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (!this.secrets.required) {
      send(res, 303, "", { location: "/" });
      return;
    }
    const given = url.searchParams.get("token");
    if (given === null) throw new HttpError(401, "sign in: open /login?token=<the access token>");
    this.tryToken(req, given);
    send(res, 303, "", {
      location: "/",
      "set-cookie": `${SESSION}=${this.secrets.session()}; HttpOnly; SameSite=Strict; Path=/`,
    });
  }

  /** GET: the confirmation page with its form; POST (with the form's CSRF token): the action. */
  private async action(
    req: IncomingMessage,
    res: ServerResponse,
    access: Access,
    [kind, target]: [string, string],
  ): Promise<void> {
    if (!isActionKind(kind)) throw new HttpError(404, `no action ${kind}`);
    const spec = describeAction(this.host, kind, target);
    if (req.method === "GET" || req.method === "HEAD") {
      return send(res, 200, confirmPage({ kind, target, ...spec, csrf: this.secrets.csrf(kind, target) }));
    }
    if (req.method !== "POST")
      throw new HttpError(405, "an action is confirmed, then posted", { allow: "GET, HEAD, POST" });
    this.checkWriteSource(req, access);
    const form = await readForm(req);
    if (!this.secrets.csrfValid(kind, target, form.get("csrf") ?? undefined))
      throw new HttpError(403, "the form is out of date or not from this page: open the action again");
    const wait = this.limit.take(kind);
    if (wait !== null)
      throw new HttpError(429, `too many ${kind} actions in a minute: try again in ${wait} s`, {
        "retry-after": String(wait),
      });
    const answer = await performAction(this.host, kind, target);
    send(res, answer.status, resultPage(answer));
  }

  private fail(res: ServerResponse, e: unknown): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (e instanceof HttpError || e instanceof ActionRefused) {
      sendError(res, e.status, e.message, e instanceof HttpError ? e.headers : {});
      return;
    }
    // The message only (scrubbed on its way out); the stack goes to the log.
    this.host.env.logger.warn(
      { error: e instanceof Error ? e.message : String(e) },
      "status page request failed",
    );
    sendError(res, 500, `the request failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The port the server got (the one asked for, unless that was 0). */
function portOf(server: Server, asked: number): number {
  const actual = server.address();
  return typeof actual === "object" && actual ? actual.port : asked;
}

/** Starts the server; rejects with a one-line error on a refused address or a port in use. */
export async function startWeb(host: WebHost, o: WebOptions): Promise<RunningWeb> {
  const { host: bind, port } = parseAddress(o.address);
  const refusal = startRefusal(bind, o.token);
  if (refusal) throw new Error(refusal);
  // A credential like the account's: no page, error or log shows it, even one that names what it
  // was asked for (`/accounts/<the token>`).
  if (o.token) engineScrubber.addSecrets([o.token]);
  // Made once the port is known (its Host check names it); no request is read before that.
  let web: Web | null = null;
  const server = createServer({ requestTimeout: 60_000 }, (req, res) => {
    if (web) void web.handle(req, res);
    else res.destroy();
  });
  server.on("clientError", (_e, socket) => {
    if (socket.writable)
      socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) =>
      reject(new Error(`--http ${o.address}: ${e.code ?? e.message}`)),
    );
    server.listen(port, bind, () => {
      web = new Web(host, o, hostPolicy(bind, portOf(server, port), o.hosts ?? []));
      resolve();
    });
  });
  const hostText = bind.includes(":") ? `[${bind}]` : bind;
  return {
    url: `http://${hostText}:${portOf(server, port)}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
