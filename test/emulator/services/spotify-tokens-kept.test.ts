/**
 * The Spotify stand-in's tokens outlive the emulator: issued by one start on a database file, they
 * are honoured by the next (each musicsync command starts the embedded emulator anew); an ended
 * token stays ended and a refresh token a refresh replaced stays refused.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator/index.js";
import { SPOTIFY_FAKE_CLIENT, s256, spotifyFake } from "../../../emulator/services/spotify/index.js";
import { withTempDir } from "../../support/temp-dir.js";

const VERIFIER = "a-verifier-of-enough-length-for-pkce-0123456789abcdef";

async function withEmulator<T>(db: string, body: (e: Awaited<ReturnType<typeof startEmulator>>) => T) {
  const e = await startEmulator({ db, seed: 3, catalogueSize: 200 });
  try {
    return body(e);
  } finally {
    await e.stop();
  }
}

/** A person's sign-in (PKCE, a public client), made through the stand-in's accounts host. */
function signIn(e: Awaited<ReturnType<typeof startEmulator>>): { access: string; refresh: string } {
  const accounts = spotifyFake(e.state).accounts;
  const redirect = "http://127.0.0.1:9/callback";
  const back = accounts.authorize(
    new URLSearchParams({
      client_id: SPOTIFY_FAKE_CLIENT.id,
      redirect_uri: redirect,
      response_type: "code",
      scope: "user-library-read",
      code_challenge_method: "S256",
      code_challenge: s256(VERIFIER),
    }),
  );
  if (!("redirect" in back)) throw new Error(back.text);
  const code = new URL(back.redirect).searchParams.get("code")!;
  const answer = accounts.token(
    new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirect,
      client_id: SPOTIFY_FAKE_CLIENT.id,
      code_verifier: VERIFIER,
    }),
    undefined,
  );
  const body = answer.body as { access_token: string; refresh_token: string };
  return { access: body.access_token, refresh: body.refresh_token };
}

const refresh = (e: Awaited<ReturnType<typeof startEmulator>>, token: string) =>
  spotifyFake(e.state).accounts.token(
    new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: token,
      client_id: SPOTIFY_FAKE_CLIENT.id,
    }),
    undefined,
  );

describe("the Spotify stand-in's tokens across restarts", () => {
  it("honours a sign-in made by an earlier start, keeps an ended token ended and a replaced refresh token refused", async () => {
    await withTempDir("spotify-tokens-", async (dir) => {
      const db = join(dir, "emulator.db");
      const first = await withEmulator(db, (e) => signIn(e));
      await withEmulator(db, (e) => {
        const accounts = spotifyFake(e.state).accounts;
        expect(accounts.bearer(`Bearer ${first.access}`)).toEqual({
          ok: true,
          grant: "user",
          scope: ["user-library-read"],
        });
        expect(accounts.bearer("Bearer never-issued")).toEqual({ ok: false, why: "invalid" });
        accounts.expireAll();
      });
      const renewed = await withEmulator(db, (e) => {
        expect(spotifyFake(e.state).accounts.bearer(`Bearer ${first.access}`)).toEqual({
          ok: false,
          why: "expired",
        });
        const r = refresh(e, first.refresh);
        expect(r.status).toBe(200);
        return r.body as { access_token: string; refresh_token: string };
      });
      await withEmulator(db, (e) => {
        expect(refresh(e, first.refresh)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
        expect(spotifyFake(e.state).accounts.bearer(`Bearer ${renewed.access_token}`).ok).toBe(true);
        expect(refresh(e, renewed.refresh_token).status).toBe(200);
      });
    });
  });

  it("keeps an in-memory emulator's tokens to itself", async () => {
    const e = await startEmulator({ seed: 3, catalogueSize: 200 });
    const token = signIn(e);
    await e.stop();
    const other = await startEmulator({ seed: 3, catalogueSize: 200 });
    try {
      expect(spotifyFake(other.state).accounts.bearer(`Bearer ${token.access}`)).toEqual({
        ok: false,
        why: "invalid",
      });
    } finally {
      await other.stop();
    }
  });
});
