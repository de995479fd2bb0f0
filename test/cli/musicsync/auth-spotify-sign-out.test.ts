/**
 * `musicsync auth spotify --sign-out` against sign-ins made with the emulator's Spotify stand-in:
 * it removes the token file and the sealed row (both when both exist), says what and where, and
 * says so when there was nothing; a refresh finishing after it does not bring the sign-in back;
 * anything at the token's path that is not a sign-in, and a state that cannot be opened, are
 * refused with the reason, and nothing else is removed. No token appears in anything printed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator/index.js";
import { SPOTIFY_FAKE_CLIENT, spotifyFake } from "../../../emulator/services/spotify/index.js";
import { newAccountsKey } from "../../../engine/accounts/seal.js";
import { storedServiceToken } from "../../../engine/accounts/service-token.js";
import { loadProjectFile } from "../../../engine/recipe/load.js";
import { SpotifySignInError, spotifyUserToken } from "../../../engine/run/spotify-token.js";
import { SpotifyClient, type SpotifyToken } from "../../../engine/services/spotify/index.js";
import { openState } from "../../../engine/state/open.js";
import { signIn } from "../../support/auth-spotify-browser.js";
import { describePieces, findCredentialPieces } from "../../support/credential-leaks.js";
import { musicsyncInProc } from "../../support/musicsync-inproc.js";
import { usePostgres } from "../../support/postgres-server.js";
import { withTempDir } from "../../support/temp-dir.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 300, seed: 13 });
});
afterAll(() => emu.stop());

const bases = () => ({ apiBase: `${emu.url}/spotify/api/v1`, accountsBase: `${emu.url}/spotify/accounts` });

async function project(dir: string, o: { token?: string; state?: string } = {}): Promise<string> {
  const file = join(dir, "musicsync.yaml");
  const state = `state: ${o.state ?? "state.db"}`;
  const lines = ["apiVersion: musicsync/v1", "kind: Project", state, "services:", "  spotify:"];
  lines.push(
    `    client_id: ${SPOTIFY_FAKE_CLIENT.id}`,
    `    base_url: ${bases().apiBase}`,
    `    accounts_url: ${bases().accountsBase}`,
    ...(o.token ? [`    token: ${o.token}`] : []),
  );
  await writeFile(file, `${lines.join("\n")}\n`);
  return file;
}

const signOut = (file: string, env: Record<string, string> = {}) =>
  musicsyncInProc(["auth", "spotify", "--sign-out", "-p", file], { env });

function expectNoPieces(text: string, secrets: string[]): void {
  const found = findCredentialPieces(text, secrets);
  expect(found, describePieces(found)).toEqual([]);
}

const secretsOf = (text: string) => {
  const j = JSON.parse(text) as { access_token: string; refresh_token: string };
  return [j.access_token, j.refresh_token];
};
const fileSecrets = (path: string) => secretsOf(readFileSync(path, "utf8"));

async function userToken(file: string, state: ReturnType<typeof openState> | null, env = {}) {
  const { project: loaded } = await loadProjectFile(file, {});
  return spotifyUserToken({ project: loaded!, projectFile: file, state, environment: env });
}

const renewed = (n: number): SpotifyToken => ({
  access_token: `renewed-access-${n}-${"x".repeat(24)}`,
  refresh_token: `renewed-refresh-${n}-${"y".repeat(24)}`,
  expires_at: 9_999_999_999_999,
  scope: "user-library-read",
});

describe("signing out", () => {
  it("removes the token file, says where, and says there is nothing the second time (exit 0 both)", async () => {
    await withTempDir("sign-out-", async (dir) => {
      const file = await project(dir);
      expect((await signIn(["-p", file])).result.code).toBe(0);
      const tokenFile = join(dir, "spotify-token.json");
      const secrets = fileSecrets(tokenFile);
      const r = await signOut(file);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Removed the Spotify sign-in kept in ${tokenFile}.`);
      expect(r.stdout).toContain("https://www.spotify.com/account/apps/");
      expect(r.stdout).not.toContain("state.db");
      expectNoPieces(r.stdout, secrets);
      expect(existsSync(tokenFile)).toBe(false);
      expect((await userToken(file, null)).token).toBeNull();

      const again = await signOut(file);
      expect(again.code).toBe(0);
      expect(again.stdout).toBe(
        `No Spotify sign-in is kept (looked in ${tokenFile} and the state ${join(dir, "state.db")}): nothing to remove.\n`,
      );
      // Looking did not make a state.
      expect(existsSync(join(dir, "state.db"))).toBe(false);
    });
  });

  it("removes the sealed row without the key, and both places when both hold a sign-in", async () => {
    await withTempDir("sign-out-", async (dir) => {
      const file = await project(dir);
      const env = { MUSICSYNC_ACCOUNTS_KEY: newAccountsKey() };
      expect((await signIn(["-p", file, "--store"], env)).result.code).toBe(0);
      expect((await signIn(["-p", file])).result.code).toBe(0);
      const tokenFile = join(dir, "spotify-token.json");
      const state = openState(join(dir, "state.db"));
      const sealed = (await storedServiceToken(state, "spotify", env))!;
      await state.close();
      const secrets = [...fileSecrets(tokenFile), ...secretsOf(sealed)];

      const r = await signOut(file);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Removed the Spotify sign-in kept in ${tokenFile}.`);
      expect(r.stdout).toContain(`Removed the Spotify sign-in kept in the state ${join(dir, "state.db")}.`);
      expectNoPieces(r.stdout, secrets);
      const after = openState(join(dir, "state.db"));
      try {
        expect(await storedServiceToken(after, "spotify", env)).toBeNull();
        expect((await userToken(file, after, env)).token).toBeNull();
      } finally {
        await after.close();
      }
      expect(existsSync(tokenFile)).toBe(false);
    });
  });

  it("refuses the options of signing in beside --sign-out", async () => {
    await withTempDir("sign-out-", async (dir) => {
      const file = await project(dir);
      const r = await musicsyncInProc([
        "auth",
        "spotify",
        "--sign-out",
        "--store",
        "--port",
        "9",
        "-p",
        file,
      ]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("leave out --port, --store");
    });
  });
});

describe("a refresh finishing after the sign-out", () => {
  it("does not write the token file back: the run's renewal fails with the sign-in message", async () => {
    await withTempDir("sign-out-", async (dir) => {
      const file = await project(dir);
      expect((await signIn(["-p", file])).result.code).toBe(0);
      const tokenFile = join(dir, "spotify-token.json");
      const user = await userToken(file, null);
      let signedOut = "";
      const client = new SpotifyClient({
        app: { clientId: SPOTIFY_FAKE_CLIENT.id },
        token: user.token,
        // The interleaving: Spotify has renewed the token; the sign-out runs before it is written back.
        onRefresh: async (t) => {
          signedOut = (await signOut(file)).stdout;
          await user.save(t);
        },
        ...bases(),
      });
      spotifyFake(emu.state).accounts.expireAll();
      await expect(client.likedSongs()).rejects.toThrow(/removed \(signed out\) while this run renewed it/);
      expect(signedOut).toContain("Removed the Spotify sign-in");
      expect(existsSync(tokenFile)).toBe(false);
    });
  });

  it("does not write the sealed row back either", async () => {
    await withTempDir("sign-out-", async (dir) => {
      const file = await project(dir);
      const env = { MUSICSYNC_ACCOUNTS_KEY: newAccountsKey() };
      expect((await signIn(["-p", file, "--store"], env)).result.code).toBe(0);
      const state = openState(join(dir, "state.db"));
      try {
        const user = await userToken(file, state, env);
        expect(user.where).toBe("the state");
        expect((await signOut(file)).code).toBe(0);
        await expect(user.save(renewed(1))).rejects.toBeInstanceOf(SpotifySignInError);
        expect(await storedServiceToken(state, "spotify", env)).toBeNull();
      } finally {
        await state.close();
      }
    });
  });

  it("keeps a newer sign-in made meanwhile: a stale write-back replaces nothing", async () => {
    await withTempDir("sign-out-", async (dir) => {
      const file = await project(dir);
      expect((await signIn(["-p", file])).result.code).toBe(0);
      const tokenFile = join(dir, "spotify-token.json");
      const user = await userToken(file, null);
      // Renewed once: kept, and the next renewal compares with it.
      await user.save(renewed(1));
      expect(fileSecrets(tokenFile)).toEqual([renewed(1).access_token, renewed(1).refresh_token]);
      expect((await signIn(["-p", file])).result.code).toBe(0);
      const newer = readFileSync(tokenFile, "utf8");
      await user.save(renewed(2));
      expect(readFileSync(tokenFile, "utf8")).toBe(newer);
    });
  });

  it("waits for a write-back holding the lock, and takes over a lock its ended holder left", async () => {
    await withTempDir("sign-out-", async (dir) => {
      const file = await project(dir);
      expect((await signIn(["-p", file])).result.code).toBe(0);
      const tokenFile = join(dir, "spotify-token.json");
      const lock = `${tokenFile}.lock`;
      // Held by a live process (this one) all along: the sign-out gives up and removes nothing.
      writeFileSync(lock, `${process.pid}@${hostname()}\n`);
      const held = await signOut(file);
      expect(held.code).toBe(1);
      expect(held.stderr).toContain(`${lock} is held by process ${process.pid}@${hostname()}`);
      expect(existsSync(tokenFile)).toBe(true);
      // Left by a process that has ended: taken over.
      const ended = spawnSync(process.execPath, ["-e", ""]).pid!;
      writeFileSync(lock, `${ended}@${hostname()}\n`);
      const r = await signOut(file);
      expect(r.code).toBe(0);
      expect(existsSync(tokenFile)).toBe(false);
      expect(existsSync(lock)).toBe(false);
    });
  });
});

describe("what is not a sign-in is not removed", () => {
  it("refuses a directory, a link to another file, a file that is not a sign-in, a pipe, a huge file", async () => {
    await withTempDir("sign-out-", async (dir) => {
      const file = await project(dir, { token: "kept/spotify.json" });
      mkdirSync(join(dir, "kept"));
      const path = join(dir, "kept", "spotify.json");
      const elsewhere = join(dir, "elsewhere.json");
      writeFileSync(elsewhere, '{"access_token":"a","refresh_token":"r","expires_at":1,"client_id":"c"}');
      const cases: [string, () => void, string][] = [
        ["a directory", () => mkdirSync(path), "is a directory, not a regular file: not removed"],
        ["a link", () => symlinkSync(elsewhere, path), "is a symbolic link"],
        [
          "another JSON file",
          () => writeFileSync(path, '{"playlists":["a","b"]}'),
          "does not hold a Spotify sign-in",
        ],
        ["a pipe", () => execFileSync("mkfifo", [path]), "is a named pipe, not a regular file"],
        ["a huge file", () => writeFileSync(path, "x".repeat(70_000)), "bytes, not a sign-in"],
      ];
      for (const [what, make, said] of cases) {
        make();
        const r = await signOut(file);
        expect(r.code, what).toBe(1);
        expect(r.stderr, what).toContain(`the Spotify sign-in ${path}`);
        expect(r.stderr, what).toContain(said);
        expect(r.stderr, what).toContain("not removed");
        expect(existsSync(path), what).toBe(true);
        execFileSync("rm", ["-r", path]);
      }
      expect(readFileSync(elsewhere, "utf8")).toContain("access_token");
    });
  });

  it.skipIf(process.getuid?.() === 0)("refuses a file it cannot read", async () => {
    await withTempDir("sign-out-", async (dir) => {
      const file = await project(dir);
      const path = join(dir, "spotify-token.json");
      writeFileSync(path, "{}", { mode: 0o600 });
      chmodSync(path, 0o000);
      const r = await signOut(file);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("permission denied");
      expect(existsSync(path)).toBe(true);
    });
  });

  it("removes the file's sign-in even when the state cannot be opened, says so, and leaves the state as it was", async () => {
    await withTempDir("sign-out-", async (dir) => {
      const file = await project(dir);
      expect((await signIn(["-p", file])).result.code).toBe(0);
      const garbage = Buffer.from("this is not a SQLite database, but somebody's notes\n".repeat(40));
      writeFileSync(join(dir, "state.db"), garbage);
      const r = await signOut(file);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`Removed the Spotify sign-in kept in ${join(dir, "spotify-token.json")}.`);
      expect(r.stderr).toContain(`the state ${join(dir, "state.db")} could not be opened`);
      expect(readFileSync(join(dir, "state.db")).equals(garbage)).toBe(true);
      expect(existsSync(join(dir, "spotify-token.json"))).toBe(false);
    });
  });
});

describe("on a PostgreSQL state", () => {
  const server = usePostgres();

  it("removes the sealed row, says where without the address, and a write-back after it keeps nothing", async () => {
    const url = await server().createDatabase("sign_out");
    await withTempDir("sign-out-", async (dir) => {
      const file = await project(dir, { state: url });
      const env = { MUSICSYNC_ACCOUNTS_KEY: newAccountsKey() };
      expect((await signIn(["-p", file, "--store"], env)).result.code).toBe(0);
      const state = openState(url);
      try {
        const user = await userToken(file, state, env);
        expect(user.where).toBe("the state");
        const r = await signOut(file);
        expect(r.stderr).toBe("");
        expect(r.code).toBe(0);
        expect(r.stdout).toContain("Removed the Spotify sign-in kept in the PostgreSQL state.");
        expect(r.stdout).not.toContain(url);
        await expect(user.save(renewed(3))).rejects.toBeInstanceOf(SpotifySignInError);
        expect(await storedServiceToken(state, "spotify", env)).toBeNull();
        expect((await signOut(file)).stdout).toContain("nothing to remove");
      } finally {
        await state.close();
      }
    });
  });

  it("says a PostgreSQL state it cannot reach, without its password, after removing the file", async () => {
    await withTempDir("sign-out-", async (dir) => {
      const password = "pw-not-to-be-printed-0451";
      const file = await project(dir, { state: `postgres://musicsync:${password}@127.0.0.1:1/nowhere` });
      writeFileSync(
        join(dir, "spotify-token.json"),
        JSON.stringify({ ...renewed(4), client_id: SPOTIFY_FAKE_CLIENT.id }),
        { mode: 0o600 },
      );
      const r = await signOut(file);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain("Removed the Spotify sign-in kept in");
      expect(r.stderr).toContain("the PostgreSQL state could not be opened");
      expect(r.stdout + r.stderr).not.toContain(password);
      expect(existsSync(join(dir, "spotify-token.json"))).toBe(false);
    });
  });
});
