/**
 * A service that echoes the credentials back (docs/ENGINE.md#credentials): whatever it sends, in whatever
 * spelling, the client hands out no credential and no 12-character piece of one — not in a result,
 * an error's message, stack or properties, a header, or a log line.
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { Redactor } from "../../../shared/redact.js";
import { AuthError, ErrorCodes, MusicClient } from "../../../src/index.js";
import { createContext } from "../../../src/transport/context.js";
import { asciiJsonText } from "../../../src/transport/json-text.js";
import { credentialSecrets, describePieces, findCredentialPieces } from "../../support/credential-leaks.js";
import {
  ECHO_WAYS,
  type EchoServer,
  type EchoWay,
  everySpelling,
  reflect,
  startEchoServer,
} from "../../support/echo-server.js";
import { recordingLogger } from "../../support/page-server.js";
import { endpointOf, START_PAGE, startServer, type TestServer } from "../../support/replay-server.js";

/** Symbols in the values, so that every encoding really changes them. */
const SAPISID = "Xy9/Zq8+Wv7&Ut6<Sr5>Qp4'On3=Ml2Kk";
const COOKIE = `SOCS=CAI; SID=g.a000Abc/Def+Ghi=Jkl&Mno-Pqr_Stu; HSID=AhV3x9K2pL0qRz7Tw; SAPISID=${SAPISID}; __Secure-3PAPISID=${SAPISID}`;
const HEADERS = { cookie: COOKIE, "x-goog-authuser": "0" };

let servers: EchoServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function echoing(way: EchoWay): Promise<EchoServer> {
  const server = await startEchoServer({ route: () => way });
  servers.push(server);
  return server;
}

/** Every credential the server was sent: the cookie, its values, each request's SAPISIDHASH. */
function secretsSent(server: EchoServer): string[] {
  const all = new Set(credentialSecrets(HEADERS));
  for (const request of server.requests) {
    for (const s of credentialSecrets(request.headers as Record<string, string>)) all.add(s);
  }
  return [...all];
}

/** Everything a caller could print of an outcome: the result, or the error with all it holds. */
function printable(outcome: PromiseSettledResult<unknown>): string {
  if (outcome.status === "fulfilled") return JSON.stringify(outcome.value) ?? "undefined";
  const error = outcome.reason as Error;
  const own = Object.fromEntries(Object.getOwnPropertyNames(error).map((k) => [k, (error as never)[k]]));
  return [inspect(error, { depth: null, showHidden: true }), JSON.stringify(own), String(error.stack)].join(
    "\n",
  );
}

/** The calls each echo is answered to: a read and a write, or the operation the echo is meant for. */
function callsFor(way: EchoWay, client: MusicClient): Promise<unknown>[] {
  if (way === "status-failed") {
    return [
      client.addPlaylistItems("PLechoplaylist", ["abcdefghijk"]),
      client.createPlaylist("Echo", "a playlist"),
      client.removePlaylistItems("PLechoplaylist", [{ videoId: "abcdefghijk", setVideoId: "ABCDEF0123" }]),
    ];
  }
  if (way === "read-unparseable") return [client.getPlaylist("PLechoplaylist"), client.getLibraryPlaylists()];
  return [client.getLibraryPlaylists(), client.createPlaylist("Echo", "a playlist")];
}

describe("a service that echoes the credentials back", () => {
  // docs/ENGINE.md#credentials
  it.each(ECHO_WAYS.filter((w) => w !== "oauth-error"))(
    "hands out no piece of a credential when it echoes them as %s",
    async (way) => {
      const server = await echoing(way);
      const logger = recordingLogger();
      const client = new MusicClient({ auth: HEADERS, baseUrl: server.url, retry: false, logger });
      const outcomes = await Promise.allSettled(callsFor(way, client));
      const secrets = secretsSent(server);
      // The server really did send them back (otherwise this test could not fail).
      expect(findCredentialPieces(server.sent.join("\n"), secrets).length).toBeGreaterThan(0);
      const output = [...outcomes.map(printable), JSON.stringify(logger.lines)].join("\n");
      const found = findCredentialPieces(output, secrets);
      expect(found, describePieces(found)).toEqual([]);
    },
  );

  // docs/ENGINE.md#credentials
  it("keeps a refused write's whole response, with each credential replaced by [redacted]", async () => {
    const server = await echoing("status-failed");
    const client = new MusicClient({ auth: HEADERS, baseUrl: server.url, retry: false });
    const answer = (await client.addPlaylistItems("PLechoplaylist", ["abcdefghijk"])) as Record<
      string,
      unknown
    >;
    expect(answer.status).toBe("STATUS_FAILED");
    expect(JSON.stringify(answer)).toContain("[redacted]");
    expect(answer.actions).toBeInstanceOf(Array);
  });

  // docs/ENGINE.md#credentials
  it("keeps error.status and error.message out of ServiceError when they hold a credential", async () => {
    const server = await echoing("all-in-one");
    const client = new MusicClient({ auth: HEADERS, baseUrl: server.url, retry: false });
    const error = await client.getLibraryPlaylists().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCodes.HTTP_ERROR, status: 400, serviceStatus: "[redacted]" });
    expect((error as Error).message).toContain("[redacted]");
  });

  // docs/ENGINE.md#credentials
  it("scrubs the headers and text of a plain page the service answers", async () => {
    const server = await echoing("headers");
    const ctx = createContext({ auth: HEADERS, baseUrl: server.url });
    const response = await ctx.raw({
      operation: "page",
      method: "GET",
      url: `${server.url}/page`,
      authenticated: true,
    });
    const output = `${JSON.stringify(response.headers)}\n${await response.text()}`;
    expect(response.headers["set-cookie"]).toContain("[redacted]");
    const found = findCredentialPieces(output, secretsSent(server));
    expect(found, describePieces(found)).toEqual([]);
  });

  // docs/ENGINE.md#credentials
  it("keeps the client secret and tokens out of a refused OAuth refresh", async () => {
    const server = await echoing("oauth-error");
    const token = {
      access_token: "ya29.a0AfH6SMBx-expired-access-token",
      refresh_token: "1//0gRefreshTokenValueThatIsLong",
      token_type: "Bearer",
      scope: "https://www.googleapis.com/auth/youtube",
      expires_at: 0,
    };
    const credentials = {
      clientId: "client-id.apps",
      clientSecret: "GOCSPX-client-secret-value",
      tokenUrl: server.url,
    };
    const logger = recordingLogger();
    const client = new MusicClient({
      auth: token,
      oauthCredentials: credentials,
      baseUrl: server.url,
      logger,
    });
    const outcome = await Promise.allSettled([client.getLibraryPlaylists()]);
    expect(outcome[0]!.status).toBe("rejected");
    const secrets = [token.access_token, token.refresh_token, credentials.clientSecret];
    expect(findCredentialPieces(server.sent.join("\n"), secrets).length).toBeGreaterThan(0);
    const found = findCredentialPieces(`${printable(outcome[0]!)}\n${JSON.stringify(logger.lines)}`, secrets);
    expect(found, describePieces(found)).toEqual([]);
  });
});

describe("the scrubber", () => {
  const spell: Record<string, (s: string) => string> = {
    raw: (s) => s,
    url: encodeURIComponent,
    "url-lower": (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    form: (s) => new URLSearchParams({ v: s }).toString().slice(2),
    base64: (s) => Buffer.from(s).toString("base64"),
    base64url: (s) => Buffer.from(s).toString("base64url"),
    json: (s) => JSON.stringify(s).slice(1, -1).replace(/\//g, "\\/"),
    "json-unicode": (s) =>
      s.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
    html: (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/'/g, "&#39;"),
  };

  // docs/ENGINE.md#credentials
  it("removes every piece of 12 or more characters, in every spelling, wherever it starts", () => {
    const redactor = new Redactor(() => [COOKIE, SAPISID]);
    let checked = 0;
    for (const [name, encode] of Object.entries(spell)) {
      for (let start = 0; start + 12 <= SAPISID.length; start += 3) {
        for (const length of [12, 13, 17, SAPISID.length - start]) {
          if (start + length > SAPISID.length) continue;
          // Text before the piece shifts base64 alignment, so each of the three is tried.
          const text = `said ${"x".repeat(start % 3)}${encode(`${"ab".slice(0, start % 3)}${SAPISID.slice(start, start + length)}`)} then`;
          expect(findCredentialPieces(text, [SAPISID]).length, `${name} ${start}+${length}`).toBeGreaterThan(
            0,
          );
          const found = findCredentialPieces(redactor.text(text), [SAPISID]);
          expect(found, `${name} ${start}+${length}: ${describePieces(found)}`).toEqual([]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  // docs/ENGINE.md#credentials
  it("leaves JSON text parseable: a piece is cut at whole escapes, never inside one", () => {
    const secret = 'Qw"er\\ty/ui=op&as<df>gh\'jk"lz\\xc';
    const redactor = new Redactor(() => [secret]);
    for (let start = 0; start + 12 <= secret.length; start++) {
      for (const end of [start + 12, start + 13, secret.length]) {
        const piece = secret.slice(start, Math.min(end, secret.length));
        for (const json of [
          JSON.stringify({ v: `a${piece}b` }),
          JSON.stringify({ v: JSON.stringify({ w: piece }) }),
        ]) {
          const scrubbed = redactor.text(json);
          expect(() => JSON.parse(scrubbed), `${start}-${end}: ${scrubbed}`).not.toThrow();
          expect(findCredentialPieces(scrubbed, [secret]), `${start}-${end}`).toEqual([]);
        }
      }
    }
  });

  // docs/ENGINE.md#credentials
  // docs/ENGINE.md#credentials; found by soak seeds 90 and 203: the body is scrubbed as text before parsing,
  // where a spelling the parsed string holds as escapes stands escaped once more.
  it("scrubs a credential that a string of the raw JSON body holds as escape text", () => {
    const secrets = credentialSecrets({ cookie: COOKIE });
    const redactor = new Redactor(() => secrets);
    const escaped = SAPISID.replace(
      /[^A-Za-z0-9]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
    const raw = JSON.stringify({ title: `Road trip ${escaped}` });
    expect(raw).toContain("\\\\u002f");
    const parsed = JSON.parse(redactor.text(raw)) as { title: string };
    expect(parsed.title.startsWith("Road trip ")).toBe(true);
    expect(findCredentialPieces(parsed.title, secrets)).toEqual([]);
  });

  // The transport parses a body as ASCII text, its other characters escaped (json-text.ts), only
  // when the bytes show no piece that the text's probes would find, and every spelling is ASCII.
  it("asks a body's decoder for the exact text whenever its bytes may hold a piece", () => {
    const secrets = credentialSecrets({ cookie: COOKIE });
    const read = (redactor: Redactor, value: unknown) => {
      const bytes = Buffer.from(JSON.stringify(value));
      const asked: boolean[] = [];
      const text = redactor.jsonBody(bytes, (exact) => {
        asked.push(exact);
        return exact ? bytes.toString("utf8") : (asciiJsonText(bytes, 0) as string);
      });
      return { asked, parsed: JSON.parse(text) as { t: string } };
    };
    const redactor = new Redactor(() => secrets);
    expect(read(redactor, { t: "Beyoncé • Halo" })).toEqual({
      asked: [false],
      parsed: { t: "Beyoncé • Halo" },
    });
    const echoed = read(redactor, { t: `Beyoncé ${SAPISID.slice(2, 20)} • Halo` });
    expect(echoed.asked).toEqual([true]);
    expect(echoed.parsed.t).toBe("Beyoncé [redacted] • Halo");
    const accented = "pässwörd-0123456789-ünïcode";
    const outside = read(new Redactor(() => [accented]), { t: `Halo ${accented.slice(3, 18)} •` });
    expect(outside.asked).toEqual([true]);
    expect(outside.parsed.t).toBe("Halo [redacted] •");
  });

  it("scrubs keys and values of a parsed body without touching the rest or the original", () => {
    const c = reflect({
      headers: { cookie: COOKIE, authorization: "SAPISIDHASH 1700000000_abcdef0123456789" },
    });
    const redactor = new Redactor(() => credentialSecrets({ cookie: COOKIE }));
    const body = { title: "Road trip", [SAPISID]: [everySpelling(c)], n: 3 };
    const clean = redactor.value(body);
    expect(clean.title).toBe("Road trip");
    expect(clean.n).toBe(3);
    expect(Object.keys(clean)).toEqual(["title", "[redacted]", "n"]);
    expect(body[SAPISID]).toEqual([everySpelling(c)]);
    expect(findCredentialPieces(JSON.stringify(clean), credentialSecrets({ cookie: COOKIE }))).toEqual([]);
  });
});

/**
 * A JSON string literal of `text` in which the characters `escaped` picks are written as `\\uXXXX`
 * (hex in either case), as a hostile service may: the raw body then holds no run of the credential
 * as sent, while the parsed string holds all of it.
 */
function escapedLiteral(text: string, escaped: (at: number) => boolean, upper: boolean): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    const code = c.charCodeAt(0);
    if (escaped(i) || c === '"' || c === "\\" || code < 0x20) {
      const hex = code.toString(16).padStart(4, "0");
      out += `\\u${upper ? hex.toUpperCase() : hex}`;
    } else out += c;
  }
  return `${out}"`;
}

/** Ways to split a credential across JSON escapes: every n-th character, symbols only, one in the middle. */
const SPLITS: Record<string, (text: string) => (at: number) => boolean> = {
  "every 5th": () => (at) => at % 5 === 2,
  "every 11th": () => (at) => at % 11 === 6,
  "letters only": (text) => (at) => /[A-Za-z]/.test(text.charAt(at)) && at % 3 === 0,
  "some symbols": (text) => {
    let n = 0;
    return (at) => !/[A-Za-z0-9]/.test(text.charAt(at)) && n++ % 2 === 0;
  },
  "middle one": (text) => (at) => at === Math.floor(text.length / 2),
};

describe("a service that echoes the credentials split across JSON escapes", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  // docs/ENGINE.md#credentials: the body is searched once as raw text, where `\u0041` hides an `A`;
  // a credential must not come out whole in the parsed strings of a refused write's answer.
  // The text parsed is ASCII, other characters written as escapes (json-text.ts): a credential beside
  // them must be found there as it is in the text as decoded.
  const beside = Object.keys(SPLITS).flatMap((split) => [
    [split, "", ""],
    [split, "é•", "日本🎵"],
  ]);
  it.each(beside)(
    "hands out no piece of one escaped %s, in keys and values ('%s', '%s' around)",
    async (split, before, after) => {
      const spellings = Object.entries({
        raw: (s: string) => s,
        url: encodeURIComponent,
        base64: (s: string) => Buffer.from(s).toString("base64"),
        base64url: (s: string) => Buffer.from(s).toString("base64url"),
        html: (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"),
      });
      const sent: string[] = [];
      server = await startServer((request) => {
        if (endpointOf(request.path) === null) return { body: START_PAGE };
        const c = reflect(request);
        const fields: string[] = [];
        for (const secret of [c.cookie, c.sapisid, c.token, c.authorization, c.sapisid.slice(3, 16)]) {
          for (const [name, spell] of spellings) {
            const spelled = spell(secret);
            const pick = (SPLITS[split] as (t: string) => (at: number) => boolean)(spelled);
            const upper = fields.length % 2 === 0;
            const around = (literal: string) => `"${before}${literal.slice(1, -1)}${after}"`;
            fields.push(`"${name}${fields.length}":${around(escapedLiteral(spelled, pick, upper))}`);
            fields.push(`${around(escapedLiteral(spelled, pick, !upper))}:"${name} as a key"`);
          }
        }
        sent.push(`{"status":"STATUS_FAILED","actions":[],${fields.join(",")}}`);
        return { body: sent[sent.length - 1] };
      });
      const logger = recordingLogger();
      const client = new MusicClient({ auth: HEADERS, baseUrl: server.url, retry: false, logger });
      const outcome = await Promise.allSettled([client.addPlaylistItems("PLechoplaylist", ["abcdefghijk"])]);
      expect(outcome[0]?.status).toBe("fulfilled");
      const secrets = new Set(credentialSecrets(HEADERS));
      for (const request of server.requests) {
        for (const s of credentialSecrets(request.headers as Record<string, string>)) secrets.add(s);
      }
      const output = `${printable(outcome[0] as PromiseSettledResult<unknown>)}\n${JSON.stringify(logger.lines)}`;
      // The raw answer hides them from a plain search, its parsed strings hold them (else this test could not fail).
      const parsedKeys = Object.keys(JSON.parse(sent[0] ?? "{}") as object).join("\n");
      expect(findCredentialPieces(parsedKeys, [...secrets]).length).toBeGreaterThan(0);
      const found = findCredentialPieces(output, [...secrets]);
      expect(found, describePieces(found)).toEqual([]);
      expect(output).toContain("[redacted]");
    },
  );
});

describe("an auth string that is neither a file nor credentials", () => {
  // docs/ENGINE.md#credentials
  it("is refused without repeating it (a one-line cookie is not a file name)", () => {
    const error = (() => {
      try {
        new MusicClient({ auth: COOKIE });
      } catch (e) {
        return e as AuthError;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(AuthError);
    expect(error?.code).toBe(ErrorCodes.AUTH_INVALID);
    expect(error?.message).toMatch(/neither a readable file nor credentials/);
    expect(
      findCredentialPieces(printable({ status: "rejected", reason: error }), credentialSecrets(HEADERS)),
    ).toEqual([]);
  });
});
