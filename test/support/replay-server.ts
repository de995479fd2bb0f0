import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync, gzipSync } from "node:zlib";

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  /** Path without the query string, e.g. `/youtubei/v1/browse`. */
  path: string;
  /** The raw query string without the leading `?`. */
  query: string;
  headers: IncomingHttpHeaders;
  /** The body as text (gunzipped when it came compressed). */
  text: string;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
  /** The client's port: requests on one kept-alive connection share it. */
  remotePort: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  /** Wait this long before answering (time-out tests). */
  delayMs?: number;
  /** Destroy the socket instead of answering (connection-reset tests). */
  destroy?: boolean;
}

export type Handler = (request: SeenRequest) => Reply | Promise<Reply>;

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  // Sniff gzip by its magic bytes rather than trusting content-encoding.
  return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
}

/**
 * A local HTTP server on 127.0.0.1 for tests: records every request and answers with the handler's
 * reply. Never listens on any other address.
 */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const bytes = await readBody(req);
    const [path = "", query = ""] = (req.url ?? "").split("?", 2);
    const text = bytes.toString("utf8");
    let json: unknown;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const seen: SeenRequest = {
      method: req.method ?? "",
      path,
      query,
      headers: req.headers,
      text,
      json,
      remotePort: req.socket.remotePort ?? 0,
    };
    requests.push(seen);
    let reply: Reply;
    try {
      reply = await handler(seen);
    } catch (error) {
      reply = { status: 500, body: { error: { code: 500, message: String(error) } } };
    }
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (reply.destroy) {
      req.socket.destroy();
      return;
    }
    const body =
      reply.body === undefined
        ? ""
        : typeof reply.body === "string"
          ? reply.body
          : JSON.stringify(reply.body);
    const type =
      typeof reply.body === "string" ? "text/html; charset=utf-8" : "application/json; charset=utf-8";
    res.writeHead(reply.status ?? 200, { "content-type": type, ...reply.headers });
    // A reply that declares gzip gets its body compressed, as the real service compresses.
    res.end(reply.headers?.["content-encoding"] === "gzip" ? gzipSync(body) : body);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The standard query parameters the client always adds; what is left is the operation's own. */
const STANDARD = /^(alt|prettyPrint|key)=/;

/** The query parameters beyond `alt`, `prettyPrint` and `key`, as `&name=value…` in sent order. */
export function extraParams(query: string): string {
  return query
    .split("&")
    .filter((part) => part !== "" && !STANDARD.test(part))
    .map((part) => `&${part}`)
    .join("");
}

/** The InnerTube endpoint of a request path (`/youtubei/v1/browse/edit_playlist` → `browse/edit_playlist`). */
export function endpointOf(path: string): string | null {
  const marker = "/youtubei/v1/";
  return path.startsWith(marker) ? path.slice(marker.length) : null;
}

/** A start page like the service's, whose first `ytcfg.set` call carries a visitor id. */
export const START_PAGE =
  '<!doctype html><html><head><script>ytcfg.set({"VISITOR_DATA":"Cgt2aXNpdG9yLWlk","INNERTUBE_CLIENT_VERSION":"1.20250101.01.00"});</script></head><body></body></html>';
