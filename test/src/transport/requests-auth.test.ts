import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { API_KEY, clientVersion } from "../../../shared/wire/constants.js";
import { AuthError, ErrorCodes, MusicApiError } from "../../../src/index.js";
import { createContext } from "../../../src/transport/context.js";
import { recordingLogger } from "../../support/page-server.js";
import { endpointOf, START_PAGE, startServer, type TestServer } from "../../support/replay-server.js";

/**
 * The exact request line, headers and body of authenticated requests — browser headers, OAuth and
 * a brand account — and that no credential ever reaches an error or a log line.
 */

const SAPISID = "AbCdEfGhIjKlMnOp/QrStUvWxYz012345";
const SESSION = "g.a000secret-session-cookie-value-0123456789";
const BROWSER = {
  cookie: `SID=${SESSION}; __Secure-3PAPISID=${SAPISID}; SAPISID=${SAPISID}`,
  "x-goog-authuser": "1",
  authorization: "SAPISIDHASH 1600000000_0000000000000000000000000000000000000000",
  "x-origin": "https://music.youtube.com",
  "x-goog-visitor-id": "Cgtwasted-visitor",
};
const ACCESS = "ya29.a0AccessTokenForTests-0123456789abcdef";
const REFRESH = "1//0RefreshTokenForTests-0123456789abcdef";
const CLIENT_SECRET = "GOCSPX-client-secret-for-tests";

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(answer: () => { status?: number; body: unknown } = () => ({ body: { ok: true } })) {
  const server = await startServer((request) =>
    endpointOf(request.path) === null ? { body: START_PAGE } : answer(),
  );
  servers.push(server);
  return server;
}

const apiCalls = (server: TestServer) => server.requests.filter((r) => endpointOf(r.path) !== null);

describe("a browser-authenticated request", () => {
  it("carries the pasted cookie, a fresh SAPISIDHASH, the account index and the API key", async () => {
    const server = await serve();
    const ctx = createContext({ baseUrl: server.url, auth: BROWSER });
    const before = Math.floor(Date.now() / 1000);
    await ctx.send({ operation: "get_history", endpoint: "browse", body: { browseId: "FEmusic_history" } });
    const after = Math.floor(Date.now() / 1000);

    const [sent] = apiCalls(server);
    expect(sent?.path).toBe("/youtubei/v1/browse");
    expect(sent?.query).toBe(`alt=json&prettyPrint=false&key=${API_KEY}`);
    expect(sent?.headers).toMatchObject({
      cookie: BROWSER.cookie,
      "x-goog-authuser": "1",
      "x-origin": "https://music.youtube.com",
      origin: "https://music.youtube.com",
      "content-type": "application/json",
      // A visitor id in the pasted headers is used as is: no start-page request is needed.
      "x-goog-visitor-id": "Cgtwasted-visitor",
    });
    const authorization = String(sent?.headers.authorization);
    const match = /^SAPISIDHASH (\d+)_([0-9a-f]{40})$/.exec(authorization);
    expect(match).not.toBeNull();
    const ts = Number(match?.[1]);
    expect(ts).toBeGreaterThanOrEqual(before);
    expect(ts).toBeLessThanOrEqual(after);
    const expected = createHash("sha1").update(`${ts} ${SAPISID} https://music.youtube.com`).digest("hex");
    expect(match?.[2]).toBe(expected);
    expect(server.requests.some((r) => r.path === "/")).toBe(false);
    expect(sent?.json).toEqual({
      browseId: "FEmusic_history",
      context: { client: { clientName: "WEB_REMIX", clientVersion: clientVersion(), hl: "en" }, user: {} },
    });
  });
});

describe("an OAuth request", () => {
  it("carries the bearer token and the request time, the consent cookie and no API key", async () => {
    const server = await serve();
    const ctx = createContext({
      baseUrl: server.url,
      auth: {
        access_token: ACCESS,
        refresh_token: REFRESH,
        token_type: "Bearer",
        scope: "https://www.googleapis.com/auth/youtube",
        expires_at: Math.floor(Date.now() / 1000) + 3600,
        expires_in: 3600,
      },
      oauthCredentials: { clientId: "client.apps.example", clientSecret: CLIENT_SECRET },
    });
    const before = Math.floor(Date.now() / 1000);
    await ctx.send({
      operation: "get_library_songs",
      endpoint: "browse",
      body: { browseId: "FEmusic_liked_videos" },
    });

    const [sent] = apiCalls(server);
    expect(sent?.query).toBe("alt=json&prettyPrint=false");
    expect(sent?.headers.authorization).toBe(`Bearer ${ACCESS}`);
    expect(Number(sent?.headers["x-goog-request-time"])).toBeGreaterThanOrEqual(before);
    expect(sent?.headers.cookie).toBe("SOCS=CAI");
    expect(sent?.headers["x-goog-visitor-id"]).toBe("Cgt2aXNpdG9yLWlk");
    expect(sent?.json).toMatchObject({ browseId: "FEmusic_liked_videos", context: { user: {} } });
  });
});

describe("a brand-account request", () => {
  it("names the brand account in the context of every request", async () => {
    const server = await serve();
    const ctx = createContext({ baseUrl: server.url, auth: BROWSER, user: "112233445566778899001" });
    await ctx.send({
      operation: "get_library_playlists",
      endpoint: "browse",
      body: { browseId: "FEmusic_liked_playlists" },
    });
    await ctx.send({
      operation: "rate_song",
      endpoint: "like/like",
      body: { target: { videoId: "x" } },
      write: true,
    });
    for (const sent of apiCalls(server)) {
      expect(sent.json).toMatchObject({ context: { user: { onBehalfOfUser: "112233445566778899001" } } });
      expect(sent.headers.cookie).toBe(BROWSER.cookie);
    }
  });
});

describe("credentials stay out of errors and logs", () => {
  const secrets = [SAPISID, SESSION, ACCESS, REFRESH, CLIENT_SECRET];
  const leaks = (text: string) => secrets.filter((s) => text.includes(s));

  it("scrubs an error message that echoes the cookie, and logs no header", async () => {
    // A hostile or buggy answer that quotes the request's credentials back.
    const server = await serve(() => ({
      status: 500,
      body: { error: { code: 500, message: `backend saw cookie ${BROWSER.cookie} (SAPISID ${SAPISID})` } },
    }));
    const logger = recordingLogger();
    const ctx = createContext({
      baseUrl: server.url,
      auth: BROWSER,
      logger,
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2, totalMs: 1000 },
    });
    const error = await ctx
      .send({ operation: "get_history", endpoint: "browse", body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MusicApiError);
    const everything = [
      (error as Error).message,
      JSON.stringify(error),
      JSON.stringify(Object.entries(error as object)),
      String((error as Error).stack),
      ...logger.lines.map((line) => JSON.stringify(line)),
    ].join("\n");
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(leaks(everything)).toEqual([]);
    expect((error as Error).message).toContain("[redacted]");
  });

  it("scrubs OAuth tokens echoed by the service", async () => {
    const server = await serve(() => ({
      status: 400,
      body: { error: { code: 400, message: `bad request with Bearer ${ACCESS}` } },
    }));
    const ctx = createContext({
      baseUrl: server.url,
      auth: {
        access_token: ACCESS,
        refresh_token: REFRESH,
        token_type: "Bearer",
        scope: "https://www.googleapis.com/auth/youtube",
        expires_at: Math.floor(Date.now() / 1000) + 3600,
      },
      oauthCredentials: { clientId: "client.apps.example", clientSecret: CLIENT_SECRET },
    });
    const error = await ctx
      .send({ operation: "get_history", endpoint: "browse", body: {} })
      .catch((e: unknown) => e);
    expect((error as MusicApiError).code).toBe(ErrorCodes.HTTP_ERROR);
    expect(leaks(`${(error as Error).message} ${JSON.stringify(error)}`)).toEqual([]);
  });

  it("names no credential when the service refuses them", async () => {
    const server = await serve(() => ({
      status: 401,
      body: { error: { code: 401, message: "Unauthorized" } },
    }));
    const ctx = createContext({ baseUrl: server.url, auth: BROWSER });
    const error = await ctx
      .send({ operation: "get_history", endpoint: "browse", body: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe(ErrorCodes.AUTH_EXPIRED);
    expect(leaks(`${(error as Error).message} ${JSON.stringify(error)}`)).toEqual([]);
  });

  it("keeps a connection error free of credentials", async () => {
    const server = await serve();
    const url = server.url;
    await server.close();
    servers = [];
    const logger = recordingLogger();
    const ctx = createContext({ baseUrl: url, auth: BROWSER, logger, retry: false });
    const error = await ctx
      .send({ operation: "get_history", endpoint: "browse", body: {} })
      .catch((e: unknown) => e);
    expect((error as MusicApiError).code).toBe(ErrorCodes.CONNECTION);
    expect(
      leaks(`${(error as Error).message} ${JSON.stringify(error)} ${JSON.stringify(logger.lines)}`),
    ).toEqual([]);
  });
});
