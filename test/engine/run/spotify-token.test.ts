/**
 * Where a person's Spotify sign-in is kept and read back (engine/run/spotify-token.ts): the token
 * file (0600, replaced whole, found relative to the project file), or the row sealed into the state
 * under a reserved name, on SQLite and PostgreSQL; the file first; accounts never see the row; and
 * no message about a sign-in that cannot be used holds any of its secrets.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkAccountName, listAccounts, withStoredAccounts } from "../../../engine/accounts/accounts.js";
import { newAccountsKey, SealError } from "../../../engine/accounts/seal.js";
import {
  isServiceTokenRow,
  serviceTokenRowName,
  storedServiceToken,
  storeServiceToken,
} from "../../../engine/accounts/service-token.js";
import { loadProjectFile } from "../../../engine/recipe/load.js";
import type { Project } from "../../../engine/recipe/types.js";
import { keptTokenText, SpotifySignInError, spotifyUserToken } from "../../../engine/run/spotify-token.js";
import type { SpotifyToken } from "../../../engine/services/spotify/index.js";
import { openState } from "../../../engine/state/open.js";
import type { EngineState } from "../../../engine/state/types.js";
import { describePieces, findCredentialPieces } from "../../support/credential-leaks.js";
import { usePostgres } from "../../support/postgres-server.js";
import { withTempDir } from "../../support/temp-dir.js";

const CLIENT = "0a1b2c3d4e5f60718293a4b5c6d7e8f9";

function token(n: number): SpotifyToken {
  return {
    access_token: `BQAccess${n}-${"x".repeat(40)}`,
    refresh_token: `AQRefresh${n}-${"y".repeat(40)}`,
    expires_at: 1_900_000_000_000 + n,
    scope: "playlist-read-private user-library-read user-follow-read",
  };
}

async function projectIn(dir: string, extra: string[] = []): Promise<{ project: Project; file: string }> {
  const file = join(dir, "musicsync.yaml");
  const yaml = ["apiVersion: musicsync/v1", "kind: Project", "services:", "  spotify:", ...extra, ""];
  await writeFile(file, yaml.join("\n"));
  const { project, issues } = await loadProjectFile(file, {});
  expect(issues).toEqual([]);
  return { project: project!, file };
}

/** A thrown error's message, its causes' and its JSON, as anything could print them. */
function everythingOf(e: unknown): string {
  const parts: string[] = [];
  for (let x: unknown = e, i = 0; x instanceof Error && i < 5; x = x.cause, i++)
    parts.push(x.message, String(x.stack), JSON.stringify(x));
  return parts.join("\n");
}

async function refusal(p: Promise<unknown>): Promise<Error> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(Error);
  return e as Error;
}

describe("the token file", () => {
  it("reads nothing when there is none, and keeps a token written then 0600, beside the project file", async () => {
    await withTempDir("spotify-token-", async (dir) => {
      const { project, file } = await projectIn(dir, [`    client_id: ${CLIENT}`]);
      const ctx = { project, projectFile: file, state: null, environment: {} };
      const none = await spotifyUserToken(ctx);
      expect(none.token).toBeNull();
      expect(none.where).toBe(join(dir, "spotify-token.json"));
      await none.save(token(1));
      expect(statSync(none.where).mode & 0o777).toBe(0o600);
      const read = await spotifyUserToken(ctx);
      expect(read.token).toEqual(token(1));
      await read.save(token(2));
      expect((await spotifyUserToken(ctx)).token).toEqual(token(2));
      expect(statSync(none.where).mode & 0o777).toBe(0o600);
      // Replaced whole: no temporary file is left beside it.
      expect(readdirSync(dir).sort()).toEqual(["musicsync.yaml", "spotify-token.json"]);
    });
  });

  it("is found where services.spotify.token says, relative to the project file", async () => {
    await withTempDir("spotify-token-", async (dir) => {
      await mkdir(join(dir, "secrets"));
      const { project, file } = await projectIn(dir, [
        `    client_id: ${CLIENT}`,
        "    token: secrets/sp.json",
      ]);
      await writeFile(join(dir, "secrets", "sp.json"), keptTokenText({ token: token(3), clientId: CLIENT }));
      const user = await spotifyUserToken({ project, projectFile: file, state: null, environment: {} });
      expect(user.where).toBe(join(dir, "secrets", "sp.json"));
      expect(user.token).toEqual(token(3));
    });
  });

  it("refuses a file that is no sign-in, or one of another app, saying where and never what it holds", async () => {
    await withTempDir("spotify-token-", async (dir) => {
      const { project, file } = await projectIn(dir, ["    client_id: the-configured-app"]);
      const path = join(dir, "spotify-token.json");
      const ctx = { project, projectFile: file, state: null, environment: {} };
      const secret = token(4);
      const cases: [string, RegExp][] = [
        [`access_token=${secret.access_token}`, /not a JSON object/],
        [
          JSON.stringify({ access_token: secret.access_token, refresh_token: secret.refresh_token }),
          /no expires_at, client_id/,
        ],
        [
          keptTokenText({ token: secret, clientId: "another-app" }),
          /another Spotify app \(client id another-app\).*the-configured-app/,
        ],
        [" ".repeat(70 * 1024), /bytes, not a sign-in/],
      ];
      for (const [text, said] of cases) {
        await writeFile(path, text);
        const e = await refusal(spotifyUserToken(ctx));
        expect(e).toBeInstanceOf(SpotifySignInError);
        expect(e.message).toMatch(said);
        expect(e.message).toContain(path);
        expect(e.message).toContain("musicsync auth spotify");
        const found = findCredentialPieces(everythingOf(e), [secret.access_token, secret.refresh_token!]);
        expect(found, describePieces(found)).toEqual([]);
      }
    });
  });
});

function storedCases(open: () => Promise<EngineState>) {
  it("seals the sign-in into a reserved row that accounts never show, and opens it only with the key", async () => {
    const state = await open();
    try {
      const key = newAccountsKey();
      const env = { MUSICSYNC_ACCOUNTS_KEY: key };
      const text = keptTokenText({ token: token(5), clientId: CLIENT });
      expect(await storedServiceToken(state, "spotify", env)).toBeNull();
      expect((await storeServiceToken(state, "spotify", text, env, 1000)).replaced).toBe(false);
      expect(await storedServiceToken(state, "spotify", env)).toBe(text);
      const again = await storeServiceToken(state, "spotify", text, env, 2000);
      expect(again.replaced).toBe(true);

      const row = (await state.storedAccount(serviceTokenRowName("spotify")))!;
      expect(row.createdAt).toBe(1000);
      expect(row.updatedAt).toBe(2000);
      const found = findCredentialPieces(JSON.stringify(row), [
        token(5).access_token,
        token(5).refresh_token!,
      ]);
      expect(found, describePieces(found)).toEqual([]);

      // The accounts: none listed, none merged into the project.
      expect(await listAccounts(state, env)).toEqual([]);
      const project = { accounts: {} } as unknown as Project;
      expect(Object.keys((await withStoredAccounts(project, state, env)).accounts)).toEqual([]);

      // Without the key, with another, or copied under another name: refused, naming no secret.
      const none = await refusal(storedServiceToken(state, "spotify", {}));
      expect(none).toBeInstanceOf(SealError);
      expect(none.message).toContain("MUSICSYNC_ACCOUNTS_KEY is not set");
      const other = await refusal(
        storedServiceToken(state, "spotify", { MUSICSYNC_ACCOUNTS_KEY: newAccountsKey() }),
      );
      expect(other.message).toMatch(/sealed with key [0-9a-f]{8}/);
      await state.saveAccount({ ...row, name: serviceTokenRowName("lastfm") });
      const moved = await refusal(storedServiceToken(state, "lastfm", env));
      expect(moved.message).toContain("altered");
      for (const e of [none, other, moved]) {
        const leaks = findCredentialPieces(everythingOf(e), [
          token(5).access_token,
          token(5).refresh_token!,
          key,
        ]);
        expect(leaks, describePieces(leaks)).toEqual([]);
      }
    } finally {
      await state.close();
    }
  });
}

describe("the sign-in sealed into the state", () => {
  describe("on SQLite", () => {
    storedCases(async () => openState(":memory:"));
  });

  describe("on PostgreSQL", () => {
    const server = usePostgres();
    storedCases(async () => openState(await server().createDatabase("spotify_token")));
  });

  it("is a name no account can take", () => {
    expect(isServiceTokenRow(serviceTokenRowName("spotify"))).toBe(true);
    expect(() => checkAccountName(serviceTokenRowName("spotify"))).toThrow(/not allowed/);
    expect(isServiceTokenRow("spotify")).toBe(false);
  });

  it("is read when there is no token file, and each refresh is sealed again; a file is read first", async () => {
    await withTempDir("spotify-token-", async (dir) => {
      const { project, file } = await projectIn(dir, [`    client_id: ${CLIENT}`]);
      const env = { MUSICSYNC_ACCOUNTS_KEY: newAccountsKey() };
      const state = openState(join(dir, "state.db"));
      try {
        await storeServiceToken(
          state,
          "spotify",
          keptTokenText({ token: token(6), clientId: CLIENT }),
          env,
          1,
        );
        const ctx = { project, projectFile: file, state, environment: env };
        const user = await spotifyUserToken(ctx);
        expect(user.where).toBe("the state");
        expect(user.token).toEqual(token(6));
        await user.save(token(7));
        expect((await spotifyUserToken(ctx)).token).toEqual(token(7));
        expect(readdirSync(dir).filter((f) => f.includes("token"))).toEqual([]);

        await writeFile(
          join(dir, "spotify-token.json"),
          keptTokenText({ token: token(8), clientId: CLIENT }),
        );
        const fromFile = await spotifyUserToken(ctx);
        expect(fromFile.where).toBe(join(dir, "spotify-token.json"));
        expect(fromFile.token).toEqual(token(8));
      } finally {
        await state.close();
      }
      const bytes = readFileSync(join(dir, "state.db"));
      const secrets = [6, 7].flatMap((n) => [token(n).access_token, token(n).refresh_token!]);
      const found = findCredentialPieces(bytes, secrets);
      expect(found, describePieces(found)).toEqual([]);
    });
  });
});
