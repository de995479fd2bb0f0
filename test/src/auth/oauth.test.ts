import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
} from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Duplex, PassThrough } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resolveAuth, setupOAuth } from "../../../src/auth/index.js";
import type { OAuthCredentials, OAuthToken } from "../../../src/client.js";
import {
  ArgumentError,
  AuthError,
  ErrorCodes,
  type MusicApiError,
  OAuthFlowError,
  ServiceError,
  TransportError,
} from "../../../src/errors.js";
import type { Logger } from "../../../src/logger.js";
import { createContext } from "../../../src/transport/context.js";

const CLIENT_ID = "123-client.apps.example";
const CLIENT_SECRET = "GOCSPX-client-secret-value";
const DEVICE_CODE = "AH-1Ng-device-code-value";
const ACCESS = "ya29.first-access-token";
const REFRESH = "1//0g-refresh-token-value";
const NEW_ACCESS = "ya29.refreshed-access-token";

/** One request the local OAuth server received. */
interface Exchange {
  path: string;
  form: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Milliseconds (monotonic) when it arrived. */
  at: number;
}

interface Reply {
  status?: number;
  body: unknown;
  delayMs?: number;
}

/** A local stand-in for Google's device-code and token endpoints. */
async function oauthServer(answer: (exchange: Exchange) => Reply) {
  const exchanges: Exchange[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const exchange: Exchange = {
        path: req.url ?? "",
        form: new URLSearchParams(Buffer.concat(chunks).toString("utf8")),
        headers: req.headers,
        at: performance.now(),
      };
      exchanges.push(exchange);
      const reply = answer(exchange);
      setTimeout(() => {
        res.statusCode = reply.status ?? 200;
        res.setHeader("content-type", "application/json");
        res.end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body));
      }, reply.delayMs ?? 0);
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    exchanges,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

type OAuthServer = Awaited<ReturnType<typeof oauthServer>>;
const servers: OAuthServer[] = [];
async function serve(answer: (exchange: Exchange) => Reply): Promise<OAuthServer> {
  const server = await oauthServer(answer);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "musicapi-oauth-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Everything a logger was given, as text, so that tests can search it for secrets. */
function capturingLogger(): Logger & { text(): string } {
  const lines: string[] = [];
  const log = (level: string) => (fields: object, message?: string) => {
    lines.push(`${level} ${message ?? ""} ${JSON.stringify(fields)}`);
  };
  return {
    debug: log("debug"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
    text: () => lines.join("\n"),
  };
}

function assertNoSecrets(text: string, secrets: readonly string[]) {
  for (const secret of secrets) expect(text, `leaked ${secret}`).not.toContain(secret);
}

const DEVICE_ANSWER = {
  device_code: DEVICE_CODE,
  user_code: "ABC-DEF-GHI",
  expires_in: 1800,
  interval: 5,
  verification_url: "https://www.google.com/device",
};

const TOKEN_ANSWER = {
  access_token: ACCESS,
  expires_in: 3599,
  refresh_token: REFRESH,
  scope: "https://www.googleapis.com/auth/youtube",
  token_type: "Bearer",
  refresh_token_expires_in: 604799,
};

/**
 * A device flow whose token endpoint answers the scripted OAuth errors in turn, then the token.
 * `sleep` records the waits instead of waiting.
 */
async function flowWith(polls: Reply[], device: Reply = { body: DEVICE_ANSWER }) {
  const script = [...polls];
  const server = await serve((ex) =>
    ex.path === "/device/code" ? device : (script.shift() ?? { body: TOKEN_ANSWER }),
  );
  const waits: number[] = [];
  const output = new PassThrough();
  let printed = "";
  output.on("data", (c: Buffer) => {
    printed += c.toString("utf8");
  });
  const run = (extra: { filepath?: string } = {}) =>
    setupOAuth({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      deviceCodeUrl: `${server.url}/device/code`,
      tokenUrl: `${server.url}/token`,
      output,
      intervalScaleMs: 1000,
      sleep: async (ms) => {
        waits.push(ms);
      },
      ...extra,
    });
  return { server, waits, printed: () => printed, run };
}

const pending = (): Reply => ({ status: 428, body: { error: "authorization_pending" } });

describe("the OAuth device flow", () => {
  it("asks for a code, prints the link, polls through pending and slow_down, and saves the token", async () => {
    const flow = await flowWith([
      pending(),
      pending(),
      { status: 403, body: { error: "slow_down" } },
      pending(),
    ]);
    const file = join(dir, "oauth.json");
    const before = Math.floor(Date.now() / 1000);
    const token = await flow.run({ filepath: file });

    expect(flow.printed()).toContain("https://www.google.com/device?user_code=ABC-DEF-GHI");
    expect(flow.printed()).toContain("ABC-DEF-GHI");
    // 5 s between polls, 10 s once the endpoint asked to slow down.
    expect(flow.waits).toEqual([5000, 5000, 5000, 10000, 10000]);

    const [device, ...polls] = flow.server.exchanges;
    expect(device!.path).toBe("/device/code");
    expect(device!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(String(device!.headers["user-agent"])).toMatch(/Cobalt\/Version$/);
    expect(Object.fromEntries(device!.form)).toEqual({
      client_id: CLIENT_ID,
      scope: "https://www.googleapis.com/auth/youtube",
    });
    expect(polls).toHaveLength(5);
    expect(Object.fromEntries(polls[0]!.form)).toEqual({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      grant_type: "http://oauth.net/grant_type/device/1.0",
      code: DEVICE_CODE,
    });
    expect(String(polls[0]!.headers["user-agent"])).toMatch(/Cobalt\/Version$/);

    expect(Object.keys(token).sort()).toEqual([
      "access_token",
      "expires_at",
      "expires_in",
      "refresh_token",
      "scope",
      "token_type",
    ]);
    expect(token.access_token).toBe(ACCESS);
    expect(token.refresh_token).toBe(REFRESH);
    expect(token.expires_at).toBeGreaterThanOrEqual(before + 3599);
    expect(token.expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3599);
    // The refresh token's lifetime, as the reference implementation records it.
    expect(token.expires_in).toBe(604799);

    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual(token);
  });

  it("really waits the longer interval after slow_down", async () => {
    const script: Reply[] = [pending(), { status: 403, body: { error: "slow_down" } }];
    const server = await serve((ex) =>
      ex.path === "/device/code"
        ? { body: { ...DEVICE_ANSWER, interval: 2 } }
        : (script.shift() ?? { body: TOKEN_ANSWER }),
    );
    await setupOAuth({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      deviceCodeUrl: `${server.url}/device/code`,
      tokenUrl: `${server.url}/token`,
      output: new PassThrough(),
      intervalScaleMs: 20, // 2 s → 40 ms, 7 s → 140 ms
    });
    const at = server.exchanges.map((e) => e.at);
    expect(at).toHaveLength(4);
    const gaps = [at[2]! - at[1]!, at[3]! - at[2]!];
    expect(gaps[0]).toBeGreaterThanOrEqual(35);
    expect(gaps[1]).toBeGreaterThanOrEqual(135);
  });

  it.each([
    ["expired_token", 400, /expired/],
    ["access_denied", 403, /denied/],
  ])("stops on %s with an OAuthFlowError carrying the reason", async (reason, status, message) => {
    const flow = await flowWith([pending(), { status, body: { error: reason } }]);
    const error = await flow.run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect((error as OAuthFlowError).reason).toBe(reason);
    expect((error as OAuthFlowError).code).toBe(ErrorCodes.OAUTH_FLOW);
    expect((error as Error).message).toMatch(message);
    expect(flow.server.exchanges).toHaveLength(3);
  });

  it("gives up when the code's own lifetime runs out", async () => {
    const flow = await flowWith(Array.from({ length: 10 }, pending), {
      body: { ...DEVICE_ANSWER, expires_in: 12, interval: 5 },
    });
    const error = (await flow.run().catch((e: unknown) => e)) as OAuthFlowError;
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect(error.reason).toBe("expired_token");
    // Polls at 5 s and 10 s; a third at 15 s would be past the 12 s lifetime.
    expect(flow.waits).toEqual([5000, 5000]);
  });

  it("reports a refused client at the device-code step", async () => {
    const flow = await flowWith([], { status: 401, body: { error: "invalid_client" } });
    const error = (await flow.run().catch((e: unknown) => e)) as OAuthFlowError;
    expect(error.reason).toBe("invalid_client");
    expect(flow.server.exchanges).toHaveLength(1);
  });

  it("raises a ParseError naming the field when the device-code answer lacks one", async () => {
    const { user_code: _, ...rest } = DEVICE_ANSWER;
    const flow = await flowWith([], { body: rest });
    const error = (await flow.run().catch((e: unknown) => e)) as MusicApiError;
    expect(error.code).toBe(ErrorCodes.PARSE_ERROR);
    expect(error.message).toContain("user_code");
  });

  it("never repeats the client secret or the device code in a message", async () => {
    const echo = `client ${CLIENT_SECRET} with code ${DEVICE_CODE} is bad`;
    const flow = await flowWith([
      { status: 400, body: { error: "invalid_request", error_description: echo } },
    ]);
    const error = (await flow.run().catch((e: unknown) => e)) as OAuthFlowError;
    expect(error.reason).toBe("invalid_request");
    expect(error.message).toContain("is bad");
    assertNoSecrets(error.message, [CLIENT_SECRET, DEVICE_CODE]);
  });

  it("goes through `proxy` when one is given", async () => {
    const flow = await flowWith([]);
    // What the proxy was asked for: a tunnel (CONNECT host:port, as for https) or, for a plain-http
    // endpoint such as this test's, the request itself with the absolute URL (undici 8's way).
    const tunnels: string[] = [];
    const proxy = createServer((req, res) => {
      const target = new URL(req.url ?? "");
      tunnels.push(target.host);
      const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on("error", () => res.destroy());
      req.pipe(upstream);
    });
    proxy.on("connect", (req: IncomingMessage, client: Duplex, head: Buffer) => {
      tunnels.push(req.url ?? "");
      const [host, port] = (req.url ?? "").split(":");
      const upstream = connect(Number(port), host, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
    });
    await new Promise<void>((ok) => proxy.listen(0, "127.0.0.1", ok));
    try {
      const port = (proxy.address() as AddressInfo).port;
      const token = await setupOAuth({
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        deviceCodeUrl: `${flow.server.url}/device/code`,
        tokenUrl: `${flow.server.url}/token`,
        output: new PassThrough(),
        proxy: `http://127.0.0.1:${port}`,
        sleep: async () => {},
      });
      expect(token.access_token).toBe(ACCESS);
      expect(tunnels.length).toBeGreaterThanOrEqual(1);
      expect(tunnels[0]).toBe(new URL(flow.server.url).host);
      expect(flow.server.exchanges).toHaveLength(2);
    } finally {
      proxy.closeAllConnections();
      await new Promise((ok) => proxy.close(ok));
    }
  });

  it.each([
    [{ clientId: CLIENT_ID, clientSecret: "" }, "clientSecret"],
    [{ clientId: "", clientSecret: CLIENT_SECRET }, "clientId"],
    [{ clientId: CLIENT_ID } as { clientId: string; clientSecret: string }, "clientSecret"],
  ])("refuses a client id without its secret or the reverse, before any request", async (args, argument) => {
    const server = await serve(() => ({ body: DEVICE_ANSWER }));
    const error = await setupOAuth({
      ...args,
      deviceCodeUrl: `${server.url}/device/code`,
      tokenUrl: `${server.url}/token`,
      output: new PassThrough(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as ArgumentError).argument).toBe(argument);
    expect(server.exchanges).toHaveLength(0);
  });
});

/** A token endpoint that answers refreshes; `reply` may be replaced per test. */
async function refreshServer(reply: () => Reply = () => ({ body: refreshed(3600) })) {
  const holder = { reply };
  const server = await serve(() => holder.reply());
  const credentials: OAuthCredentials = {
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    tokenUrl: `${server.url}/token`,
  };
  return { server, credentials, holder };
}

function refreshed(expiresIn: number, access = NEW_ACCESS) {
  return {
    access_token: access,
    expires_in: expiresIn,
    scope: "https://www.googleapis.com/auth/youtube",
    token_type: "Bearer",
  };
}

function token(expiresAt: number): OAuthToken {
  return {
    access_token: ACCESS,
    refresh_token: REFRESH,
    token_type: "Bearer",
    scope: "https://www.googleapis.com/auth/youtube",
    expires_at: expiresAt,
    expires_in: 604799,
  };
}

describe("the OAuth provider", () => {
  const T = 1_800_000_000;

  it("refreshes only when less than 60 s are left", async () => {
    const { server, credentials } = await refreshServer();
    let now = T * 1000;
    const provider = resolveAuth(token(T + 3600), {
      oauthCredentials: credentials,
      timeoutMs: 5000,
      logger: capturingLogger(),
      now: () => now,
    })!;
    expect((await provider.headers()).authorization).toBe(`Bearer ${ACCESS}`);
    now = (T + 3540) * 1000; // exactly 60 s left: still good
    const headers = await provider.headers();
    expect(headers.authorization).toBe(`Bearer ${ACCESS}`);
    expect(headers["x-goog-request-time"]).toBe(String(T + 3540));
    expect(server.exchanges).toHaveLength(0);

    now = (T + 3541) * 1000; // 59 s left
    expect((await provider.headers()).authorization).toBe(`Bearer ${NEW_ACCESS}`);
    expect(server.exchanges).toHaveLength(1);
    expect(Object.fromEntries(server.exchanges[0]!.form)).toEqual({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      grant_type: "refresh_token",
      refresh_token: REFRESH,
    });
    expect(String(server.exchanges[0]!.headers["user-agent"])).toMatch(/Cobalt\/Version$/);
    // The new token lasts an hour from now: no second refresh within it.
    now = (T + 3541 + 3000) * 1000;
    await provider.headers();
    expect(server.exchanges).toHaveLength(1);
    expect(provider.secrets()).toEqual(expect.arrayContaining([ACCESS, NEW_ACCESS, REFRESH, CLIENT_SECRET]));
  });

  it("writes a refreshed token back to the file it came from, mode 0600, extra keys kept", async () => {
    const { credentials } = await refreshServer();
    const file = join(dir, "refresh-me.json");
    const stale = { ...token(T), refresh_token_expires_in: 604799 };
    await writeFile(file, JSON.stringify(stale), { mode: 0o644 });
    const provider = resolveAuth(file, {
      oauthCredentials: credentials,
      timeoutMs: 5000,
      logger: capturingLogger(),
      now: () => T * 1000,
    })!;
    await provider.headers();
    const saved = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    expect(saved).toEqual({
      ...stale,
      access_token: NEW_ACCESS,
      expires_at: T + 3600,
      // Stays what setup recorded: only the access token's expiry moves.
      expires_in: 604799,
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("refreshes once for many parallel requests", async () => {
    const { server, credentials } = await refreshServer(() => ({ body: refreshed(3600), delayMs: 50 }));
    const provider = resolveAuth(token(0), {
      oauthCredentials: credentials,
      timeoutMs: 5000,
      logger: capturingLogger(),
    })!;
    const all = await Promise.all(Array.from({ length: 8 }, () => provider.headers()));
    expect(server.exchanges).toHaveLength(1);
    for (const headers of all) expect(headers.authorization).toBe(`Bearer ${NEW_ACCESS}`);
  });

  it("a token without an expiry is refreshed on first use", async () => {
    const { server, credentials } = await refreshServer();
    const { expires_at: _, expires_in: __, ...bare } = token(0);
    const provider = resolveAuth(bare, {
      oauthCredentials: credentials,
      timeoutMs: 5000,
      logger: capturingLogger(),
    })!;
    expect((await provider.headers()).authorization).toBe(`Bearer ${NEW_ACCESS}`);
    expect(server.exchanges).toHaveLength(1);
  });

  it.each([
    [401, "invalid_client", ErrorCodes.AUTH_INVALID],
    [401, "unauthorized_client", ErrorCodes.AUTH_INVALID],
    [400, "invalid_grant", ErrorCodes.AUTH_EXPIRED],
    [401, undefined, ErrorCodes.AUTH_EXPIRED],
  ])(
    "maps a refused refresh (HTTP %i %s) to an AuthError that names no credential",
    async (status, error, code) => {
      const { server, credentials } = await refreshServer(() => ({
        status,
        body: error === undefined ? {} : { error, error_description: `bad ${REFRESH} ${CLIENT_SECRET}` },
      }));
      const logger = capturingLogger();
      const provider = resolveAuth(token(0), { oauthCredentials: credentials, timeoutMs: 5000, logger })!;
      const failure = (await provider.headers().catch((e: unknown) => e)) as AuthError;
      expect(failure).toBeInstanceOf(AuthError);
      expect(failure.code).toBe(code);
      if (error !== undefined) expect(failure.message).toContain(error);
      assertNoSecrets(`${failure.message} ${logger.text()}`, [ACCESS, REFRESH, CLIENT_SECRET]);
      // A failed refresh is not remembered: the next request tries again.
      await provider.headers().catch(() => undefined);
      expect(server.exchanges).toHaveLength(2);
    },
  );

  it("a server error during refresh is a ServiceError; a dead endpoint a TransportError", async () => {
    const { credentials } = await refreshServer(() => ({ status: 503, body: "unavailable" }));
    const provider = resolveAuth(token(0), {
      oauthCredentials: credentials,
      timeoutMs: 5000,
      logger: capturingLogger(),
    })!;
    const error = await provider.headers().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).status).toBe(503);

    const closed = await refreshServer();
    await closed.server.close();
    const dead = resolveAuth(token(0), {
      oauthCredentials: closed.credentials,
      timeoutMs: 5000,
      logger: capturingLogger(),
    })!;
    const cut = (await dead.headers().catch((e: unknown) => e)) as TransportError;
    expect(cut).toBeInstanceOf(TransportError);
    expect(cut.code).toBe(ErrorCodes.CONNECTION);
    assertNoSecrets(cut.message, [ACCESS, REFRESH, CLIENT_SECRET]);
  });
});

describe("no credential in any error message or log line", () => {
  const COOKIE_SECRETS = ["sid-cookie-value-123", "hsid-cookie-value-456", "Sapisid-Secret-789"];
  const COOKIE = `SID=${COOKIE_SECRETS[0]}; HSID=${COOKIE_SECRETS[1]}; __Secure-3PAPISID=${COOKIE_SECRETS[2]}`;

  it("a service error that echoes the cookie and the hash is scrubbed (browser auth)", async () => {
    let authorization = "";
    const server = await serve((ex) => {
      authorization = String(ex.headers.authorization ?? "");
      return {
        status: 400,
        body: {
          error: {
            code: 400,
            message: `rejected ${ex.headers.cookie} / ${authorization}`,
            status: "INVALID_ARGUMENT",
          },
        },
      };
    });
    const logger = capturingLogger();
    const ctx = createContext({
      auth: { cookie: COOKIE, "x-goog-authuser": "0", "x-goog-visitor-id": "visitor" },
      baseUrl: server.url,
      retry: false,
      logger,
    });
    const error = (await ctx
      .send({ operation: "get_home", endpoint: "browse", body: {} })
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.message).toContain("rejected");
    assertNoSecrets(`${error.message} ${error.serviceMessage} ${logger.text()}`, [
      COOKIE,
      ...COOKIE_SECRETS,
      authorization,
    ]);
  });

  it("an OAuth client whose refresh is refused leaks nothing through the transport or its logs", async () => {
    const server = await serve((ex) =>
      ex.path === "/token"
        ? { status: 400, body: { error: "invalid_grant", error_description: `${REFRESH} ${CLIENT_SECRET}` } }
        : { body: {} },
    );
    const logger = capturingLogger();
    const ctx = createContext({
      auth: token(0),
      oauthCredentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, tokenUrl: `${server.url}/token` },
      baseUrl: server.url,
      logger,
    });
    const error = (await ctx
      .send({ operation: "get_library_songs", endpoint: "browse", body: {} })
      .catch((e: unknown) => e)) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.code).toBe(ErrorCodes.AUTH_EXPIRED);
    assertNoSecrets(`${error.message} ${String(error.stack)} ${logger.text()}`, [
      ACCESS,
      REFRESH,
      CLIENT_SECRET,
    ]);
  });
});
