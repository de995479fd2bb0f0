/**
 * The Spotify fake (emulator/services/spotify/): the accounts host's grants and errors, the Web
 * API's reads and paging, its error shapes and faults, tokens that expire on the emulator's
 * clock, and data drawn from the catalogue with ground truth beside it. Asked over HTTP as a
 * client would; the shapes are those of test/fixtures/services/spotify/.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator/index.js";
import {
  EDITORIAL_PLAYLIST_IDS,
  SPOTIFY_FAKE_CLIENT,
  s256,
  spotifyAlbumTruth,
  spotifyArtistTruth,
  spotifyFake,
  spotifyTruth,
} from "../../../emulator/services/spotify/index.js";

// biome-ignore lint/suspicious/noExplicitAny: answers are walked by the paths the fixtures show
type Answer = Record<string, any>;

let emu: RunningEmulator;
let clock = Date.UTC(2026, 10, 1);
let appToken: string;

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/services/spotify/${name}`, import.meta.url), "utf8"));

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

async function token(form: Record<string, string>, authorization?: string) {
  const res = await fetch(`${emu.url}/spotify/accounts/api/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(authorization ? { authorization } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function get(path: string, bearer: string | null = appToken) {
  const res = await fetch(path.startsWith("http") ? path : `${emu.url}/spotify/api/v1${path}`, {
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer };
}

/** A person's sign-in: /authorize (approved at once) and the PKCE code exchange. */
async function signIn(scope = "user-library-read user-follow-read") {
  const verifier = "a-verifier-of-the-test-that-is-long-enough-for-pkce-0123456789";
  const q = new URLSearchParams({
    client_id: SPOTIFY_FAKE_CLIENT.id,
    response_type: "code",
    redirect_uri: "http://127.0.0.1:8976/callback",
    scope,
    state: "st4te",
    code_challenge_method: "S256",
    code_challenge: s256(verifier),
  });
  const res = await fetch(`${emu.url}/spotify/accounts/authorize?${q}`, { redirect: "manual" });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get("location")!);
  return { back, verifier, code: back.searchParams.get("code")! };
}

const exchange = (code: string, verifier: string) =>
  token({
    grant_type: "authorization_code",
    code,
    redirect_uri: "http://127.0.0.1:8976/callback",
    client_id: SPOTIFY_FAKE_CLIENT.id,
    code_verifier: verifier,
  });

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 400, seed: 5, now: () => clock });
  const t = await token(
    { grant_type: "client_credentials" },
    basic(SPOTIFY_FAKE_CLIENT.id, SPOTIFY_FAKE_CLIENT.secret),
  );
  appToken = t.body.access_token as string;
});
afterAll(() => emu.stop());

const longest = () => spotifyFake(emu.state).playlists()[0]!;

describe("the accounts host", () => {
  it("gives an app token for Basic auth of id:secret, and refuses a wrong secret in the OAuth shape", async () => {
    const ok = await token(
      { grant_type: "client_credentials" },
      basic(SPOTIFY_FAKE_CLIENT.id, SPOTIFY_FAKE_CLIENT.secret),
    );
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body).sort()).toEqual(Object.keys(fixture("token-client-credentials.json")).sort());
    expect(ok.body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    const bad = await token({ grant_type: "client_credentials" }, basic(SPOTIFY_FAKE_CLIENT.id, "wrong"));
    expect(bad).toEqual({
      status: 400,
      body: { error: "invalid_client", error_description: "Invalid client" },
    });
    expect((await token({})).body.error).toBe("unsupported_grant_type");
  });

  it("sends the browser back with a code and the state; the code, with the right verifier, once, gives a person's tokens", async () => {
    const { back, verifier, code } = await signIn();
    expect(back.origin + back.pathname).toBe("http://127.0.0.1:8976/callback");
    expect(back.searchParams.get("state")).toBe("st4te");
    const wrong = await signIn();
    expect(await exchange(wrong.code, `${verifier}x`)).toEqual({
      status: 400,
      body: { error: "invalid_grant", error_description: "code_verifier was incorrect" },
    });
    const ok = await exchange(code, verifier);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ token_type: "Bearer", scope: "user-library-read user-follow-read" });
    expect(typeof ok.body.refresh_token).toBe("string");
    expect((await exchange(code, verifier)).body.error).toBe("invalid_grant");
  });

  it("refreshes a person's token, replacing the refresh token (a PKCE client's rotates)", async () => {
    const { code, verifier } = await signIn();
    const first = (await exchange(code, verifier)).body;
    const form = {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token as string,
      client_id: SPOTIFY_FAKE_CLIENT.id,
    };
    const again = await token(form);
    expect(again.status).toBe(200);
    expect(again.body.access_token).not.toBe(first.access_token);
    expect(again.body.refresh_token).not.toBe(first.refresh_token);
    expect((await token(form)).body).toEqual({
      error: "invalid_grant",
      error_description: "Invalid refresh token",
    });
  });

  it("refuses an unknown client at /authorize without sending the browser anywhere", async () => {
    const res = await fetch(
      `${emu.url}/spotify/accounts/authorize?client_id=nobody&response_type=code&redirect_uri=http://127.0.0.1:1/cb`,
      {
        redirect: "manual",
      },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });
});

describe("tokens", () => {
  it("answer 401 in Spotify's shape when missing, unknown or expired on the emulator's clock", async () => {
    const p = longest();
    expect((await get(`/playlists/${p.id}`, null)).body).toEqual({
      error: { status: 401, message: "No token provided" },
    });
    expect((await get(`/playlists/${p.id}`, "nonsense")).body).toEqual({
      error: { status: 401, message: "Invalid access token" },
    });
    const t = await token(
      { grant_type: "client_credentials" },
      basic(SPOTIFY_FAKE_CLIENT.id, SPOTIFY_FAKE_CLIENT.secret),
    );
    expect((await get(`/playlists/${p.id}`, t.body.access_token as string)).status).toBe(200);
    clock += 3600_000;
    try {
      const expired = await get(`/playlists/${p.id}`, t.body.access_token as string);
      expect(expired).toMatchObject({ status: 401, body: fixture("error-401-expired.json") });
    } finally {
      clock -= 3600_000;
    }
  });

  it("last as long as set, and all end at once when told", async () => {
    const fake = spotifyFake(emu.state);
    const control = (path: string) =>
      fetch(`${emu.url}/_emulator/services/spotify/${path}`, { method: "POST" });
    expect((await control("token-lifetime?seconds=5")).status).toBe(200);
    try {
      const t = await token(
        { grant_type: "client_credentials" },
        basic(SPOTIFY_FAKE_CLIENT.id, SPOTIFY_FAKE_CLIENT.secret),
      );
      expect(t.body.expires_in).toBe(5);
      const other = await token(
        { grant_type: "client_credentials" },
        basic(SPOTIFY_FAKE_CLIENT.id, SPOTIFY_FAKE_CLIENT.secret),
      );
      await control("expire-tokens");
      expect((await get("/playlists/" + longest().id, other.body.access_token as string)).status).toBe(401);
    } finally {
      fake.accounts.tokenLifetimeSeconds = 3600;
      const t = await token(
        { grant_type: "client_credentials" },
        basic(SPOTIFY_FAKE_CLIENT.id, SPOTIFY_FAKE_CLIENT.secret),
      );
      appToken = t.body.access_token as string;
    }
  });
});

describe("playlists", () => {
  it("come with their first 100 rows and a next page; the rows page by offset and limit up to 100", async () => {
    const p = longest();
    const r = await get(`/playlists/${p.id}`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(Object.keys(fixture("playlist.json")).sort());
    expect(r.body.tracks).toMatchObject({ total: 500, limit: 100, offset: 0 });
    expect(r.body.tracks.items).toHaveLength(100);
    const seen = [...r.body.tracks.items];
    let next: string | null = r.body.tracks.next;
    for (let i = 0; next && i < 10; i++) {
      const page = await get(next);
      seen.push(...page.body.items);
      next = page.body.next;
    }
    expect(seen).toHaveLength(500);
    const small = await get(`/playlists/${p.id}/tracks?offset=490&limit=7`);
    expect(small.body).toMatchObject({ offset: 490, limit: 7, total: 500 });
    expect(small.body.items).toHaveLength(7);
    expect(small.body.next).toContain("offset=497");
    expect((await get(`/playlists/${p.id}/tracks?limit=101`)).body).toEqual({
      error: { status: 400, message: "Invalid limit" },
    });
  });

  it("hold local files without an id and removed tracks as null, the rest catalogue songs, lookalikes and tracks the catalogue lacks", async () => {
    const p = longest();
    const rows: Answer[] = [];
    for (let offset = 0; offset < 500; offset += 100)
      rows.push(...(await get(`/playlists/${p.id}/tracks?offset=${offset}`)).body.items);
    const local = rows.filter((r) => r.is_local);
    expect(local).toHaveLength(3);
    for (const l of local)
      expect(l.track).toMatchObject({
        id: null,
        is_local: true,
        uri: expect.stringMatching(/^spotify:local:/),
      });
    expect(rows.filter((r) => r.track === null)).toHaveLength(2);
    const tracks = rows.filter((r) => r.track && !r.is_local).map((r) => r.track);
    expect(Object.keys(tracks[0]).sort()).toEqual(
      Object.keys(fixture("playlist-tracks.json").items[0].track).sort(),
    );
    const withIsrc = tracks.filter((t) => typeof t.external_ids.isrc === "string").length / tracks.length;
    expect(withIsrc).toBeGreaterThan(0.6);
    expect(withIsrc).toBeLessThan(0.8);
    expect(tracks.some((t) => t.external_ids.isrc === null)).toBe(true);
    expect(tracks.some((t) => !("isrc" in t.external_ids))).toBe(true);

    const truth = spotifyTruth(emu.state, p.id);
    expect(truth).toHaveLength(500);
    const kinds = new Map<string, number>();
    for (const t of truth) kinds.set(t?.kind ?? "removed", (kinds.get(t?.kind ?? "removed") ?? 0) + 1);
    expect(kinds.get("invented")! / 500).toBeGreaterThan(0.05);
    expect(kinds.get("invented")! / 500).toBeLessThan(0.1);
    expect(kinds.get("variant")).toBeGreaterThan(0);
    // Each known track's ISRC, when given, is its catalogue song's.
    const isrcOf = emu.state.store.db.$client.prepare("SELECT isrc FROM songs WHERE video_id = ?").pluck();
    for (const t of truth) if (t?.videoId && t.isrc) expect(isrcOf.get(t.videoId)).toBe(t.isrc);
    for (const t of truth) if (t?.kind === "invented") expect(t.videoId).toBeNull();
  });

  it("of Spotify's own (editorial, algorithmic) answer 404; an unknown id 404, a malformed one 400", async () => {
    for (const id of EDITORIAL_PLAYLIST_IDS) {
      expect(await get(`/playlists/${id}`)).toMatchObject({
        status: 404,
        body: { error: { status: 404, message: "Resource not found" } },
      });
    }
    expect((await get("/playlists/0000000000000000000000")).status).toBe(404);
    expect((await get("/playlists/not-an-id")).body).toEqual({
      error: { status: 400, message: "Invalid base62 id" },
    });
  });

  it("change through the controls: 10 songs added, one removed, the snapshot id new", async () => {
    const listed = (await (await fetch(`${emu.url}/_emulator/services/spotify/playlists`)).json()) as {
      playlists: { id: string; length: number }[];
    };
    expect(listed.playlists.map((x) => x.length)).toEqual([500, 140, 61, 23, 0]);
    const p = spotifyFake(emu.state).playlists()[3]!;
    expect(listed.playlists[3]!.id).toBe(p.id);
    const before = await get(`/playlists/${p.id}`);
    const added = await fetch(`${emu.url}/_emulator/services/spotify/playlists/${p.id}/add?count=10`, {
      method: "POST",
    });
    expect(((await added.json()) as { added: string[] }).added).toHaveLength(10);
    await fetch(`${emu.url}/_emulator/services/spotify/playlists/${p.id}/remove?positions=0`, {
      method: "POST",
    });
    const after = await get(`/playlists/${p.id}`);
    expect(after.body.tracks.total).toBe(before.body.tracks.total + 9);
    expect(after.body.tracks.items[0].track.id).toBe(before.body.tracks.items[1].track.id);
    expect(after.body.snapshot_id).not.toBe(before.body.snapshot_id);
  });
});

describe("the person's library", () => {
  it("needs a person's token with the scope: an app's gets 401, a token without the scope 403", async () => {
    expect((await get("/me/tracks")).body).toEqual({
      error: { status: 401, message: "Valid user authentication required" },
    });
    const { code, verifier } = await signIn("user-library-read");
    const t = (await exchange(code, verifier)).body.access_token as string;
    expect((await get("/me/following?type=artist", t)).body).toEqual({
      error: { status: 403, message: "Insufficient client scope" },
    });
    expect((await get("/me", t)).body).toMatchObject({ type: "user", id: expect.any(String) });
  });

  it("pages liked songs and saved albums up to 50 and followed artists by cursor", async () => {
    const { code, verifier } = await signIn();
    const t = (await exchange(code, verifier)).body.access_token as string;
    const liked = await get("/me/tracks?limit=50", t);
    expect(liked.body).toMatchObject({ limit: 50, offset: 0, total: 230 });
    expect(liked.body.items[0]).toMatchObject({ added_at: expect.any(String), track: { type: "track" } });
    expect((await get("/me/tracks?limit=51", t)).status).toBe(400);
    const albums = await get("/me/albums", t);
    expect(albums.body.limit).toBe(20);
    expect(albums.body.items[0].album).toMatchObject({ type: "album", release_date: expect.any(String) });
    const names: string[] = [];
    let page = (await get("/me/following?type=artist&limit=50", t)).body.artists;
    expect(Object.keys(page).sort()).toEqual(Object.keys(fixture("following.json").artists).sort());
    names.push(...page.items.map((a: { id: string }) => a.id));
    expect(page.cursors.after).toBe(names.at(-1));
    for (let i = 0; page.next && i < 5; i++) {
      page = (await get(page.next, t)).body.artists;
      names.push(...page.items.map((a: { id: string }) => a.id));
    }
    expect(names).toHaveLength(page.total);
    expect(new Set(names).size).toBe(names.length);
    expect(page.cursors.after).toBeNull();
    expect((await get("/me/following?type=user", t)).status).toBe(400);
  });
});

describe("the saved albums and followed artists", () => {
  const control = async (path: string) => {
    const res = await fetch(`${emu.url}/_emulator/services/spotify/${path}`, { method: "POST" });
    return { status: res.status, body: (await res.json()) as Answer };
  };
  const catalogueAlbum = (browseId: string) =>
    emu.state.store.db.$client
      .prepare(
        "SELECT al.title, ar.name FROM albums al JOIN artists ar ON ar.id = al.artist_id WHERE browse_id = ?",
      )
      .get(browseId) as { title: string; name: string } | undefined;

  it("are described the Spotify way, editions and all, with what each stands for in the catalogue", async () => {
    const { code, verifier } = await signIn();
    const t = (await exchange(code, verifier)).body.access_token as string;
    const albums: Answer[] = [];
    const byTitle = emu.state.store.db.$client.prepare(
      "SELECT 1 FROM albums al JOIN artists ar ON ar.id = al.artist_id WHERE ar.name = ? AND al.title = ?",
    );
    for (let url: string | null = "/me/albums?limit=50", i = 0; url && i < 5; i++) {
      const page: Answer = (await get(url, t)).body;
      albums.push(...page.items.map((x: Answer) => x.album));
      url = page.next;
    }
    const truth = spotifyAlbumTruth(emu.state);
    expect(truth.map((x) => x.serviceId)).toEqual(albums.map((a) => `spotify:album:${a.id}`));
    const precisions = new Set(albums.map((a) => a.release_date_precision));
    expect([...precisions].every((p) => ["year", "month", "day"].includes(p))).toBe(true);
    for (const [i, a] of albums.entries()) {
      expect(a.release_date).toMatch(
        { year: /^\d{4}$/, month: /^\d{4}-\d\d$/, day: /^\d{4}-\d\d-\d\d$/ }[
          a.release_date_precision as "day"
        ],
      );
      const answer = truth[i]!.answer;
      if (answer === null) {
        // An album the catalogue lacks: none of its artist's albums has its title, editions aside.
        const plain = a.name.replace(/ \([^)]*\)$/, "");
        expect(byTitle.get(a.artists[0].name, plain)).toBeUndefined();
        continue;
      }
      // The catalogue's album, under its own title: Spotify's edition note is the only difference.
      const known = catalogueAlbum(answer)!;
      expect(a.artists.map((x: Answer) => x.name)).toEqual([known.name]);
      expect(a.name.startsWith(known.title)).toBe(true);
      expect(a.name.slice(known.title.length)).toMatch(
        /^$|^ \((Deluxe( Edition)?|Expanded Edition|25th Anniversary Edition|\d{4} Remaster|Remastered)\)$/,
      );
      if (a.album_type === "single") expect(a.total_tracks).toBeGreaterThanOrEqual(4);
    }
    expect(truth.some((x) => x.answer === null)).toBe(true);

    const artists = spotifyArtistTruth(emu.state);
    expect(artists).toHaveLength(70);
    const channels = emu.state.store.db.$client.prepare("SELECT name FROM artists WHERE channel_id = ?");
    for (const a of artists) {
      if (a.answer !== null) expect(channels.get(a.answer)).toEqual({ name: a.name });
      else expect(channels.get(a.name)).toBeUndefined();
    }
    expect(artists.some((a) => a.answer === null)).toBe(true);
  });

  it("change through the controls: an album saved (listed first) and unsaved, an artist followed and unfollowed", async () => {
    const { code, verifier } = await signIn();
    const t = (await exchange(code, verifier)).body.access_token as string;
    const before = (await get("/me/albums", t)).body.total as number;
    const saved = (await control("albums/save?count=2")).body.saved as { serviceId: string }[];
    expect(saved).toHaveLength(2);
    const first = (await get("/me/albums?limit=2", t)).body;
    expect(first.total).toBe(before + 2);
    expect(first.items.map((x: Answer) => `spotify:album:${x.album.id}`)).toEqual(
      saved.map((x) => x.serviceId),
    );
    const id = saved[0]!.serviceId.split(":")[2]!;
    expect((await control(`albums/${id}/unsave`)).status).toBe(200);
    expect((await control(`albums/${id}/unsave`)).status).toBe(404);
    expect((await get("/me/albums", t)).body.total).toBe(before + 1);
    expect((await control("albums/save?count=0")).status).toBe(400);

    const followed = (await control("artists/follow")).body.followed as { serviceId: string }[];
    expect(followed).toHaveLength(1);
    const all = (await get("/me/following?type=artist&limit=50", t)).body.artists;
    expect(all.total).toBe(71);
    const artistId = followed[0]!.serviceId.split(":")[2]!;
    expect((await control(`artists/${artistId}/unfollow`)).status).toBe(200);
    expect((await get("/me/following?type=artist", t)).body.artists.total).toBe(70);
  });
});

describe("faults", () => {
  it("answer 429 with Retry-After, 500 and 503 in Spotify's shape", async () => {
    const p = longest();
    emu.state.faults.enqueue([
      { kind: "rate-limit", endpoint: "spotify/playlists", retryAfter: 7 },
      { kind: "server-error", endpoint: "spotify/playlists" },
      { kind: "unavailable", endpoint: "spotify/playlists" },
    ]);
    const limited = await get(`/playlists/${p.id}`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(limited.body).toEqual({ error: { status: 429, message: "API rate limit exceeded" } });
    expect((await get(`/playlists/${p.id}`)).body).toEqual({
      error: { status: 500, message: "Server error." },
    });
    expect((await get(`/playlists/${p.id}`)).status).toBe(503);
    expect((await get(`/playlists/${p.id}`)).status).toBe(200);
  });

  it("cut a page short: half its rows and no next, its total unchanged", async () => {
    const p = longest();
    emu.state.faults.enqueue([{ kind: "truncate", endpoint: "spotify/playlists" }]);
    const cut = await get(`/playlists/${p.id}/tracks`);
    expect(cut.body).toMatchObject({ total: 500, next: null });
    expect(cut.body.items).toHaveLength(50);
  });
});

describe("generation", () => {
  it("is the same for the same seed and catalogue", async () => {
    const other = await startEmulator({ catalogueSize: 400, seed: 5 });
    try {
      const a = spotifyTruth(emu.state, null);
      const b = spotifyTruth(other.state, null);
      expect(b).toEqual(a);
      expect(
        spotifyFake(other.state)
          .playlists()
          .map((p) => p.id),
      ).toEqual(
        spotifyFake(emu.state)
          .playlists()
          .map((p) => p.id),
      );
    } finally {
      await other.stop();
    }
  });
});
