/**
 * `musicsync auth spotify` against the emulator's Spotify fake on 127.0.0.1, the test playing the
 * browser: it opens the printed address without following redirects, then goes where Spotify
 * sends it, the command's own callback. The token kept (0600) then reads the liked songs, and a
 * refresh is written back; the hostile requests a local callback server meets are turned away,
 * each said to the person; no token, code or verifier appears in anything printed.
 */

import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { createServer as createHttpServer, request as httpRequest, type Server } from "node:http";
import { createServer } from "node:net";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator/index.js";
import { SPOTIFY_FAKE_CLIENT, spotifyFake } from "../../../emulator/services/spotify/index.js";
import { newAccountsKey } from "../../../engine/accounts/seal.js";
import { loadProjectFile } from "../../../engine/recipe/load.js";
import { spotifyUserToken } from "../../../engine/run/spotify-token.js";
import { SpotifyClient } from "../../../engine/services/spotify/index.js";
import { openState } from "../../../engine/state/open.js";
import { atSpotify, signIn, startSignIn } from "../../support/auth-spotify-browser.js";
import { ensureBuilt, MAIN } from "../../support/cli-process.js";
import { describePieces, findCredentialPieces } from "../../support/credential-leaks.js";
import { musicsyncInProc } from "../../support/musicsync-inproc.js";
import { withTempDir } from "../../support/temp-dir.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 400, seed: 11 });
});
afterAll(() => emu.stop());

const bases = () => ({ apiBase: `${emu.url}/spotify/api/v1`, accountsBase: `${emu.url}/spotify/accounts` });

function projectYaml(o: { clientId?: boolean; state?: boolean; token?: string } = {}): string {
  return [
    "apiVersion: musicsync/v1",
    "kind: Project",
    ...(o.state ? ["state: state.db"] : []),
    "services:",
    "  spotify:",
    ...(o.clientId === false ? [] : [`    client_id: ${SPOTIFY_FAKE_CLIENT.id}`]),
    `    base_url: ${bases().apiBase}`,
    `    accounts_url: ${bases().accountsBase}`,
    ...(o.token ? [`    token: ${o.token}`] : []),
    "",
  ].join("\n");
}

async function project(dir: string, o: Parameters<typeof projectYaml>[0] = {}): Promise<string> {
  const file = join(dir, "musicsync.yaml");
  await writeFile(file, projectYaml(o));
  return file;
}

/** A raw GET, so the Host header and the target are exactly as given. */
function rawGet(
  port: number,
  target: string,
  host = `127.0.0.1:${port}`,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: target, headers: { host } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => {
        text += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end();
  });
}

function secretsOfFile(path: string): string[] {
  const j = JSON.parse(readFileSync(path, "utf8")) as { access_token: string; refresh_token: string };
  return [j.access_token, j.refresh_token];
}

function expectNoPieces(text: string | Buffer, secrets: string[]): void {
  const found = findCredentialPieces(text, secrets);
  expect(found, describePieces(found)).toEqual([]);
}

describe("signing in", () => {
  it("takes the printed address and the local callback, keeps the token 0600, and the token reads the liked songs", async () => {
    await withTempDir("auth-spotify-", async (dir) => {
      const file = await project(dir);
      const { result, callback, page } = await signIn(["-p", file, "--timeout", "60"]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(page).toEqual({ status: 200, text: expect.stringMatching(/^Signed in\./) });
      expect(callback!.origin).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
      expect(callback!.pathname).toBe("/callback");
      expect(result.stdout).toMatch(/Signed in to Spotify as \S/);
      expect(result.stdout).toContain(`kept in ${join(dir, "spotify-token.json")}`);
      expect(result.stdout).toContain("http://127.0.0.1/callback");

      const tokenFile = join(dir, "spotify-token.json");
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      const kept = JSON.parse(readFileSync(tokenFile, "utf8"));
      expect(kept).toMatchObject({ client_id: SPOTIFY_FAKE_CLIENT.id, token_type: "Bearer" });
      expect(kept.scope.split(" ").sort()).toEqual([
        "playlist-read-private",
        "user-follow-read",
        "user-library-read",
      ]);

      // Nothing printed, and nothing else in the folder, holds the token or the code.
      const secrets = [...secretsOfFile(tokenFile), callback!.searchParams.get("code")!];
      expectNoPieces(result.stdout + result.stderr, secrets);
      expect(readdirSync(dir).sort()).toEqual(["musicsync.yaml", "spotify-token.json"]);

      const liked = await new SpotifyClient({
        app: { clientId: SPOTIFY_FAKE_CLIENT.id },
        token: { ...kept, refresh_token: kept.refresh_token },
        ...bases(),
      }).likedSongs();
      expect(liked.entries.length).toBeGreaterThan(0);
      expect(liked.entries.length).toBe(liked.expected);
    });
  });

  it("keeps each refreshed token in the file: the one Spotify replaced no longer works, the kept one does", async () => {
    await withTempDir("auth-spotify-", async (dir) => {
      const file = await project(dir);
      expect((await signIn(["-p", file])).result.code).toBe(0);
      const tokenFile = join(dir, "spotify-token.json");
      const before = JSON.parse(readFileSync(tokenFile, "utf8"));
      const { project: loaded } = await loadProjectFile(file, {});
      const read = async () => {
        const user = await spotifyUserToken({
          project: loaded!,
          projectFile: file,
          state: null,
          environment: {},
        });
        expect(user.where).toBe(tokenFile);
        const client = new SpotifyClient({
          app: { clientId: SPOTIFY_FAKE_CLIENT.id },
          token: user.token,
          onRefresh: (t) => user.save(t),
          ...bases(),
        });
        return client.likedSongs();
      };
      spotifyFake(emu.state).accounts.expireAll();
      expect((await read()).entries.length).toBeGreaterThan(0);
      const after = JSON.parse(readFileSync(tokenFile, "utf8"));
      expect(after.refresh_token).not.toBe(before.refresh_token);
      expect(after.access_token).not.toBe(before.access_token);
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      expect(readdirSync(dir).sort()).toEqual(["musicsync.yaml", "spotify-token.json"]);
      // The fake ends a public client's refresh token once used: only the kept one signs in again.
      spotifyFake(emu.state).accounts.expireAll();
      expect((await read()).entries.length).toBeGreaterThan(0);
    });
  });

  it("writes and removes the token file only under the lock a run's write-back holds: a held lock is waited for, then refused", async () => {
    await withTempDir("auth-spotify-", async (dir) => {
      const file = await project(dir, { state: true });
      const tokenFile = join(dir, "spotify-token.json");
      // A run is writing back a renewal of the sign-in in the file (this process holds the lock):
      // a new sign-in written meanwhile would be overwritten by the older one.
      const older = '{"older":"sign-in"}\n';
      writeFileSync(tokenFile, older, { mode: 0o600 });
      writeFileSync(`${tokenFile}.lock`, `${process.pid}@${hostname()}\n`);
      const plain = await signIn(["-p", file]);
      expect(plain.result.code).not.toBe(0);
      expect(plain.result.stderr).toContain(`${tokenFile}.lock is held by process ${process.pid}@`);
      expect(readFileSync(tokenFile, "utf8")).toBe(older);
      // --store seals it, but the file (read first) cannot be removed while the lock is held: said.
      const env = { MUSICSYNC_ACCOUNTS_KEY: newAccountsKey() };
      const stored = await signIn(["-p", file, "--store"], env);
      expect(stored.result.code).not.toBe(0);
      expect(stored.result.stderr).toContain("sealed into the state");
      expect(stored.result.stderr).toContain(`${tokenFile}.lock is held by process ${process.pid}@`);
      expect(readFileSync(tokenFile, "utf8")).toBe(older);
      // Once let go, both go through.
      await rm(`${tokenFile}.lock`);
      expect((await signIn(["-p", file, "--store"], env)).result.code).toBe(0);
      expect(existsSync(tokenFile)).toBe(false);
      expect((await signIn(["-p", file])).result.code).toBe(0);
      expect(JSON.parse(readFileSync(tokenFile, "utf8"))).toMatchObject({
        client_id: SPOTIFY_FAKE_CLIENT.id,
      });
    });
  });

  it("lets two processes share the sign-in: a refresh refused because the other renewed first takes the kept token", async () => {
    await withTempDir("auth-spotify-", async (dir) => {
      const file = await project(dir);
      expect((await signIn(["-p", file])).result.code).toBe(0);
      const { project: loaded } = await loadProjectFile(file, {});
      const ctx = { project: loaded!, projectFile: file, state: null, environment: {} };
      const app = { clientId: SPOTIFY_FAKE_CLIENT.id };
      const sharing = async () => {
        const user = await spotifyUserToken(ctx);
        return new SpotifyClient({
          app,
          token: user.token,
          onRefresh: (t) => user.save(t),
          reload: () => user.reload(),
          ...bases(),
        });
      };
      const first = await sharing();
      const second = await sharing();
      const original = (await spotifyUserToken(ctx)).token!;
      spotifyFake(emu.state).accounts.expireAll();
      expect((await first.likedSongs()).entries.length).toBeGreaterThan(0);
      // The second still holds the refresh token the first's renewal ended.
      expect((await second.likedSongs()).entries.length).toBeGreaterThan(0);
      // Without reading the kept token again, the same refusal signs the reader out.
      const alone = new SpotifyClient({ app, token: original, ...bases() });
      await expect(alone.likedSongs()).rejects.toThrow(/invalid_grant.*sign in to Spotify again/);
    });
  });

  it("listens on the port given, and says that exact redirect URI must be registered", async () => {
    const port = await freePort();
    await withTempDir("auth-spotify-", async (dir) => {
      const file = await project(dir);
      const { result, callback } = await signIn(["-p", file, "--port", String(port)]);
      expect(result.code).toBe(0);
      expect(callback!.origin).toBe(`http://127.0.0.1:${port}`);
      expect(result.stdout).toContain(`must list the redirect URI http://127.0.0.1:${port}/callback exactly`);
    });
  });

  it("says a port in use plainly, before printing any address", async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, "127.0.0.1", () => r()));
    const port = (busy.address() as { port: number }).port;
    try {
      await withTempDir("auth-spotify-", async (dir) => {
        const file = await project(dir);
        const r = await musicsyncInProc(["auth", "spotify", "-p", file, "--port", String(port)]);
        expect(r.code).toBe(1);
        expect(r.stdout).toBe("");
        expect(r.stderr).toContain(`port ${port} of 127.0.0.1 is in use`);
      });
    } finally {
      busy.close();
    }
  });
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe("refusals", () => {
  it("refuses without a client id, before listening or printing an address", async () => {
    await withTempDir("auth-spotify-", async (dir) => {
      const file = await project(dir, { clientId: false });
      const r = await musicsyncInProc(["auth", "spotify", "-p", file]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("needs your Spotify app's client id");
      expect(r.stderr).toContain("SPOTIFY_CLIENT_ID");
      // The environment's variable is enough.
      const { result } = await signIn(["-p", file], { SPOTIFY_CLIENT_ID: SPOTIFY_FAKE_CLIENT.id });
      expect(result.code).toBe(0);
    });
  });

  it("refuses without a client id even where there is no project file, naming the client id first", async () => {
    await withTempDir("auth-spotify-", async (dir) => {
      const r = await musicsyncInProc(["auth", "spotify", "-p", join(dir, "musicsync.yaml")]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("needs your Spotify app's client id");
    });
  });

  it("gives up after --timeout when no browser comes back, and closes its port", async () => {
    await withTempDir("auth-spotify-", async (dir) => {
      const file = await project(dir);
      const run = startSignIn(["-p", file, "--timeout", "0.3"]);
      const authorize = await run.authorize;
      const redirect = new URL(authorize!.searchParams.get("redirect_uri")!);
      const r = await run.done;
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("no sign-in came back within");
      expect(r.stderr).toContain("--timeout");
      await expect(rawGet(Number(redirect.port), "/callback")).rejects.toMatchObject({
        code: "ECONNREFUSED",
      });
      expect(readdirSync(dir)).toEqual(["musicsync.yaml"]);
    });
  });

  it("refuses a token file whose folder does not exist, before printing an address", async () => {
    await withTempDir("auth-spotify-", async (dir) => {
      const file = await project(dir, { token: "secrets/spotify.json" });
      const r = await musicsyncInProc(["auth", "spotify", "-p", file]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`the token's folder ${join(dir, "secrets")} does not exist`);
    });
  });

  it("refuses bad --port and --timeout values", async () => {
    await withTempDir("auth-spotify-", async (dir) => {
      const file = await project(dir);
      for (const [option, value] of [
        ["--port", "70000"],
        ["--port", "http"],
        ["--timeout", "0"],
        ["--timeout", "soon"],
        ["--timeout", "99999"],
      ] as const) {
        const r = await musicsyncInProc(["auth", "spotify", "-p", file, option, value]);
        expect(r.code, `${option} ${value}`).toBe(1);
        expect(r.stderr).toContain(option);
        expect(r.stdout).toBe("");
      }
    });
  });
});

describe("the local callback server", () => {
  it("answers access_denied with the reason, and keeps nothing", async () => {
    await withTempDir("auth-spotify-", async (dir) => {
      const file = await project(dir);
      const run = startSignIn(["-p", file]);
      const authorize = (await run.authorize)!;
      const redirect = new URL(authorize.searchParams.get("redirect_uri")!);
      const state = authorize.searchParams.get("state")!;
      const page = await rawGet(Number(redirect.port), `/callback?error=access_denied&state=${state}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain("access was not allowed");
      const r = await run.done;
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("access was not allowed at Spotify's page");
      expect(readdirSync(dir)).toEqual(["musicsync.yaml"]);
    });
  });

  it("turns away a wrong state, a foreign Host, a huge query and other paths, each said, and still takes the real callback", async () => {
    await withTempDir("auth-spotify-", async (dir) => {
      const file = await project(dir);
      const run = startSignIn(["-p", file]);
      const authorize = (await run.authorize)!;
      const port = Number(new URL(authorize.searchParams.get("redirect_uri")!).port);
      const callback = await atSpotify(authorize);
      const code = callback.searchParams.get("code")!;
      const state = callback.searchParams.get("state")!;

      const wrong = await rawGet(port, `/callback?code=${code}&state=not-the-one`);
      expect(wrong.status).toBe(400);
      expect(wrong.text).toContain("its state does not match");
      const twoStates = await rawGet(port, `/callback?code=${code}&state=${state}&state=x`);
      expect(twoStates.status).toBe(400);
      const foreign = await rawGet(port, `/callback?code=${code}&state=${state}`, "attacker.example:80");
      expect(foreign).toEqual({ status: 404, text: "Not found\n" });
      const rebound = await rawGet(port, `/callback?code=${code}&state=${state}`, `localhost:${port}`);
      expect(rebound.status).toBe(404);
      const long = await rawGet(port, `/callback?state=${state}&code=${"A".repeat(5000)}`);
      expect(long).toEqual({ status: 404, text: "Not found\n" });
      const huge = await rawGet(port, `/callback?state=${state}&code=${"B".repeat(40_000)}`);
      expect(huge).toEqual({ status: 404, text: "Not found\n" });
      for (const target of ["/", "/favicon.ico", `/callback/../x?state=${state}&code=${code}`, "/callbackx"])
        expect(await rawGet(port, target), target).toEqual({ status: 404, text: "Not found\n" });

      const page = await fetch(callback);
      expect(page.status).toBe(200);
      const r = await run.done;
      expect(r.code).toBe(0);
      for (const said of [
        "another state than this sign-in sent",
        "another host than",
        "longer than 4096 characters",
        "too large to be a sign-in redirect",
      ])
        expect(r.stderr, said).toContain(said);
      // What the requests carried is not repeated to the person.
      expect(r.stderr).not.toContain("attacker.example");
      expect(r.stderr).not.toContain("AAAA");
      const secrets = [...secretsOfFile(join(dir, "spotify-token.json")), code];
      expectNoPieces(r.stdout + r.stderr, secrets);
    });
  });

  it("takes one callback of two sent at once, and is closed after it", async () => {
    await withTempDir("auth-spotify-", async (dir) => {
      const file = await project(dir);
      const run = startSignIn(["-p", file]);
      const authorize = (await run.authorize)!;
      const callback = await atSpotify(authorize);
      const port = Number(callback.port);
      const target = `${callback.pathname}${callback.search}`;
      const both = await Promise.allSettled([rawGet(port, target), rawGet(port, target)]);
      const statuses = both.map((b) => (b.status === "fulfilled" ? b.value.status : "refused"));
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s !== 200)).toEqual([expect.toBeOneOf([404, "refused"])]);
      const r = await run.done;
      expect(r.code).toBe(0);
      await expect(rawGet(port, target)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    });
  });
});

describe("--store", () => {
  it("seals the token into the state instead of the file; runs read it and a refresh re-seals it", async () => {
    await withTempDir("auth-spotify-", async (dir) => {
      const file = await project(dir, { state: true });
      const env = { MUSICSYNC_ACCOUNTS_KEY: newAccountsKey() };
      // An older sign-in in the file would be read first: --store removes it.
      await writeFile(join(dir, "spotify-token.json"), "{}", { mode: 0o600 });
      const { result, callback } = await signIn(["-p", file, "--store"], env);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("sealed into the state");
      expect(result.stdout).toContain("was removed");
      expect(readdirSync(dir).filter((f) => f.includes("token"))).toEqual([]);

      const { project: loaded } = await loadProjectFile(file, {});
      const state = openState(join(dir, "state.db"));
      try {
        const user = await spotifyUserToken({ project: loaded!, projectFile: file, state, environment: env });
        expect(user.where).toBe("the state");
        const first = user.token!;
        const secrets = [first.access_token, first.refresh_token!, callback!.searchParams.get("code")!];
        expectNoPieces(result.stdout + result.stderr, secrets);
        const client = new SpotifyClient({
          app: { clientId: SPOTIFY_FAKE_CLIENT.id },
          token: first,
          onRefresh: (t) => user.save(t),
          ...bases(),
        });
        spotifyFake(emu.state).accounts.expireAll();
        expect((await client.likedSongs()).entries.length).toBeGreaterThan(0);
        const again = await spotifyUserToken({
          project: loaded!,
          projectFile: file,
          state,
          environment: env,
        });
        expect(again.token!.refresh_token).not.toBe(first.refresh_token);
        // `accounts list` shows accounts, not the sign-in kept beside them.
        const listed = await musicsyncInProc(["accounts", "list", "-p", file], { env });
        expect(listed.stdout).toBe("No stored accounts.\n");
        expect(listed.code).toBe(0);
        await state.close();
        const bytes = readFileSync(join(dir, "state.db"));
        expectNoPieces(bytes, [...secrets, again.token!.access_token, again.token!.refresh_token!]);
      } finally {
        await state.close().catch(() => {});
      }
    });
  });

  it("refuses without MUSICSYNC_ACCOUNTS_KEY before printing an address", async () => {
    await withTempDir("auth-spotify-", async (dir) => {
      const file = await project(dir, { state: true });
      const r = await musicsyncInProc(["auth", "spotify", "-p", file, "--store"]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("MUSICSYNC_ACCOUNTS_KEY is not set");
    });
  });
});

describe("the built command", () => {
  it("signs in as a person runs it: the address on stdout while it waits, the token kept, nothing of it printed", {
    timeout: 240_000,
  }, async () => {
    await ensureBuilt();
    await withTempDir("auth-spotify-", async (dir) => {
      await project(dir);
      const child = spawn(process.execPath, [MAIN, "auth", "spotify"], {
        cwd: dir,
        env: { ...process.env, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
      const authorize = new Promise<URL>((resolve, reject) => {
        child.stdout.on("data", (d: Buffer) => {
          stdout += d.toString();
          const m = /^ {2}(http\S+\/authorize\?\S+)$/m.exec(stdout);
          if (m) resolve(new URL(m[1]!));
        });
        void exited.then(() => reject(new Error(`exited before printing an address: ${stderr}`)));
      });
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
      });
      const callback = await atSpotify(await authorize);
      expect((await fetch(callback)).status).toBe(200);
      expect(await exited).toBe(0);
      expect(stderr).toBe("");
      const tokenFile = join(dir, "spotify-token.json");
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      expectNoPieces(stdout, [...secretsOfFile(tokenFile), callback.searchParams.get("code")!]);
      expect(stdout).toContain("Signed in to Spotify as");
    });
  });
});

/**
 * An accounts and API host that echoes what it is sent: the code as its OAuth error word, the code
 * and verifier in its description, the bearer token in an API error. `tokens`: whether the code
 * exchange succeeds.
 */
async function hostileHost(tokens: boolean): Promise<{ url: string; seen: string[]; server: Server }> {
  const seen: string[] = [];
  const code = "echoedcodeechoedcodeechoedcode";
  const server = createHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === "/authorize") {
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.search = new URLSearchParams({ code, state: url.searchParams.get("state")! }).toString();
      res.writeHead(302, { location: back.toString() });
      return void res.end();
    }
    if (url.pathname === "/api/token") {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        const form = new URLSearchParams(body);
        seen.push(form.get("code")!, form.get("code_verifier")!);
        if (!tokens)
          return json(400, {
            error: code,
            error_description: `code ${form.get("code")} verifier ${form.get("code_verifier")}`,
          });
        const access = `hostile-access-${"a".repeat(30)}`;
        const refresh = `hostile-refresh-${"r".repeat(30)}`;
        seen.push(access, refresh);
        json(200, {
          access_token: access,
          refresh_token: refresh,
          expires_in: 3600,
          scope: "user-library-read",
        });
      });
      return;
    }
    const bearer = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    json(403, { error: { status: 403, message: `your token ${bearer}` } });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen, server };
}

describe("a hostile accounts host", () => {
  for (const tokens of [false, true]) {
    it(`echoing the code, the verifier${tokens ? " and the token" : ""} gets none of them printed`, async () => {
      const host = await hostileHost(tokens);
      try {
        await withTempDir("auth-spotify-", async (dir) => {
          const file = join(dir, "musicsync.yaml");
          const yaml = ["apiVersion: musicsync/v1", "kind: Project", "services:", "  spotify:"];
          yaml.push(
            `    client_id: ${SPOTIFY_FAKE_CLIENT.id}`,
            `    base_url: ${host.url}`,
            `    accounts_url: ${host.url}`,
          );
          await writeFile(file, `${yaml.join("\n")}\n`);
          const run = startSignIn(["-p", file]);
          const callback = await atSpotify((await run.authorize)!);
          await fetch(callback);
          const r = await run.done;
          expect(host.seen.length).toBeGreaterThanOrEqual(2);
          expectNoPieces(r.stdout + r.stderr, host.seen);
          if (tokens) {
            expect(r.code).toBe(0);
            expect(r.stderr).toContain("reading your profile failed");
            expect(r.stderr).toContain("HTTP 403");
            expect(r.stderr).toContain("Spotify did not grant playlist-read-private, user-follow-read");
          } else {
            expect(r.code).toBe(1);
            expect(r.stderr).toContain("the sign-in's code exchange was refused: HTTP 400");
            expect(readdirSync(dir)).toEqual(["musicsync.yaml"]);
          }
        });
      } finally {
        host.server.close();
      }
    });
  }
});
