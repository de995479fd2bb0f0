/**
 * The engine's Spotify reader (engine/services/spotify/) against the emulator's Spotify fake on
 * 127.0.0.1: references read strictly before any request, the PKCE pieces, every page of each
 * list, local files and removed tracks counted, 429 waited out within bounds, 5xx retried, the
 * token renewed before expiry or once after a 401, the editorial 404 explained, a read cut short
 * thrown; and a hostile server that echoes credentials, whose errors hold none of them.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator/index.js";
import {
  EDITORIAL_PLAYLIST_IDS,
  SPOTIFY_FAKE_CLIENT,
  spotifyFake,
  spotifyTruth,
} from "../../../emulator/services/spotify/index.js";
import { ServiceReadError } from "../../../engine/services/http.js";
import {
  authorizeUrl,
  codeFromRedirect,
  exchangeCode,
  parsePlaylistRef,
  pkceChallenge,
  pkceVerifier,
  SpotifyArgumentError,
  SpotifyClient,
  type SpotifyToken,
} from "../../../engine/services/spotify/index.js";
import { rowOf } from "../../../engine/services/spotify/parse.js";
import { fakeClock } from "./service-fakes.js";

let emu: RunningEmulator;

/** A clock that moves only when the reader sleeps (or a test moves it), from now. */
const fakeTime = (start = Date.now()) => fakeClock(start);

const bases = () => ({ apiBase: `${emu.url}/spotify/api/v1`, accountsBase: `${emu.url}/spotify/accounts` });
const app = { clientId: SPOTIFY_FAKE_CLIENT.id, clientSecret: SPOTIFY_FAKE_CLIENT.secret };
const appClient = (time = fakeTime()) => new SpotifyClient({ app, ...bases(), http: time.http });
const longest = () => spotifyFake(emu.state).playlists()[0]!;
const count = (key: string) => emu.counts()[key] ?? 0;

/** A person signed in through the fake: the authorize address, its redirect, the code exchange. */
async function signIn(time = fakeTime()): Promise<SpotifyToken> {
  const verifier = pkceVerifier(new Uint8Array(48).fill(7));
  const redirectUri = "http://127.0.0.1:8976/callback";
  const url = authorizeUrl({
    accountsBase: bases().accountsBase,
    clientId: app.clientId,
    redirectUri,
    scopes: ["user-library-read", "user-follow-read"],
    state: "s1",
    challenge: pkceChallenge(verifier),
  });
  const res = await fetch(url, { redirect: "manual" });
  const code = codeFromRedirect(new URL(res.headers.get("location")!), "s1");
  return exchangeCode(
    { accountsBase: bases().accountsBase, clientId: app.clientId, code, redirectUri, verifier },
    time.http,
  );
}

async function failure(p: Promise<unknown>): Promise<ServiceReadError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ServiceReadError);
  return e as ServiceReadError;
}

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 400, seed: 11 });
});
afterAll(() => emu.stop());

describe("a playlist reference", () => {
  const id = "3cEYpjA9oz9GiPac4AsH4n";
  it("is an id, an open.spotify.com address (localised, shared) or a spotify:playlist: URI", () => {
    for (const ref of [
      id,
      `https://open.spotify.com/playlist/${id}`,
      `https://open.spotify.com/playlist/${id}?si=abc123`,
      `https://open.spotify.com/intl-de/playlist/${id}`,
      `https://open.spotify.com/user/someone/playlist/${id}`,
      `spotify:playlist:${id}`,
      ` ${id} `,
    ]) {
      expect(parsePlaylistRef(ref), ref).toBe(id);
    }
  });

  it("is refused otherwise, naming the argument, before any request", async () => {
    for (const ref of [
      "",
      "3cEYpjA9oz9GiPac4AsH4",
      `https://open.spotify.com/album/${id}`,
      `https://evil.example/playlist/${id}`,
      `spotify:album:${id}`,
      `ftp://open.spotify.com/playlist/${id}`,
      `https://open.spotify.com/playlist/${id}/extra`,
    ]) {
      expect(() => parsePlaylistRef(ref, "sources[0].playlist"), ref).toThrow(/^sources\[0\]\.playlist: /);
    }
    const before = count("spotify/playlists") + count("spotify/token");
    await expect(appClient().playlist("not a playlist")).rejects.toBeInstanceOf(SpotifyArgumentError);
    expect(count("spotify/playlists") + count("spotify/token")).toBe(before);
  });
});

describe("PKCE", () => {
  it("gives RFC 7636's challenge for its example verifier, and verifiers of the allowed length", () => {
    expect(pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
    const v = pkceVerifier(new Uint8Array(32));
    expect(v).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(() => pkceVerifier(new Uint8Array(16))).toThrow(RangeError);
  });

  it("refuses a redirect whose state is not the one sent, or that says the person refused", () => {
    expect(() => codeFromRedirect(new URL("http://127.0.0.1/cb?code=x&state=other"), "mine")).toThrow(
      /state/,
    );
    expect(() =>
      codeFromRedirect(new URL("http://127.0.0.1/cb?error=access_denied&state=mine"), "mine"),
    ).toThrow(/access_denied/);
  });
});

describe("reading a public playlist with the app's token", () => {
  it("reads all 500 rows: tracks as entries, local files and removed tracks counted, whatever form the reference takes", async () => {
    const p = longest();
    const list = await appClient().playlist(`https://open.spotify.com/playlist/${p.id}?si=x`);
    expect(list.expected).toBe(500);
    expect(list.skipped).toEqual(
      expect.arrayContaining([
        { reason: "local file", count: 3 },
        { reason: "track no longer on Spotify", count: 2 },
      ]),
    );
    expect(list.entries).toHaveLength(495);
    const truth = spotifyTruth(emu.state, p.id).filter((t) => t !== null && t.trackId !== null);
    expect(list.entries.map((e) => e.serviceId)).toEqual(truth.map((t) => `spotify:track:${t!.trackId}`));
    expect(list.entries.map((e) => e.isrc)).toEqual(truth.map((t) => t!.isrc));
    expect(list.entries.some((e) => e.isrc === null)).toBe(true);
    for (const e of list.entries) {
      expect(e.artists.length).toBeGreaterThan(0);
      expect(e.durationSeconds).toBeGreaterThan(0);
      expect(e.mbid).toBeNull();
    }
    const again = await appClient().playlist(`spotify:playlist:${p.id}`);
    expect(again).toEqual(list);
  });

  it("says that Spotify no longer lets new apps read its editorial playlists, not merely 'not found'", async () => {
    const e = await failure(appClient().playlist(EDITORIAL_PLAYLIST_IDS[0]));
    expect(e.status).toBe(404);
    expect(e.message).toMatch(/editorial or algorithmic.*apps registered since November 2024/);
    const missing = await failure(appClient().playlist("0000000000000000000000"));
    expect(missing.message).toMatch(/was not found/);
    expect(missing.message).not.toMatch(/editorial/);
  });

  it("waits out a 429 for its Retry-After, and retries a 5xx", async () => {
    const time = fakeTime();
    emu.state.faults.enqueue([
      { kind: "rate-limit", endpoint: "spotify/playlists", retryAfter: 2 },
      { kind: "server-error", endpoint: "spotify/playlists" },
    ]);
    const list = await appClient(time).playlist(longest().id);
    expect(list.entries).toHaveLength(495);
    expect(time.waits).toHaveLength(2);
    expect(time.waits[0]).toBeGreaterThanOrEqual(2000);
  });

  it("fails, naming Spotify, when the wait asked is past the bound or the 5xx go on", async () => {
    emu.state.faults.enqueue([{ kind: "rate-limit", endpoint: "spotify/playlists", retryAfter: 600 }]);
    const limited = await failure(appClient().playlist(longest().id));
    expect(limited).toMatchObject({ service: "spotify", status: 429 });
    expect(limited.message).toMatch(/^spotify: .*rate limited/);
    emu.state.faults.enqueue([{ kind: "server-error", endpoint: "spotify/playlists", count: 20 }]);
    const broken = await failure(appClient().playlist(longest().id));
    expect(broken.status).toBe(500);
    emu.state.faults.clear();
  });

  it("throws on a read cut short, never returning fewer rows", async () => {
    emu.state.faults.enqueue([{ kind: "truncate", endpoint: "spotify/playlists" }]);
    const short = await failure(appClient().playlist(longest().id));
    expect(short.message).toMatch(/stopped at 50 of 500 rows/);
    emu.state.faults.enqueue([{ kind: "cut", endpoint: "spotify/playlists", count: 20 }]);
    const dropped = await failure(appClient().playlist(longest().id));
    expect(dropped.message).toMatch(/^spotify: /);
    emu.state.faults.clear();
  });

  it("sees a playlist that gained songs and lost one", async () => {
    const p = spotifyFake(emu.state).playlists()[2]!;
    const before = await appClient().playlist(p.id);
    const res = await fetch(`${emu.url}/_emulator/services/spotify/playlists/${p.id}/add?count=10`, {
      method: "POST",
    });
    const { added } = (await res.json()) as { added: string[] };
    const after = await appClient().playlist(p.id);
    expect(after.expected).toBe(before.expected! + 10);
    expect(after.entries.slice(-10).map((e) => e.serviceId)).toEqual(
      added.map((id) => `spotify:track:${id}`),
    );
  });
});

describe("reading a person's library", () => {
  it("reads liked songs, saved albums and followed artists, every page", async () => {
    const time = fakeTime();
    const client = new SpotifyClient({
      app: { clientId: app.clientId },
      token: await signIn(time),
      ...bases(),
      http: time.http,
    });
    const liked = await client.likedSongs();
    expect(liked.expected).toBe(230);
    expect(liked.entries.map((e) => e.serviceId)).toEqual(
      spotifyTruth(emu.state, null).map((t) => `spotify:track:${t!.trackId}`),
    );
    const albums = await client.savedAlbums();
    expect(albums.entries).toHaveLength(albums.expected!);
    expect(albums.entries[0]).toMatchObject({
      serviceId: expect.stringMatching(/^spotify:album:/),
      year: expect.any(Number),
    });
    expect(albums.entries.some((a) => a.upc === null)).toBe(true);
    const artists = await client.followedArtists();
    expect(artists.expected).toBe(70);
    expect(new Set(artists.entries.map((a) => a.serviceId)).size).toBe(70);
    expect(await client.me()).toMatchObject({ id: expect.any(String) });
  });

  it("refreshes a token about to expire before reading, and hands the new one to be kept", async () => {
    const time = fakeTime();
    const token = await signIn(time);
    const kept: SpotifyToken[] = [];
    const client = new SpotifyClient({
      app: { clientId: app.clientId },
      token: { ...token, expires_at: time.http.now() + 30_000 },
      onRefresh: (t) => {
        kept.push(t);
      },
      ...bases(),
      http: time.http,
    });
    const before = count("spotify/token");
    await client.me();
    expect(count("spotify/token")).toBe(before + 1);
    expect(kept).toHaveLength(1);
    expect(kept[0]!.access_token).not.toBe(token.access_token);
    expect(kept[0]!.refresh_token).not.toBe(token.refresh_token);
    expect(kept[0]!.expires_at).toBe(time.http.now() + 3600_000);
    await client.me();
    expect(kept).toHaveLength(1);
  });

  it("renews once when Spotify says the token expired, and reads on", async () => {
    const time = fakeTime();
    const kept: SpotifyToken[] = [];
    const client = new SpotifyClient({
      app: { clientId: app.clientId },
      token: await signIn(time),
      onRefresh: (t) => {
        kept.push(t);
      },
      ...bases(),
      http: time.http,
    });
    spotifyFake(emu.state).accounts.expireAll();
    const liked = await client.likedSongs();
    expect(liked.entries.length + (liked.skipped?.reduce((n, s) => n + s.count, 0) ?? 0)).toBe(230);
    expect(kept).toHaveLength(1);
  });

  it("asks a person with an unrefreshable token to sign in again, and an app token gets a clear 401", async () => {
    const time = fakeTime();
    const token = await signIn(time);
    const stale = new SpotifyClient({
      app: { clientId: app.clientId },
      token: { ...token, refresh_token: null },
      ...bases(),
      http: time.http,
    });
    spotifyFake(emu.state).accounts.expireAll();
    expect((await failure(stale.likedSongs())).message).toMatch(/sign in to Spotify again/);
    const asApp = await failure(appClient().likedSongs());
    expect(asApp.status).toBe(401);
    expect(asApp.message).toMatch(/liked songs: .*sign in again/);
  });
});

describe("rows as the description allows them", () => {
  const fixture = JSON.parse(
    readFileSync(new URL("../../fixtures/services/spotify/playlist-tracks.json", import.meta.url), "utf8"),
  ) as { items: unknown[] };

  it("read a track's fields, and skip a local file and a removed track", () => {
    const [track, local, removed] = fixture.items.map(rowOf);
    expect(track).toEqual({
      track: {
        title: "Example Song (feat. Second Artist) - Remastered 2011",
        artists: ["Example Artist", "Second Artist"],
        album: "Example Album",
        durationSeconds: 208,
        explicit: false,
        isrc: "USUM71100123",
        mbid: null,
        serviceId: "spotify:track:11dFghVXANMlKmJXsNCbNl",
      },
    });
    expect(local).toEqual({ skip: "local file" });
    expect(removed).toEqual({ skip: "track no longer on Spotify" });
  });

  it("take absent and null fields as unknown", () => {
    const row = rowOf({
      track: {
        id: "11dFghVXANMlKmJXsNCbNl",
        name: "Bare",
        artists: null,
        album: null,
        external_ids: { isrc: null },
      },
    });
    expect(row).toEqual({
      track: {
        title: "Bare",
        artists: [],
        album: null,
        durationSeconds: null,
        explicit: null,
        isrc: null,
        mbid: null,
        serviceId: "spotify:track:11dFghVXANMlKmJXsNCbNl",
      },
    });
    expect(rowOf({ track: { id: "11dFghVXANMlKmJXsNCbNl", name: "x", type: "episode" } })).toEqual({
      skip: "podcast episode",
    });
    expect(rowOf(null)).toEqual({ skip: "track no longer on Spotify" });
  });
});

describe("credentials", () => {
  const SECRET = "s3cret-of-the-app-never-shown-0123456789";
  const TOKEN = "t0ken-of-the-hostile-test-never-shown-abcdef";
  let hostile: Server;
  let base: string;
  let mode: "echo-error" | "redirect" | "token-refused" = "echo-error";

  beforeAll(async () => {
    hostile = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        const said = `${req.headers.authorization ?? ""} ${body} ${TOKEN} ${SECRET}`;
        if (req.url?.startsWith("/accounts/api/token")) {
          if (mode === "token-refused") {
            res.writeHead(400, { "content-type": "application/json" });
            res.end(JSON.stringify({ error: `invalid_client ${said}`, error_description: said }));
            return;
          }
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ access_token: TOKEN, token_type: "Bearer", expires_in: 3600 }));
          return;
        }
        if (mode === "redirect") {
          res.writeHead(302, { location: `https://elsewhere.example/?token=${TOKEN}&secret=${SECRET}` });
          res.end(said);
          return;
        }
        res.writeHead(400, { "content-type": "application/json", "x-echo": TOKEN });
        res.end(JSON.stringify({ error: { status: 400, message: `bad request ${said}` } }));
      });
    });
    await new Promise<void>((r) => hostile.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => hostile.close(() => r())));

  /** The error, its causes and its JSON, as one text. */
  function everything(e: unknown): string {
    const parts: string[] = [];
    for (let c: unknown = e, i = 0; c && i < 10; c = (c as { cause?: unknown }).cause, i++) {
      parts.push(String(c), (c as Error).stack ?? "", JSON.stringify(c));
    }
    return parts.join("\n");
  }

  it("never show up in a failure, whatever the service echoes, in its body or a redirect", async () => {
    const basic = Buffer.from(`${app.clientId}:${SECRET}`).toString("base64");
    for (const m of ["echo-error", "redirect", "token-refused"] as const) {
      mode = m;
      const client = new SpotifyClient({
        app: { clientId: app.clientId, clientSecret: SECRET },
        apiBase: `${base}/v1`,
        accountsBase: `${base}/accounts`,
        http: fakeTime().http,
      });
      const e = await failure(client.playlist("3cEYpjA9oz9GiPac4AsH4n"));
      const text = everything(e);
      for (const secret of [SECRET, TOKEN, basic]) expect(text, m).not.toContain(secret);
      expect(e.message, m).toMatch(/^spotify: /);
    }
  });
});
