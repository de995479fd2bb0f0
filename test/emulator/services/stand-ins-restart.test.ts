/**
 * What the stand-ins are changed into outlives the emulator on a database file (each musicsync
 * command starts the embedded emulator anew): the Spotify stand-in's tokens (an ended token stays
 * ended, a refresh token a refresh replaced stays refused), and the changes made through the
 * controls: a Spotify playlist grown and cut, albums saved and unsaved and artists followed and
 * unfollowed, a new Weekly Exploration, a ListenBrainz playlist
 * edited, Last.fm loves edited and an API key added. Seen through the HTTP controls and the
 * stand-ins' own ground truth.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../../emulator/index.js";
import { keyAccepted, lovedTracks } from "../../../emulator/services/lastfm/data.js";
import {
  findPlaylist,
  playlistTracks,
  seriesPlaylists,
} from "../../../emulator/services/listenbrainz/data.js";
import {
  SPOTIFY_FAKE_CLIENT,
  s256,
  spotifyAlbumTruth,
  spotifyArtistTruth,
  spotifyFake,
  spotifyTruth,
} from "../../../emulator/services/spotify/index.js";
import { withTempDir } from "../../support/temp-dir.js";

const VERIFIER = "a-verifier-of-enough-length-for-pkce-0123456789abcdef";

async function withEmulator<T>(
  db: string,
  body: (e: Awaited<ReturnType<typeof startEmulator>>) => T | Promise<T>,
) {
  const e = await startEmulator({ db, seed: 3, catalogueSize: 200 });
  try {
    return await body(e);
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

async function post(url: string, body?: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(url, {
    method: "POST",
    ...(body ? { body: JSON.stringify(body), headers: { "content-type": "application/json" } } : {}),
  });
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as Record<string, unknown>;
}

/** What each stand-in's changed lists are now: from its ground truth. */
function seen(e: Awaited<ReturnType<typeof startEmulator>>, spotifyId: string, lbMbid: string) {
  return {
    spotify: spotifyTruth(e.state, spotifyId).map((t) => t?.trackId ?? null),
    albums: spotifyAlbumTruth(e.state).map((a) => a.serviceId),
    artists: spotifyArtistTruth(e.state).map((a) => a.serviceId),
    exploration: seriesPlaylists(e.state, "listener", "weekly-exploration").map((p) => p.mbid),
    lbPlaylist: playlistTracks(e.state, findPlaylist(e.state, lbMbid)!).map((t) => t.mbid),
    loved: lovedTracks(e.state, "scrobbler").map((d) => d.track.url),
    key: keyAccepted(e.state, "0123456789abcdef0123456789abcdef"),
  };
}

describe("changes made through the controls, across restarts", () => {
  it("are made again at the next start, in order, and nothing else changes", async () => {
    await withTempDir("stand-ins-", async (dir) => {
      const db = join(dir, "emulator.db");
      const { before, after, ids } = await withEmulator(db, async (e) => {
        const c = `${e.url}/_emulator/services`;
        const gym = spotifyFake(e.state).playlists()[1]!.id;
        const lbMbid = seriesPlaylists(e.state, "listener", "weekly-jams")[0]!.mbid;
        const before = seen(e, gym, lbMbid);
        await post(`${c}/spotify/playlists/${gym}/add?count=4`);
        await post(`${c}/spotify/playlists/${gym}/remove?positions=0,2`);
        await post(`${c}/spotify/playlists/${gym}/add?count=2`);
        const saved = (await post(`${c}/spotify/albums/save?count=3`)).saved as { serviceId: string }[];
        await post(`${c}/spotify/albums/${saved[1]!.serviceId.split(":")[2]}/unsave`);
        const followed = (await post(`${c}/spotify/artists/follow?count=2`)).followed as {
          serviceId: string;
        }[];
        await post(`${c}/spotify/artists/${followed[0]!.serviceId.split(":")[2]}/unfollow`);
        await post(`${c}/listenbrainz/users/listener/next`, { series: "weekly-exploration" });
        await post(`${c}/listenbrainz/playlists/${lbMbid}`, { add: 3, remove: [1] });
        await post(`${c}/lastfm/users/scrobbler/loved`, { add: 2, remove: [0, 5] });
        await post(`${c}/lastfm/keys`, { apiKey: "0123456789abcdef0123456789abcdef" });
        return { before, after: seen(e, gym, lbMbid), ids: { gym, lbMbid } };
      });
      expect(after.spotify).toHaveLength(before.spotify.length + 4);
      expect(after.spotify.slice(0, 3)).toEqual([before.spotify[1], ...before.spotify.slice(3, 5)]);
      expect(after.albums).toHaveLength(before.albums.length + 2);
      expect(after.albums.slice(2)).toEqual(before.albums);
      expect(after.artists).toHaveLength(before.artists.length + 1);
      expect(after.artists).toEqual(expect.arrayContaining(before.artists));
      expect(after.exploration[0]).not.toBe(before.exploration[0]);
      expect(after.lbPlaylist).toHaveLength(before.lbPlaylist.length + 2);
      expect(after.lbPlaylist.slice(0, -3)).toEqual(before.lbPlaylist.filter((_, i) => i !== 1));
      expect(after.loved).toHaveLength(before.loved.length);
      expect(after.loved.slice(2)).toEqual(before.loved.filter((_, i) => i !== 0 && i !== 5));
      expect(before.key).toBe(false);
      expect(after.key).toBe(true);
      // Twice restarted: the same, not made twice.
      for (let i = 0; i < 2; i++) {
        const again = await withEmulator(db, (e) => seen(e, ids.gym, ids.lbMbid));
        expect(again).toEqual(after);
      }
      // Another database starts from what the seed makes.
      const fresh = await withEmulator(join(dir, "other.db"), (e) => seen(e, ids.gym, ids.lbMbid));
      expect(fresh).toEqual(before);
    });
  });

  it("pass over a kept change that cannot be read (a damaged row) and make the others", async () => {
    await withTempDir("stand-ins-", async (dir) => {
      const db = join(dir, "emulator.db");
      const before = await withEmulator(db, (e) => spotifyAlbumTruth(e.state).map((a) => a.serviceId));
      const sqlite = new Database(db);
      try {
        const add = sqlite.prepare("INSERT INTO stand_in_changes (service, change) VALUES (?, ?)");
        add.run("spotify", "{not json");
        add.run("spotify", JSON.stringify({ op: "save", count: 1 }));
        add.run("lastfm", "");
      } finally {
        sqlite.close();
      }
      const after = await withEmulator(db, (e) => ({
        albums: spotifyAlbumTruth(e.state).map((a) => a.serviceId),
        loved: lovedTracks(e.state, "scrobbler").length,
      }));
      expect(after.albums).toHaveLength(before.length + 1);
      expect(after.albums.slice(1)).toEqual(before);
      expect(after.loved).toBeGreaterThan(0);
    });
  });

  it("keep an album saved by two emulators on one database as one saved album", async () => {
    await withTempDir("stand-ins-", async (dir) => {
      const db = join(dir, "emulator.db");
      const [a, b] = [
        await startEmulator({ db, seed: 3, catalogueSize: 200 }),
        await startEmulator({ db, seed: 3, catalogueSize: 200 }),
      ];
      let before: string[];
      let savedBy: string[][];
      try {
        before = spotifyAlbumTruth(a.state).map((x) => x.serviceId);
        spotifyAlbumTruth(b.state);
        // Each saves "the next" album: the same one, as neither has seen the other's.
        savedBy = await Promise.all(
          [a, b].map(async (e) => {
            const r = await post(`${e.url}/_emulator/services/spotify/albums/save?count=1`);
            return (r.saved as { serviceId: string }[]).map((x) => x.serviceId);
          }),
        );
      } finally {
        await a.stop();
        await b.stop();
      }
      expect(savedBy[0]).toEqual(savedBy[1]);
      const after = await withEmulator(db, (e) => spotifyAlbumTruth(e.state).map((x) => x.serviceId));
      expect(after).toEqual([...savedBy[0]!, ...before]);
    });
  });
});
