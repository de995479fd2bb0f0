import { once } from "node:events";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { parseRetryAfter, retryDelay } from "../../../shared/retry.js";
import { clientVersion } from "../../../shared/wire/constants.js";
import {
  ArgumentError,
  ErrorCodes,
  LANGUAGES,
  LOCATIONS,
  MusicApiError,
  ParseError,
  RateLimitError,
  ServiceError,
  TransportError,
} from "../../../src/index.js";
import { createContext } from "../../../src/transport/context.js";
import { recordingLogger } from "../../support/page-server.js";
import {
  endpointOf,
  type Handler,
  START_PAGE,
  startServer,
  type TestServer,
} from "../../support/replay-server.js";

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(api: Handler, startPage: Handler = () => ({ body: START_PAGE })): Promise<TestServer> {
  const server = await startServer((request) =>
    endpointOf(request.path) === null ? startPage(request) : api(request),
  );
  servers.push(server);
  return server;
}

const apiCalls = (server: TestServer) => server.requests.filter((r) => endpointOf(r.path) !== null);

const fastRetry = { baseDelayMs: 5, maxDelayMs: 20, totalMs: 5_000 };

describe("the request every operation sends", () => {
  it("posts the body with the client context and the web client's headers, without credentials", async () => {
    const server = await serve(() => ({ body: { ok: true } }));
    const ctx = createContext({ baseUrl: server.url });
    const response = await ctx.send({
      operation: "get_home",
      endpoint: "browse",
      body: { browseId: "FEmusic_home" },
    });
    expect(response).toEqual({ ok: true });

    const [sent] = apiCalls(server);
    expect(sent?.method).toBe("POST");
    expect(sent?.path).toBe("/youtubei/v1/browse");
    expect(sent?.query).toBe("alt=json&prettyPrint=false");
    expect(sent?.json).toEqual({
      browseId: "FEmusic_home",
      context: { client: { clientName: "WEB_REMIX", clientVersion: clientVersion(), hl: "en" }, user: {} },
    });
    expect(sent?.headers).toMatchObject({
      "user-agent": expect.stringContaining("Mozilla/5.0"),
      accept: "*/*",
      "content-type": "application/json",
      origin: "https://music.youtube.com",
      "x-youtube-client-name": "67",
      "x-youtube-client-version": clientVersion(),
      "x-goog-visitor-id": "Cgt2aXNpdG9yLWlk",
      cookie: "SOCS=CAI",
    });
    expect(sent?.headers.authorization).toBeUndefined();
  });

  it("reads a gzip-compressed response", async () => {
    const server = await serve(() => ({ headers: { "content-encoding": "gzip" }, body: { packed: "yes" } }));
    const ctx = createContext({ baseUrl: server.url });
    expect(await ctx.send({ operation: "get_home", endpoint: "browse", body: {} })).toEqual({
      packed: "yes",
    });
  });

  it("dates the client version by the UTC day", () => {
    expect(clientVersion(new Date("2026-03-04T23:59:00Z"))).toBe("1.20260304.01.00");
  });

  it("sends language, location and the brand account in the context", async () => {
    const server = await serve(() => ({ body: {} }));
    const ctx = createContext({
      baseUrl: server.url,
      language: "de",
      location: "AT",
      user: "101234567890123456789",
    });
    await ctx.send({ operation: "search", endpoint: "search", body: { query: "x" } });
    expect(apiCalls(server)[0]?.json).toEqual({
      query: "x",
      context: {
        client: { clientName: "WEB_REMIX", clientVersion: clientVersion(), hl: "de", gl: "AT" },
        user: { onBehalfOfUser: "101234567890123456789" },
      },
    });
  });

  it("appends continuation parameters and can stand in another client (timed lyrics)", async () => {
    const server = await serve(() => ({ body: {} }));
    const ctx = createContext({ baseUrl: server.url });
    await ctx.send({
      operation: "get_lyrics",
      endpoint: "browse",
      body: { browseId: "MPLYt_x" },
      additionalParams: "&ctoken=T1&continuation=T1",
      client: { clientName: "ANDROID_MUSIC", clientVersion: "7.21.50" },
    });
    const [sent] = apiCalls(server);
    expect(sent?.query).toBe("alt=json&prettyPrint=false&ctoken=T1&continuation=T1");
    expect(sent?.json).toMatchObject({
      context: { client: { clientName: "ANDROID_MUSIC", clientVersion: "7.21.50" } },
    });
  });

  it("fetches the visitor id once, and goes on without it when the start page has none", async () => {
    const server = await serve(() => ({ body: {} }));
    const ctx = createContext({ baseUrl: server.url });
    await ctx.send({ operation: "a", endpoint: "browse", body: {} });
    await ctx.send({ operation: "b", endpoint: "browse", body: {} });
    expect(server.requests.filter((r) => r.path === "/")).toHaveLength(1);

    const bare = await serve(
      () => ({ body: {} }),
      () => ({ status: 404, body: "not here" }),
    );
    const plain = createContext({ baseUrl: bare.url });
    await plain.send({ operation: "c", endpoint: "browse", body: {} });
    expect(apiCalls(bare)[0]?.headers["x-goog-visitor-id"]).toBeUndefined();
  });
});

describe("errors", () => {
  it("turns an HTTP error into a ServiceError carrying the service's message", async () => {
    const server = await serve(() => ({
      status: 400,
      body: {
        error: { code: 400, message: "Request contains an invalid argument.", status: "INVALID_ARGUMENT" },
      },
    }));
    const ctx = createContext({ baseUrl: server.url });
    const error = await ctx
      .send({ operation: "get_album", endpoint: "browse", body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({
      code: ErrorCodes.HTTP_ERROR,
      status: 400,
      serviceStatus: "INVALID_ARGUMENT",
      serviceMessage: "Request contains an invalid argument.",
      operation: "get_album",
    });
    expect((error as Error).message).toBe(
      "get_album: the service answered HTTP 400: Request contains an invalid argument.",
    );
  });

  it("raises a ParseError when a 200 body is not JSON", async () => {
    const server = await serve(() => ({ body: "<html>consent</html>" }));
    const ctx = createContext({ baseUrl: server.url });
    const error = await ctx
      .send({ operation: "get_home", endpoint: "browse", body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).path).toBe("(body)");
  });

  it("reports a read that takes longer than timeoutMs as a time-out", async () => {
    // undici checks its time-outs on a coarse clock (about half a second), so the delay is generous.
    const server = await serve(() => ({ body: {}, delayMs: 2500 }));
    const ctx = createContext({ baseUrl: server.url, timeoutMs: 100, retry: false });
    const error = await ctx
      .send({ operation: "get_home", endpoint: "browse", body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe(ErrorCodes.TIMEOUT);
    expect((error as Error).message).toMatch(/^get_home: no response within 100 ms/);
  });

  it("reports a refused connection as a connection error", async () => {
    const server = await serve(() => ({ body: {} }));
    const url = server.url;
    await server.close();
    servers = [];
    const ctx = createContext({ baseUrl: url, retry: false });
    const error = await ctx
      .send({ operation: "get_home", endpoint: "browse", body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe(ErrorCodes.CONNECTION);
  });
});

describe("retries", () => {
  it("retries a read on 503 and 502 until it succeeds, logging each retry", async () => {
    const answers = [503, 502, 200];
    const server = await serve(() => {
      const status = answers.shift() ?? 200;
      return { status, body: status === 200 ? { ok: 1 } : { error: { code: status, message: "busy" } } };
    });
    const logger = recordingLogger();
    const ctx = createContext({ baseUrl: server.url, retry: fastRetry, logger });
    expect(await ctx.send({ operation: "get_home", endpoint: "browse", body: {} })).toEqual({ ok: 1 });
    expect(apiCalls(server)).toHaveLength(3);
    expect(logger.lines.filter((l) => l.message === "retrying a read")).toHaveLength(2);
  });

  it("waits at least the Retry-After the service gave on 429", async () => {
    let calls = 0;
    const server = await serve(() =>
      ++calls === 1
        ? {
            status: 429,
            headers: { "retry-after": "1" },
            body: { error: { code: 429, message: "slow down" } },
          }
        : { body: { ok: 2 } },
    );
    const ctx = createContext({ baseUrl: server.url, retry: fastRetry });
    const started = Date.now();
    expect(await ctx.send({ operation: "search", endpoint: "search", body: {} })).toEqual({ ok: 2 });
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("gives up after the configured attempts with the last error, Retry-After included", async () => {
    const server = await serve(() => ({
      status: 429,
      headers: { "retry-after": "0" },
      body: { error: { code: 429, message: "quota" } },
    }));
    const ctx = createContext({ baseUrl: server.url, retry: { ...fastRetry, attempts: 3 } });
    const error = await ctx
      .send({ operation: "search", endpoint: "search", body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(0);
    expect(apiCalls(server)).toHaveLength(3);
  });

  it("honours a Retry-After on 503 too, and hands it to the caller", async () => {
    let calls = 0;
    const server = await serve(() => ({
      status: 503,
      headers: { "retry-after": "1" },
      body: { error: { code: 503, message: `busy ${++calls}` } },
    }));
    const ctx = createContext({ baseUrl: server.url, retry: { ...fastRetry, attempts: 2 } });
    const started = Date.now();
    const error = await ctx.send({ operation: "x", endpoint: "browse", body: {} }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 503, retryAfterMs: 1000, serviceMessage: "busy 2" });
  });

  it("never retries a write", async () => {
    const server = await serve(() => ({
      status: 503,
      body: { error: { code: 503, message: "unavailable" } },
    }));
    const ctx = createContext({ baseUrl: server.url, retry: fastRetry });
    const error = await ctx
      .send({ operation: "add_playlist_items", endpoint: "browse/edit_playlist", body: {}, write: true })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCodes.HTTP_ERROR, status: 503 });
    expect(apiCalls(server)).toHaveLength(1);
  });

  it("does not retry a client error", async () => {
    const server = await serve(() => ({ status: 404, body: { error: { code: 404, message: "not found" } } }));
    const ctx = createContext({ baseUrl: server.url, retry: fastRetry });
    await expect(ctx.send({ operation: "x", endpoint: "browse", body: {} })).rejects.toMatchObject({
      status: 404,
    });
    expect(apiCalls(server)).toHaveLength(1);
  });

  it("retries a read whose connection was reset", async () => {
    let calls = 0;
    const server = await serve(() => (++calls === 1 ? { destroy: true } : { body: { ok: 3 } }));
    const ctx = createContext({ baseUrl: server.url, retry: fastRetry });
    expect(await ctx.send({ operation: "x", endpoint: "browse", body: {} })).toEqual({ ok: 3 });
    expect(calls).toBe(2);
  });

  it("computes backoff with jitter, capped, honouring Retry-After and the total budget", () => {
    const policy = { attempts: 5, baseDelayMs: 100, maxDelayMs: 1000, totalMs: 10_000, statuses: [503] };
    expect(retryDelay(policy, 1, 0, undefined, () => 0)).toBe(50);
    expect(retryDelay(policy, 3, 0, undefined, () => 1)).toBe(400);
    expect(retryDelay(policy, 4, 0, undefined, () => 1)).toBe(800);
    expect(retryDelay(policy, 4, 0, 3000, () => 1)).toBe(3000);
    expect(retryDelay(policy, 5, 0, undefined, () => 1)).toBeNull();
    expect(retryDelay(policy, 2, 9_900, undefined, () => 1)).toBeNull();
    expect(parseRetryAfter("2")).toBe(2000);
    expect(parseRetryAfter("Thu, 01 Jan 1970 00:00:10 GMT", 4000)).toBe(6000);
    expect(parseRetryAfter("soon")).toBeUndefined();
  });
});

describe("connections", () => {
  it("goes through an HTTP proxy when one is given", async () => {
    const target = await serve(() => ({ body: { via: "proxy" } }));
    const tunnels: string[] = [];
    const proxy = createServer((req, res) => {
      // Plain (non-tunnelled) proxying: the request line carries the absolute URL.
      tunnels.push(`GET ${req.url}`);
      const upstream = httpRequest(req.url ?? "", { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      req.pipe(upstream);
    });
    proxy.on("connect", (req, socket, head) => {
      tunnels.push(`CONNECT ${req.url}`);
      const [host, port] = (req.url ?? "").split(":");
      const upstream = connect(Number(port), host ?? "127.0.0.1", () => {
        socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on("error", () => socket.destroy());
      socket.on("error", () => upstream.destroy());
    });
    proxy.listen(0, "127.0.0.1");
    await once(proxy, "listening");
    try {
      const { port } = proxy.address() as AddressInfo;
      const ctx = createContext({ baseUrl: target.url, proxy: `http://127.0.0.1:${port}` });
      expect(await ctx.send({ operation: "x", endpoint: "browse", body: {} })).toEqual({ via: "proxy" });
      const host = new URL(target.url).host;
      expect(tunnels.some((line) => line.includes(host))).toBe(true);
    } finally {
      proxy.closeAllConnections();
      proxy.close();
    }
  });

  it("opens a fresh connection per request with dispatcher: false", async () => {
    const server = await serve(() => ({ body: {} }));
    const ctx = createContext({ baseUrl: server.url, dispatcher: false });
    for (const operation of ["a", "b", "c"]) await ctx.send({ operation, endpoint: "browse", body: {} });
    const ports = new Set(apiCalls(server).map((c) => c.remotePort));
    expect(ports.size).toBe(3);
  });
});

describe("construction checks", () => {
  it("refuses an unsupported language, listing what is allowed", () => {
    const error = (() => {
      try {
        createContext({ language: "xx" });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as ArgumentError).argument).toBe("language");
    expect((error as Error).message).toContain(LANGUAGES.join(", "));
  });

  it("refuses an unsupported location, listing what is allowed", () => {
    expect(() => createContext({ location: "ZZ" })).toThrow(ArgumentError);
    expect(() => createContext({ location: "us" })).toThrow(/`location`.*"us" is not supported.*AE, AR/);
    expect(LOCATIONS).toHaveLength(109);
  });

  it("refuses a bad base URL, time-out and brand account", () => {
    expect(() => createContext({ baseUrl: "not a url" })).toThrow(/`baseUrl`/);
    expect(() => createContext({ baseUrl: "ftp://x" })).toThrow(/`baseUrl`/);
    expect(() => createContext({ timeoutMs: 0 })).toThrow(/`timeoutMs`/);
    expect(() => createContext({ user: "" })).toThrow(/`user`/);
  });

  it("says credentials are needed before any request", async () => {
    const server = await serve(() => ({ body: {} }));
    const ctx = createContext({ baseUrl: server.url });
    expect(() => ctx.requireAuth("get_history")).toThrow(MusicApiError);
    expect(() => ctx.requireAuth("get_history")).toThrow(/^get_history: this operation needs credentials/);
    expect(server.requests).toHaveLength(0);
  });
});
