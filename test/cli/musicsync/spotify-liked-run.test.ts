/**
 * A person's Spotify liked songs mirrored into a playlist, each step its own `musicsync` command as
 * a person types them, all on the embedded emulator (`services.spotify.emulator: true`), which each
 * command starts anew: `init --emulator`, `auth spotify` (the test playing the browser), validate,
 * plan, sync. The playlist then holds what the stand-in says the liked songs are (its ground truth,
 * never the matcher's table); a second plan has nothing to do; a token the stand-in ends is renewed
 * mid-run and kept; after `auth spotify --sign-out` the next sync stops with the sign-in message and
 * changes nothing. Once with the token file, once sealed in the SQLite state (`--store`).
 */
import { existsSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator/index.js";
import { spotifyFake, spotifyTruth } from "../../../emulator/services/spotify/index.js";
import { newAccountsKey } from "../../../engine/accounts/seal.js";
import { storedServiceToken } from "../../../engine/accounts/service-token.js";
import { openState } from "../../../engine/state/open.js";
import { MusicClient } from "../../../src/index.js";
import { signIn } from "../../support/auth-spotify-browser.js";
import { describePieces, findCredentialPieces } from "../../support/credential-leaks.js";
import { musicsyncInProc } from "../../support/musicsync-inproc.js";
import { withTempDir } from "../../support/temp-dir.js";

const SEED = 1;
const CATALOGUE = 600;
const TITLE = "Liked on Spotify";

const RECIPE = [
  "apiVersion: musicsync/v1",
  "kind: Recipe",
  "id: spotify-liked",
  "sources:",
  "  - { id: liked, type: spotify, library: liked }",
  `target: { type: playlist, playlist: { title: ${TITLE} } }`,
  "mode: mirror",
  "",
].join("\n");

/** What the emulator's database holds, seen through an emulator of the test's own, started for it. */
async function onEmulator<T>(
  dir: string,
  look: (url: string, e: Awaited<ReturnType<typeof startEmulator>>) => Promise<T>,
) {
  const e = await startEmulator({ db: join(dir, "emulator.db"), seed: SEED, catalogueSize: CATALOGUE });
  try {
    return await look(e.url, e);
  } finally {
    await e.stop();
  }
}

/** The liked songs' catalogue videos, as the stand-in made them: the answer the playlist must hold. */
const likedTruth = (dir: string) =>
  onEmulator(dir, async (_url, e) => ({
    videos: [...new Set(spotifyTruth(e.state, null).flatMap((t) => (t?.videoId ? [t.videoId] : [])))],
    // Two liked songs of one title and artist on two albums (seed 1 has "Heart" by Paper Machine):
    // their ISRCs keep them apart, where the words alone would not.
    twins: twinsOf(spotifyFake(e.state).data.liked.flatMap((t) => (t?.videoId ? [t] : []))),
  }));

function twinsOf(liked: readonly { name: string; artists: { name: string }[]; videoId: string | null }[]) {
  const named = (t: (typeof liked)[number]) =>
    `${t.name}\u0000${t.artists.map((a) => a.name).join("\u0000")}`;
  const videosOf = new Map<string, Set<string>>();
  for (const t of liked) videosOf.set(named(t), (videosOf.get(named(t)) ?? new Set()).add(t.videoId!));
  return liked.filter((t) => videosOf.get(named(t))!.size > 1).length;
}

/** The playlist holds the liked songs, every one, in their order. */
function expectLiked(rows: string[], truth: Awaited<ReturnType<typeof likedTruth>>, said: string): void {
  expect(rows, said).toEqual(truth.videos);
}

/** The rows of the target playlist (none when it does not exist), read as the person. */
const targetRows = (dir: string) =>
  onEmulator(dir, async (url) => {
    const headers = (await (await fetch(`${url}/_emulator/accounts/1/headers`)).json()) as Record<
      string,
      string
    >;
    const person = new MusicClient({ auth: headers, baseUrl: url });
    const ids = (await person.getLibraryPlaylists({ limit: null })).filter((p) => p.title === TITLE);
    expect(ids.length).toBeLessThanOrEqual(1);
    if (ids.length === 0) return [];
    return (await person.getPlaylist(ids[0]!.playlistId!, { limit: null })).tracks.map(
      (t) => t.videoId ?? "",
    );
  });

const expireTokens = (dir: string) =>
  onEmulator(dir, async (url) => {
    const r = await fetch(`${url}/_emulator/services/spotify/expire-tokens`, { method: "POST" });
    expect(r.status).toBe(200);
  });

async function project(dir: string): Promise<string> {
  const init = await musicsyncInProc(["init", dir, "--emulator"]);
  expect(init.code, init.stderr).toBe(0);
  const file = join(dir, "musicsync.yaml");
  const text = (await readFile(file, "utf8")).replace(/catalogue: [0-9]+/, `catalogue: ${CATALOGUE}`);
  expect(text).toContain(`seed: ${SEED}, catalogue: ${CATALOGUE}`);
  await writeFile(file, `${text}\nservices:\n  spotify: { emulator: true }\n`);
  await writeFile(join(dir, "recipes", "spotify-liked.yaml"), RECIPE);
  return file;
}

/** The kept sign-in's secrets: from the token file, or unsealed from the state. */
async function keptSecrets(dir: string, env: Record<string, string>, store: boolean): Promise<string[]> {
  const text = store
    ? await (async () => {
        const state = openState(join(dir, "musicsync.db"));
        try {
          return storedServiceToken(state, "spotify", env);
        } finally {
          await state.close();
        }
      })()
    : existsSync(join(dir, "spotify-token.json"))
      ? readFileSync(join(dir, "spotify-token.json"), "utf8")
      : null;
  if (text === null) return [];
  const j = JSON.parse(text) as { access_token: string; refresh_token: string };
  return [j.access_token, j.refresh_token];
}

function expectNoPieces(text: string, secrets: string[]): void {
  const found = findCredentialPieces(text, secrets);
  expect(found, describePieces(found)).toEqual([]);
}

describe("liked songs from a kept Spotify sign-in, on the embedded emulator", () => {
  for (const store of [false, true]) {
    it(`signs in, mirrors them, renews the token mid-run, and stops after the sign-out (${store ? "sealed in the state" : "token file"})`, {
      timeout: 300_000,
    }, async () => {
      await withTempDir("spotify-liked-", async (dir) => {
        const file = await project(dir);
        const env: Record<string, string> = store ? { MUSICSYNC_ACCOUNTS_KEY: newAccountsKey() } : {};
        const ms = (args: string[]) => musicsyncInProc([...args, "-p", file], { env });

        // Before signing in, the recipe says what to do.
        const unsigned = await ms(["sync", "-r", "spotify-liked"]);
        expect(unsigned.code).not.toBe(0);
        expect(unsigned.stdout + unsigned.stderr).toContain("run `musicsync auth spotify`");

        const signed = await signIn(["-p", file, ...(store ? ["--store"] : [])], env);
        expect(signed.result.stderr).toBe("");
        expect(signed.result.code).toBe(0);
        expect(signed.result.stdout).toMatch(/Signed in to Spotify as \S/);
        // The stand-in has no app settings to register a redirect in: the command does not ask for it.
        expect(signed.result.stdout).toContain("the embedded emulator's stand-in for Spotify");
        expect(signed.result.stdout).not.toContain("developer.spotify.com");
        const first = await keptSecrets(dir, env, store);
        expect(first).toHaveLength(2);

        const validated = await ms(["validate"]);
        expect(validated.code, validated.stdout + validated.stderr).toBe(0);
        const planned = await ms(["plan", "-r", "spotify-liked"]);
        expect(planned.code, planned.stderr).toBe(2);
        expect(await targetRows(dir)).toEqual([]);

        const synced = await ms(["sync", "-r", "spotify-liked"]);
        expect(synced.code, synced.stdout + synced.stderr).toBe(0);
        const truth = await likedTruth(dir);
        expect(truth.videos.length).toBeGreaterThan(100);
        expect(truth.twins).toBeGreaterThan(0);
        const rows = await targetRows(dir);
        expectLiked(rows, truth, synced.stdout + synced.stderr);

        const again = await ms(["plan", "-r", "spotify-liked"]);
        expect(again.code, again.stdout + again.stderr).toBe(0);
        expect(again.stdout).toContain("No changes");

        // The stand-in ends every access token (kept in its database): the next run renews it and keeps the new one.
        await expireTokens(dir);
        const renewed = await ms(["sync", "-r", "spotify-liked"]);
        expect(renewed.code, renewed.stdout + renewed.stderr).toBe(0);
        const second = await keptSecrets(dir, env, store);
        expect(second[0]).not.toBe(first[0]);
        expect(await targetRows(dir)).toEqual(rows);
        // Renewed again from what was kept.
        await expireTokens(dir);
        expect((await ms(["plan", "-r", "spotify-liked"])).code).toBe(0);

        const out = await ms(["auth", "spotify", "--sign-out"]);
        expect(out.code, out.stderr).toBe(0);
        expect(out.stdout).toContain("Removed the Spotify sign-in");
        expect(await keptSecrets(dir, env, store)).toEqual([]);

        const refused = await ms(["sync", "-r", "spotify-liked"]);
        expect(refused.code).not.toBe(0);
        expect(refused.stdout + refused.stderr).toContain(
          "reading your Spotify library needs you signed in: run `musicsync auth spotify`",
        );
        expect(await targetRows(dir)).toEqual(rows);

        const printed = [signed.result, unsigned, validated, planned, synced, again, renewed, out, refused]
          .map((r) => r.stdout + r.stderr)
          .join("\n");
        expectNoPieces(printed, [...first, ...second]);
      });
    });
  }
});
