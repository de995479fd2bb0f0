/**
 * The status page's HTTP server (node:http): access control, then the route. Safe by default: it
 * listens on 127.0.0.1, refuses any other address without an access token, answers every bad
 * request with a 4xx page and every failure with a page that holds no stack.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isIP } from "node:net";
import { ActionRefused, describeAction, isActionKind, performAction } from "./actions.js";
import type { WebHost } from "./host.js";
import { cookie, HttpError, readForm, segmentsOf, send, sendError, sendText } from "./http-io.js";
import { confirmPage, resultPage } from "./message-pages.js";
import { RateLimit } from "./rate-limit.js";
import * as routes from "./routes.js";
import { Secrets } from "./secrets.js";

export interface WebOptions {
  /** `127.0.0.1:8484`, `[::1]:8484`, `0.0.0.0:8484`, or a port alone (on 127.0.0.1). */
  address: string;
  /** Required on any address but loopback. */
  token: string | null;
  /** Actions of one kind allowed per minute (default 5). */
  actionsPerMinute?: number;
}

export interface RunningWeb {
  url: string;
  server: Server;
  close(): Promise<void>;
}

const SESSION = "musicsync_session";

/** `host:port` → its parts; throws a one-line error for anything else. */
export function parseAddress(text: string): { host: string; port: number } {
  const m = /^(?:(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):)?(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : Number.NaN;
  if (!m || port > 65535) throw new Error(`--http: "${text}" is not host:port (e.g. 127.0.0.1:8484)`);
  return { host: m[1] ?? m[2] ?? "127.0.0.1", port };
}

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || (isIP(host) === 4 && host.startsWith("127."));
}

/** Why the server must not start, or null. */
export function startRefusal(host: string, token: string | null): string | null {
  if (isLoopback(host) || (token !== null && token !== "")) return null;
  return `--http ${host}: listening beyond this machine needs an access token (--http-token or MUSICSYNC_HTTP_TOKEN)`;
}

class Web {
  private readonly secrets: Secrets;
  private readonly limit: RateLimit;

  constructor(
    private readonly host: WebHost,
    o: WebOptions,
  ) {
    this.secrets = new Secrets(o.token || null);
    this.limit = new RateLimit(o.actionsPerMinute ?? 5);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? "/", "http://localhost");
      const parts = segmentsOf(url.pathname);
      if (parts[0] === "healthz" && parts.length === 1) return sendText(res, 200, "ok\n");
      if (parts[0] === "login" && parts.length === 1) return this.login(res, url);
      if (!this.allowed(req))
        throw new HttpError(401, "sign in: open /login?token=… or send the token as a bearer header", {
          "www-authenticate": "Bearer",
        });
      if (parts[0] === "actions" && parts.length === 3)
        return await this.action(req, res, parts[1]!, parts[2]!);
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

  /** A bearer header or the login cookie; everything passes when no token is set (loopback). */
  private allowed(req: IncomingMessage): boolean {
    if (!this.secrets.required) return true;
    const auth = req.headers.authorization;
    const bearer = auth && /^Bearer\s+/i.test(auth) ? auth.replace(/^Bearer\s+/i, "").trim() : undefined;
    return this.secrets.tokenValid(bearer) || this.secrets.sessionValid(cookie(req, SESSION));
  }

  private login(res: ServerResponse, url: URL): void {
    if (!this.secrets.required) {
      send(res, 303, "", { location: "/" });
      return;
    }
    if (!this.secrets.tokenValid(url.searchParams.get("token") ?? undefined))
      throw new HttpError(401, "that is not the access token");
    send(res, 303, "", {
      location: "/",
      "set-cookie": `${SESSION}=${this.secrets.session()}; HttpOnly; SameSite=Strict; Path=/`,
    });
  }

  /** GET: the confirmation page with its form; POST (with the form's CSRF token): the action. */
  private async action(
    req: IncomingMessage,
    res: ServerResponse,
    kind: string,
    target: string,
  ): Promise<void> {
    if (!isActionKind(kind)) throw new HttpError(404, `no action ${kind}`);
    const spec = describeAction(this.host, kind, target);
    if (req.method === "GET" || req.method === "HEAD") {
      return send(res, 200, confirmPage({ kind, target, ...spec, csrf: this.secrets.csrf(kind, target) }));
    }
    if (req.method !== "POST")
      throw new HttpError(405, "an action is confirmed, then posted", { allow: "GET, HEAD, POST" });
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

/** Starts the server; rejects with a one-line error on a refused address or a port in use. */
export async function startWeb(host: WebHost, o: WebOptions): Promise<RunningWeb> {
  const { host: bind, port } = parseAddress(o.address);
  const refusal = startRefusal(bind, o.token);
  if (refusal) throw new Error(refusal);
  const web = new Web(host, o);
  const server = createServer({ requestTimeout: 60_000 }, (req, res) => void web.handle(req, res));
  server.on("clientError", (_e, socket) => {
    if (socket.writable)
      socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) =>
      reject(new Error(`--http ${o.address}: ${e.code ?? e.message}`)),
    );
    server.listen(port, bind, () => resolve());
  });
  const actual = server.address();
  const shown = typeof actual === "object" && actual ? actual.port : port;
  const hostText = bind.includes(":") ? `[${bind}]` : bind;
  return {
    url: `http://${hostText}:${shown}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
