import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MUSICAPI as CLI, ensureBuilt } from "../../support/cli-process.js";

/**
 * The `musicapi` command run as a real process, compiled, as `npx musicapi …` runs it after
 * `npm ci` (node is called directly: npx would only add its own start-up and warnings). dist/ is
 * rebuilt first when the sources are newer (test/support/cli-process.ts).
 */
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function musicapi(args: string[], stdin?: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(stdin ?? "");
  });
}

const SAPISID = "Cli-Sapisid-Value-42";
const COOKIE = `SID=cli-sid-cookie-value; __Secure-3PAPISID=${SAPISID}`;
const FIREFOX = [
  "POST /youtubei/v1/browse?prettyPrint=false HTTP/2",
  "Host: music.youtube.com",
  "Accept: */*",
  `Cookie: ${COOKIE}`,
  "X-Goog-AuthUser: 0",
  "X-Goog-Visitor-Id: cli-visitor",
  "Sec-Fetch-Site: same-origin",
].join("\n");

let dir: string;
beforeAll(() => ensureBuilt(), 180_000);
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "musicapi-cli-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("musicapi browser", () => {
  it("reads headers from standard input and saves them with mode 0600", async () => {
    const file = join(dir, "browser.json");
    const run = await musicapi(["browser", "-o", file], FIREFOX);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(file);
    expect(run.stdout).not.toContain(SAPISID);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(file, "utf8")) as Record<string, string>;
    expect(saved.cookie).toBe(COOKIE);
    expect(saved["sec-fetch-site"]).toBeUndefined();
  });

  it("reads headers from --file and prints them with -o -", async () => {
    const input = join(dir, "copied.txt");
    await writeFile(input, FIREFOX);
    const run = await musicapi(["browser", "--file", input, "-o", "-"]);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as Record<string, string>)["x-goog-authuser"]).toBe("0");
  });

  it("exits 1 with one line naming what is missing, without a stack or the cookie", async () => {
    const run = await musicapi(["browser", "-o", join(dir, "never.json")], `Cookie: ${COOKIE}\n`);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^error AUTH_INVALID: .*x-goog-authuser/);
    expect(run.stderr).not.toContain(SAPISID);
    await expect(stat(join(dir, "never.json"))).rejects.toThrow();
  });

  it("exits 1 when --file cannot be read", async () => {
    const run = await musicapi(["browser", "--file", join(dir, "absent.txt")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error INVALID_ARGUMENT: .*absent\.txt/);
  });
});

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe("musicapi call", () => {
  let server: Server;
  let origin: string;
  const seen: Seen[] = [];
  const PLAYER = {
    videoDetails: { videoId: "cliVideo01", title: "A song" },
    playabilityStatus: { status: "OK" },
  };
  let headersFile: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        seen.push({
          method: req.method ?? "",
          url: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        });
        res.setHeader("content-type", "application/json");
        if (req.url?.startsWith("/youtubei/v1/player")) res.end(JSON.stringify(PLAYER));
        else {
          res.statusCode = 404;
          res.end("{}");
        }
      });
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    headersFile = join(dir, "call-browser.json");
    await writeFile(
      headersFile,
      JSON.stringify({ cookie: COOKIE, "x-goog-authuser": "0", "x-goog-visitor-id": "v" }),
    );
  });
  afterAll(async () => {
    await new Promise((ok) => server.close(ok));
  });

  it("calls the method with JSON-or-text arguments and the options, printing the result as JSON", async () => {
    seen.length = 0;
    const run = await musicapi([
      "call",
      "getSong",
      "cliVideo01",
      "--auth",
      headersFile,
      "--base-url",
      origin,
      "--options",
      '{"signatureTimestamp": 20000}',
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result.videoDetails).toEqual(PLAYER.videoDetails);
    expect(result.playabilityStatus).toEqual(PLAYER.playabilityStatus);

    const player = seen.find((s) => s.url.startsWith("/youtubei/v1/player"))!;
    const body = JSON.parse(player.body) as Record<string, unknown>;
    expect(body.video_id).toBe("cliVideo01");
    expect(JSON.stringify(body)).toContain('"signatureTimestamp":20000');
    // Browser auth from the file: the key on the URL, a SAPISIDHASH that verifies.
    expect(player.url).toMatch(/key=/);
    const [, ts, hex] = /^SAPISIDHASH (\d+)_([0-9a-f]{40})$/.exec(String(player.headers.authorization)) ?? [];
    expect(hex).toBe(
      createHash("sha1")
        .update(`${ts} ${SAPISID} ${String(player.headers.origin)}`)
        .digest("hex"),
    );
  });

  it("accepts the interface's snake_case name", async () => {
    const run = await musicapi([
      "call",
      "get_song",
      "cliVideo01",
      "--base-url",
      origin,
      "--options",
      '{"signatureTimestamp":1}',
    ]);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { videoDetails: unknown }).videoDetails).toEqual(PLAYER.videoDetails);
  });

  it("an unknown method exits 2 and says how to list the methods", async () => {
    const run = await musicapi(["call", "getNothing", "x"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("getNothing");
    expect(run.stderr).toContain("musicapi methods");
  });

  it("`methods` lists the client's methods", async () => {
    const run = await musicapi(["methods"]);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")).toContain("getSong");
  });

  it("options that are not a JSON object exit 2", async () => {
    const run = await musicapi(["call", "getSong", "x", "--options", "[1, 2]"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--options must be a JSON object/);
  });

  it("an unknown option exits 2", async () => {
    const run = await musicapi(["call", "getSong", "x", "--no-such-option"]);
    expect(run.code).toBe(2);
  });

  it("a MusicApiError is one line `error CODE: message` and exit 1; --debug adds the stack", async () => {
    const missing = join(dir, "missing-auth.json");
    const run = await musicapi(["call", "getSong", "x", "--auth", missing]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^error AUTH_INVALID: auth file ".*missing-auth\.json" not found/),
    ]);

    const debug = await musicapi(["--debug", "call", "getSong", "x", "--auth", missing]);
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/^error AUTH_INVALID: /);
    expect(debug.stderr).toMatch(/\n\s+at /);
  });

  it("without --auth, an operation that needs credentials says which option to pass and how to make its file", async () => {
    seen.length = 0;
    const run = await musicapi(["call", "getLibraryPlaylists", "--base-url", origin]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "error AUTH_REQUIRED: get_library_playlists: this operation needs credentials: pass --auth <file>, " +
        "browser headers saved with `musicapi browser -o browser.json` (or an OAuth token from `musicapi oauth`)\n",
    );
    expect(seen).toHaveLength(0);
  });

  it("an argument error from the method exits 1 before any request", async () => {
    seen.length = 0;
    const run = await musicapi(["call", "getSong", '""', "--base-url", origin]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error INVALID_ARGUMENT: /);
    expect(seen.filter((s) => s.method === "POST")).toHaveLength(0);
  });
});

describe("musicapi oauth", () => {
  it("runs the device flow against the given endpoints and saves the token", async () => {
    let polls = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.setHeader("content-type", "application/json");
        if (req.url === "/device/code") {
          res.end(
            JSON.stringify({
              device_code: "cli-device-code",
              user_code: "CLI-USR-CDE",
              expires_in: 1800,
              interval: 5,
              verification_url: "https://www.google.com/device",
            }),
          );
        } else if (++polls < 2) {
          res.statusCode = 428;
          res.end(JSON.stringify({ error: "authorization_pending" }));
        } else {
          res.end(
            JSON.stringify({
              access_token: "ya29.cli-access",
              refresh_token: "1//cli-refresh",
              expires_in: 3599,
              token_type: "Bearer",
              scope: "https://www.googleapis.com/auth/youtube",
            }),
          );
        }
      });
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const file = join(dir, "oauth.json");
      const run = await musicapi(
        [
          "oauth",
          "--no-browser",
          "-o",
          file,
          "--device-code-url",
          `${origin}/device/code`,
          "--token-url",
          `${origin}/token`,
          "--interval-scale-ms",
          "2",
        ],
        undefined,
        { MUSICAPI_CLIENT_ID: "cli-client", MUSICAPI_CLIENT_SECRET: "cli-client-secret" },
      );
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("https://www.google.com/device?user_code=CLI-USR-CDE");
      expect(run.stdout).not.toContain("ya29.cli-access");
      expect(polls).toBe(2);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>).refresh_token).toBe(
        "1//cli-refresh",
      );
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  });

  it("without a client secret exits 1 naming the argument", async () => {
    const run = await musicapi(["oauth", "--client-id", "only-id", "--no-browser", "-o", "-"], undefined, {
      MUSICAPI_CLIENT_SECRET: "",
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error INVALID_ARGUMENT: invalid argument `clientSecret`/);
  });
});
