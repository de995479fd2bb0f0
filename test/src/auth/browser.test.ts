import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { browserProvider, encodeHeaderValue } from "../../../src/auth/browser.js";
import { parseHeaderLines, resolveAuth, sapisidHash, setup } from "../../../src/auth/index.js";
import { AuthError, ErrorCodes } from "../../../src/errors.js";
import { silentLogger } from "../../../src/logger.js";

const SAPISID = "AbCdEf/GhIjKlMnOp-3P";
const COOKIE = `VISITOR_INFO1_LIVE=visitorvalue1; SAPISID=plainsapisid99; __Secure-3PAPISID=${SAPISID}; PREF=f6=40000000`;

/** Firefox's "Copy Request Headers": a request line, then `Name: value`. */
const FIREFOX = [
  "POST /youtubei/v1/browse?prettyPrint=false HTTP/2",
  "Host: music.youtube.com",
  "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0",
  "Accept: */*",
  "Accept-Language: en-US,en;q=0.5",
  "Accept-Encoding: gzip, deflate, br, zstd",
  "Content-Type: application/json",
  "Content-Length: 1234",
  "Referer: https://music.youtube.com/library",
  "X-Goog-Visitor-Id: CgtWaXNpdG9ySWQ%3D",
  "X-Youtube-Client-Name: 67",
  "X-Youtube-Client-Version: 1.20260223.03.00",
  "Authorization: SAPISIDHASH 1700000000_0123456789abcdef0123456789abcdef01234567",
  "X-Goog-AuthUser: 1",
  "X-Origin: https://music.youtube.com",
  "Origin: https://music.youtube.com",
  "Sec-Fetch-Dest: empty",
  "Sec-Fetch-Mode: same-origin",
  "Connection: keep-alive",
  `Cookie: ${COOKIE}`,
  "TE: trailers",
].join("\r\n");

/** Chrome DevTools' request-header list: pseudo headers first, each name above its value. */
const CHROME = [
  ":authority",
  "music.youtube.com",
  ":method",
  "POST",
  ":path",
  "/youtubei/v1/browse?prettyPrint=false",
  ":scheme",
  "https",
  "accept",
  "*/*",
  "accept-encoding",
  "gzip, deflate, br, zstd",
  "authorization:",
  "SAPISIDHASH 1700000000_0123456789abcdef0123456789abcdef01234567",
  "content-type",
  "application/json",
  "cookie",
  COOKIE,
  "origin",
  "https://music.youtube.com",
  "sec-ch-ua",
  '"Chromium";v="140", "Not=A?Brand";v="24"',
  "user-agent",
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36",
  "x-goog-authuser",
  "2",
  "x-goog-visitor-id",
  "CgtWaXNpdG9ySWQ%3D",
].join("\n");

describe("reading copied request headers", () => {
  it("reads Firefox's Name: value lines, skipping the request line", () => {
    const headers = parseHeaderLines(FIREFOX);
    expect(headers.cookie).toBe(COOKIE);
    expect(headers["x-goog-authuser"]).toBe("1");
    expect(headers["accept-language"]).toBe("en-US,en;q=0.5");
    expect(headers.host).toBe("music.youtube.com");
    expect(Object.keys(headers).some((name) => name.startsWith("post"))).toBe(false);
  });

  it("reads Chrome's name-then-value list, dropping pseudo headers and their values", () => {
    const headers = parseHeaderLines(CHROME);
    expect(headers.cookie).toBe(COOKIE);
    expect(headers["x-goog-authuser"]).toBe("2");
    expect(headers.authorization).toMatch(/^SAPISIDHASH /);
    expect(headers["sec-ch-ua"]).toBe('"Chromium";v="140", "Not=A?Brand";v="24"');
    // Neither the pseudo names nor their values may turn into headers.
    for (const leaked of [":authority", "authority", "music.youtube.com", "post", "https"]) {
      expect(headers[leaked]).toBeUndefined();
    }
  });

  it("skips one-line pseudo headers and keeps an empty value as a header", () => {
    const headers = parseHeaderLines(":authority: music.youtube.com\nX-Empty: \ncookie: a=b\n");
    expect(headers).toEqual({ "x-empty": "", cookie: "a=b" });
  });
});

describe("setup", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "musicapi-auth-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes the kept headers with mode 0600, sorted keys and 4-space indent", async () => {
    const file = join(dir, "browser.json");
    const returned = await setup({ filepath: file, headersRaw: FIREFOX });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, "utf8");
    const saved = JSON.parse(text) as Record<string, string>;
    expect(JSON.parse(returned)).toEqual(saved);
    expect(Object.keys(saved)).toEqual([...Object.keys(saved)].sort());
    expect(text).toContain('\n    "cookie": ');
    expect(saved.cookie).toBe(COOKIE);
    expect(saved["x-goog-authuser"]).toBe("1");
    expect(saved["x-origin"]).toBe("https://music.youtube.com");
    expect(saved["accept-language"]).toBe("en-US,en;q=0.5");
    // Dropped: sec-*, host, content-length; the default set replaces the browser's own values.
    for (const gone of ["sec-fetch-dest", "sec-fetch-mode", "host", "content-length"]) {
      expect(saved[gone]).toBeUndefined();
    }
    expect(saved["accept-encoding"]).toBe("gzip, deflate");
    expect(saved["user-agent"]).toMatch(/rv:88\.0/);
    expect(saved.origin).toBe("https://music.youtube.com");
    expect(saved.connection).toBeUndefined();
    // The returned string is itself a valid `auth`.
    expect(resolveAuth(returned, { timeoutMs: 1000, logger: silentLogger })?.kind).toBe("browser");
  });

  it("narrows an existing file's mode to 0600 when it overwrites it", async () => {
    const file = join(dir, "browser.json");
    await writeFile(file, "{}", { mode: 0o644 });
    await setup({ filepath: file, headersRaw: CHROME });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((JSON.parse(await readFile(file, "utf8")) as Record<string, string>)["x-goog-authuser"]).toBe("2");
  });

  it("escapes non-ASCII characters in the file", async () => {
    const file = join(dir, "browser.json");
    await setup({ filepath: file, headersRaw: `${FIREFOX}\nX-Name: Zoë` });
    const text = await readFile(file, "utf8");
    expect(text).toContain("Zo\\u00eb");
    expect((JSON.parse(text) as Record<string, string>)["x-name"]).toBe("Zoë");
  });

  it("reads standard input (or the given stream) when no headers are passed", async () => {
    const json = await setup({ input: Readable.from([Buffer.from(CHROME)]) });
    expect((JSON.parse(json) as Record<string, string>).cookie).toBe(COOKIE);
  });

  it.each([
    ["cookie", FIREFOX.replace(/\r\nCookie: [^\r]*/, ""), /lack `cookie`/],
    ["x-goog-authuser", FIREFOX.replace(/\r\nX-Goog-AuthUser: 1/, ""), /lack `x-goog-authuser`/],
    ["both", "Accept: */*\nOrigin: https://music.youtube.com", /lack `cookie` and `x-goog-authuser`/],
  ])("refuses headers without %s, naming what is missing", async (_, text, message) => {
    const file = join(dir, "browser.json");
    const error = await setup({ filepath: file, headersRaw: text }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe(ErrorCodes.AUTH_INVALID);
    expect((error as AuthError).message).toMatch(message);
    await expect(stat(file)).rejects.toThrow();
  });

  it("refuses a cookie without a SAPISID, without repeating the cookie", async () => {
    const text = "Cookie: PREF=f6=40000000; VISITOR=secretvisitorvalue\nX-Goog-AuthUser: 0";
    const error = (await setup({ headersRaw: text }).catch((e: unknown) => e)) as AuthError;
    expect(error.code).toBe(ErrorCodes.AUTH_INVALID);
    expect(error.message).toMatch(/__Secure-3PAPISID/);
    expect(error.message).not.toContain("secretvisitorvalue");
  });
});

describe("SAPISIDHASH", () => {
  it("matches SHA-1 of the documented input string, computed independently", () => {
    // docs/PROTOCOL.md#browser-headers's example input: "<ts> <SAPISID> <origin>".
    const input = "1700000000 AbCdEf/GhIjK https://music.youtube.com";
    const expected = createHash("sha1").update(input).digest("hex");
    expect(sapisidHash("AbCdEf/GhIjK", "https://music.youtube.com", 1_700_000_000)).toBe(
      `SAPISIDHASH 1700000000_${expected}`,
    );
  });

  it("uses whole seconds and changes with the time and the origin", () => {
    const a = sapisidHash(SAPISID, "https://music.youtube.com", 1_700_000_000.9);
    expect(a.startsWith("SAPISIDHASH 1700000000_")).toBe(true);
    expect(a).toMatch(/^SAPISIDHASH \d+_[0-9a-f]{40}$/);
    expect(sapisidHash(SAPISID, "https://music.youtube.com", 1_700_000_001)).not.toBe(a);
    expect(sapisidHash(SAPISID, "https://www.youtube.com", 1_700_000_000)).not.toBe(a);
  });
});

describe("the browser provider", () => {
  const now = () => 1_750_000_000_123;
  const hashOf = (sapisid: string, origin: string) =>
    `SAPISIDHASH 1750000000_${createHash("sha1").update(`1750000000 ${sapisid} ${origin}`).digest("hex")}`;

  it("sends the kept headers with a fresh hash from __Secure-3PAPISID and the origin header", async () => {
    const provider = browserProvider(parseHeaderLines(FIREFOX), { source: "test", now });
    const headers = await provider.headers();
    expect(headers.authorization).toBe(hashOf(SAPISID, "https://music.youtube.com"));
    expect(headers.cookie).toBe(COOKIE);
    expect(headers["x-goog-authuser"]).toBe("1");
    expect(headers.host).toBeUndefined();
    expect(headers["accept-encoding"]).toBeUndefined();
    expect(headers["sec-fetch-mode"]).toBeUndefined();
    // Connection headers belong to the HTTP client (undici refuses some of them outright).
    expect(headers.connection).toBeUndefined();
    expect(headers.te).toBeUndefined();
    expect(provider.kind).toBe("browser");
    expect(provider.sendsApiKey).toBe(true);
    expect(provider.authUser).toBe("1");
  });

  it("hashes with x-origin when there is no origin header, and SAPISID when the secure cookie is absent", async () => {
    const provider = browserProvider(
      { Cookie: "SAPISID=onlyplainsapisid", "X-Origin": "https://origin.example", "X-Goog-AuthUser": "0" },
      { source: "test", now },
    );
    expect((await provider.headers()).authorization).toBe(
      hashOf("onlyplainsapisid", "https://origin.example"),
    );
  });

  it("defaults the origin to the service's and the account index to 0", async () => {
    const provider = browserProvider({ cookie: `"__Secure-3PAPISID=${SAPISID}"` }, { source: "test", now });
    expect((await provider.headers()).authorization).toBe(hashOf(SAPISID, "https://music.youtube.com"));
    expect(provider.authUser).toBe("0");
  });

  it("percent-encodes non-ASCII header values", async () => {
    expect(encodeHeaderValue("Zoë ok")).toBe("Zo%C3%AB ok");
    expect(encodeHeaderValue("a\tb")).toBe("a%09b");
    const provider = browserProvider(
      { cookie: `__Secure-3PAPISID=${SAPISID}`, "x-name": "Zoë" },
      { source: "t" },
    );
    expect((await provider.headers())["x-name"]).toBe("Zo%C3%AB");
  });

  it("lists the cookie, each long cookie value, SAPISID and the last hash as secrets", async () => {
    const provider = browserProvider(parseHeaderLines(FIREFOX), { source: "test", now });
    const { authorization } = await provider.headers();
    const secrets = provider.secrets();
    for (const s of [COOKIE, SAPISID, "plainsapisid99", "visitorvalue1", authorization!]) {
      expect(secrets).toContain(s);
    }
    // `f6=40000000`… is 11 characters and goes in; short values would mangle ordinary text.
    expect(secrets.every((s) => s.length >= 8)).toBe(true);
  });

  it("hands out one frozen list of secrets until a new hash comes, then one with it", async () => {
    let at = 1_750_000_000_123;
    const provider = browserProvider(parseHeaderLines(FIREFOX), { source: "test", now: () => at });
    const first = (await provider.headers()).authorization!;
    const listed = provider.secrets();
    expect(Object.isFrozen(listed)).toBe(true);
    await provider.headers(); // the same second: the same hash
    expect(provider.secrets()).toBe(listed);
    at += 1000;
    const next = (await provider.headers()).authorization!;
    expect(next).not.toBe(first);
    expect(provider.secrets()).not.toBe(listed);
    expect(provider.secrets()).toEqual(expect.arrayContaining([first, next]));
  });
});
