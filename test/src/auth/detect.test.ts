import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ResolveAuthOptions, resolveAuth } from "../../../src/auth/index.js";
import type { AuthProvider } from "../../../src/auth/types.js";
import type { MusicClientOptions } from "../../../src/client.js";
import { ArgumentError, AuthError, ErrorCodes, MusicApiError } from "../../../src/errors.js";
import { silentLogger } from "../../../src/logger.js";
import { createContext } from "../../../src/transport/context.js";

const SAPISID = "Zz9Yy8Xx7Ww6-secure3p";
const COOKIE = `SID=sidvalue123456; __Secure-3PAPISID=${SAPISID}; PREF=hl=en`;
const HEADERS = { Cookie: COOKIE, "X-Goog-AuthUser": "3", "x-origin": "https://music.youtube.com" };
const TOKEN = {
  access_token: "ya29.access-token-value",
  refresh_token: "1//refresh-token-value",
  token_type: "Bearer",
  scope: "https://www.googleapis.com/auth/youtube",
  expires_at: 4_000_000_000,
  expires_in: 600_000,
};
const CREDENTIALS = { clientId: "client-id.apps.example", clientSecret: "client-secret-value" };

const base: ResolveAuthOptions = { timeoutMs: 5_000, logger: silentLogger };

function resolve(
  auth: MusicClientOptions["auth"],
  extra: Partial<ResolveAuthOptions> = {},
): AuthProvider | null {
  return resolveAuth(auth, { ...base, ...extra });
}

function failure(fn: () => unknown): MusicApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof MusicApiError) return error;
    throw error;
  }
  throw new Error("expected an error");
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "musicapi-detect-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

describe("detecting the kind of `auth`", () => {
  it("no auth: no provider", () => {
    expect(resolve(undefined)).toBeNull();
  });

  it("raw header lines → browser", async () => {
    const provider = resolve(`Cookie: ${COOKIE}\nX-Goog-AuthUser: 3\n`);
    expect(provider?.kind).toBe("browser");
    expect(provider?.authUser).toBe("3");
    expect((await provider!.headers()).cookie).toBe(COOKIE);
  });

  it("a single header line is header text, not a file name", () => {
    expect(resolve(`cookie: ${COOKIE}`)?.kind).toBe("browser");
  });

  it("a JSON headers string → browser", () => {
    expect(resolve(JSON.stringify(HEADERS))?.kind).toBe("browser");
  });

  it("a headers object → browser", () => {
    expect(resolve(HEADERS)?.kind).toBe("browser");
  });

  it("a path to a headers file → browser", async () => {
    const path = await file("browser.json", JSON.stringify(HEADERS, null, 4));
    const provider = resolve(path);
    expect(provider?.kind).toBe("browser");
    expect(provider?.sendsApiKey).toBe(true);
  });

  it("a file of raw copied headers → browser", async () => {
    const path = await file("headers.txt", `POST /youtubei/v1/browse HTTP/2\nCookie: ${COOKIE}\n`);
    expect(resolve(path)?.kind).toBe("browser");
  });

  it("a token object → oauth (with the client credentials)", () => {
    const provider = resolve(TOKEN, { oauthCredentials: CREDENTIALS });
    expect(provider?.kind).toBe("oauth");
    expect(provider?.sendsApiKey).toBe(false);
    expect(provider?.authUser).toBe("0");
  });

  it("a path to a token file with extra keys → oauth", async () => {
    const path = await file("oauth.json", JSON.stringify({ ...TOKEN, refresh_token_expires_in: 100 }));
    expect(resolve(path, { oauthCredentials: CREDENTIALS })?.kind).toBe("oauth");
  });

  it("a JSON token string → oauth", () => {
    expect(resolve(JSON.stringify(TOKEN), { oauthCredentials: CREDENTIALS })?.kind).toBe("oauth");
  });

  it("headers whose authorization is a bearer token → oauth-headers, sent verbatim without credentials", async () => {
    const provider = resolve({ Authorization: "Bearer ya29.full-header-token", "X-Goog-AuthUser": "1" });
    expect(provider?.kind).toBe("oauth-headers");
    expect(provider?.sendsApiKey).toBe(false);
    expect(await provider!.headers()).toEqual({
      authorization: "Bearer ya29.full-header-token",
      "x-goog-authuser": "1",
    });
    expect(provider!.secrets()).toContain("ya29.full-header-token");
  });
});

describe("refusing unusable `auth`", () => {
  it("a missing file: AUTH_INVALID naming it, 'not found'", () => {
    const path = join(dir, "nowhere.json");
    const error = failure(() => resolve(path));
    expect(error).toBeInstanceOf(AuthError);
    expect(error.code).toBe(ErrorCodes.AUTH_INVALID);
    expect(error.message).toContain(path);
    expect(error.message).toMatch(/not found/);
  });

  it("a file that is neither headers nor a token: AUTH_INVALID naming it", async () => {
    for (const [name, content] of [
      ["notes.txt", "just some words\nand more words"],
      ["other.json", JSON.stringify({ name: "value" })],
      ["broken.json", "{ not json"],
    ] as const) {
      const path = await file(name, content);
      const error = failure(() => resolve(path));
      expect(error.code).toBe(ErrorCodes.AUTH_INVALID);
      expect(error.message).toContain(path);
      expect(error.message).toMatch(/neither a browser headers file nor an OAuth token file/);
    }
  });

  it("a directory: AUTH_INVALID naming it", async () => {
    const path = join(dir, "a-folder");
    await mkdir(path);
    const error = failure(() => resolve(path));
    expect(error.code).toBe(ErrorCodes.AUTH_INVALID);
    expect(error.message).toContain(path);
  });

  it("browser headers without a cookie", () => {
    const error = failure(() => resolve({ "X-Goog-AuthUser": "0", authorization: "SAPISIDHASH 1_abc" }));
    expect(error.code).toBe(ErrorCodes.AUTH_INVALID);
    expect(error.message).toMatch(/no `cookie` header/);
  });

  it("a cookie without __Secure-3PAPISID or SAPISID, never quoting the cookie", () => {
    const error = failure(() => resolve({ cookie: "SID=sidvalue123456; HSID=hsidvalue7890" }));
    expect(error.code).toBe(ErrorCodes.AUTH_INVALID);
    expect(error.message).toMatch(/__Secure-3PAPISID/);
    expect(error.message).not.toContain("sidvalue123456");
    expect(error.message).not.toContain("hsidvalue7890");
  });

  it("a token without oauthCredentials", () => {
    const error = failure(() => resolve(TOKEN));
    expect(error.code).toBe(ErrorCodes.AUTH_INVALID);
    expect(error.message).toMatch(/oauthCredentials/);
  });

  it("a token without a refresh token, never quoting the access token", () => {
    const error = failure(() =>
      resolve({ access_token: TOKEN.access_token }, { oauthCredentials: CREDENTIALS }),
    );
    expect(error.code).toBe(ErrorCodes.AUTH_INVALID);
    expect(error.message).toMatch(/refresh_token/);
    expect(error.message).not.toContain(TOKEN.access_token);
  });

  it("JSON that does not parse, never quoting it", () => {
    const error = failure(() => resolve(`{"cookie": "${COOKIE}",`));
    expect(error.code).toBe(ErrorCodes.AUTH_INVALID);
    expect(error.message).not.toContain(SAPISID);
  });

  it("an empty string or a value of the wrong type: ArgumentError naming `auth`", () => {
    expect(failure(() => resolve("  "))).toBeInstanceOf(ArgumentError);
    const error = failure(() => resolve(42 as unknown as string));
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as ArgumentError).argument).toBe("auth");
  });

  it("a header value that is not text", () => {
    const error = failure(() =>
      resolve({ cookie: COOKIE, extra: { nested: true } } as unknown as Record<string, string>),
    );
    expect(error.code).toBe(ErrorCodes.AUTH_INVALID);
    expect(error.message).toContain("`extra`");
  });

  it("fails in the client's constructor, before any request", () => {
    expect(() => createContext({ auth: join(dir, "missing.json") })).toThrow(AuthError);
  });
});

/** A local service that records what it was sent and answers every POST with `{}`. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

describe("the requests an authenticated client sends", () => {
  let server: Server;
  let origin: string;
  const seen: Seen[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
      req.resume();
      req.on("end", () => {
        if (req.method === "GET") {
          res.end('<script>ytcfg.set({"VISITOR_DATA":"visitor-from-page"});</script>');
        } else {
          res.setHeader("content-type", "application/json");
          res.end("{}");
        }
      });
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((ok) => server.close(ok));
  });

  it("browser auth: cookie as pasted, a valid SAPISIDHASH, the key on the URL, no consent cookie", async () => {
    seen.length = 0;
    const ctx = createContext({ auth: HEADERS, baseUrl: origin, retry: false });
    const before = Math.floor(Date.now() / 1000);
    await ctx.send({ operation: "test", endpoint: "browse", body: { browseId: "FEmusic_home" } });
    const after = Math.floor(Date.now() / 1000);
    const post = seen.find((s) => s.method === "POST")!;
    expect(post.url).toMatch(/[?&]key=AIza/);
    expect(post.headers.cookie).toBe(COOKIE);
    expect(post.headers["x-goog-authuser"]).toBe("3");
    const match = /^SAPISIDHASH (\d+)_([0-9a-f]{40})$/.exec(String(post.headers.authorization));
    expect(match).not.toBeNull();
    const ts = Number(match![1]);
    expect(ts).toBeGreaterThanOrEqual(before);
    expect(ts).toBeLessThanOrEqual(after);
    // The transport's origin header is the service's; the hash must be made with the same one.
    const origin_ = String(post.headers.origin);
    expect(match![2]).toBe(createHash("sha1").update(`${ts} ${SAPISID} ${origin_}`).digest("hex"));
    expect(ctx.authKind).toBe("browser");
    expect(ctx.authUser).toBe("3");
  });

  it("OAuth: bearer token, request time, consent cookie, no key", async () => {
    seen.length = 0;
    const ctx = createContext({ auth: TOKEN, oauthCredentials: CREDENTIALS, baseUrl: origin, retry: false });
    await ctx.send({ operation: "test", endpoint: "browse", body: { browseId: "FEmusic_home" } });
    const post = seen.find((s) => s.method === "POST")!;
    expect(post.url).not.toMatch(/key=/);
    expect(post.headers.authorization).toBe(`Bearer ${TOKEN.access_token}`);
    expect(Math.abs(Number(post.headers["x-goog-request-time"]) - Date.now() / 1000)).toBeLessThan(5);
    expect(post.headers.cookie).toBe("SOCS=CAI");
    expect(ctx.authKind).toBe("oauth");
  });
});
