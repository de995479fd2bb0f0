import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator/index.js";
import { listenbrainzTruth, listenbrainzUsers } from "../../../emulator/services/listenbrainz/index.js";

let emu: RunningEmulator;
/** A Wednesday, so that the week's Monday and the day differ. */
const NOW = Date.UTC(2026, 10, 25, 15, 0, 0);

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 300, seed: 11, now: () => NOW });
});
afterAll(async () => {
  await emu?.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: the tests walk the fake's raw JSON by the service's field names
type Json = Record<string, any>;

async function lb(path: string, headers: Record<string, string> = {}) {
  const r = await fetch(`${emu.url}/listenbrainz/1/${path}`, { headers });
  const text = await r.text();
  return { status: r.status, headers: r.headers, json: (text ? JSON.parse(text) : null) as Json };
}

async function control(path: string, body?: unknown) {
  const r = await fetch(`${emu.url}/_emulator/services/listenbrainz/${path}`, {
    method: body === undefined ? "GET" : "POST",
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, json: (await r.json()) as Json };
}

const EXT = "https://musicbrainz.org/doc/jspf#playlist";
const TRACK_EXT = "https://musicbrainz.org/doc/jspf#track";
const idOf = (p: Json) => String(p.playlist.identifier).split("/").pop()!;
const token = (name: string) => listenbrainzUsers(emu.state).find((u) => u.name === name)!.token;

describe("ListenBrainz fake: playlists made for a user", () => {
  it("keeps several periods of each series, titled and tagged as ListenBrainz does, newest first", async () => {
    const r = await lb("user/listener/playlists/createdfor?count=100");
    expect(r.status).toBe(200);
    expect(r.json.playlist_count).toBe(4 + 4 + 7);
    const all = r.json.playlists as Json[];
    const patches = all.map(
      (p) => p.playlist.extension[EXT].additional_metadata.algorithm_metadata.source_patch,
    );
    expect(new Set(patches)).toEqual(new Set(["weekly-jams", "weekly-exploration", "daily-jams"]));
    const exploration = all
      .filter((_, i) => patches[i] === "weekly-exploration")
      .map((p) => p.playlist.title);
    expect(exploration[0]).toBe("Weekly Exploration for listener, week of 2026-11-23 Mon");
    expect(exploration[3]).toBe("Weekly Exploration for listener, week of 2026-11-02 Mon");
    expect(all.find((p) => p.playlist.title.startsWith("Daily Jams"))!.playlist.title).toBe(
      "Daily Jams for listener, 2026-11-25 Wed",
    );
    const dates = all.map((p) => p.playlist.date as string);
    expect(dates).toEqual([...dates].sort().reverse());
    // Listings carry playlists without their tracks.
    expect(all.every((p) => Array.isArray(p.playlist.track) && p.playlist.track.length === 0)).toBe(true);
    expect(all[0]!.playlist.extension[EXT]).toMatchObject({ created_for: "listener", public: true });
  });

  it("pages by count and offset, saying the whole count", async () => {
    const a = await lb("user/listener/playlists/createdfor?count=4&offset=0");
    const b = await lb("user/listener/playlists/createdfor?count=4&offset=12");
    expect([a.json.count, a.json.offset, a.json.playlist_count]).toEqual([4, 0, 15]);
    expect([b.json.count, b.json.playlists.length]).toEqual([3, 3]);
    expect(idOf(a.json.playlists[0])).not.toBe(idOf(b.json.playlists[0]));
    expect((await lb("user/listener/playlists/createdfor?count=x")).json).toEqual({
      code: 400,
      error: "Invalid count argument: x",
    });
  });

  it("moves a series on: a new Weekly Exploration becomes the newest, the old ones stay", async () => {
    const fresh = await startEmulator({ catalogueSize: 300, seed: 11, now: () => NOW });
    try {
      const before = (await (
        await fetch(`${fresh.url}/listenbrainz/1/user/listener/playlists/createdfor`)
      ).json()) as Json;
      const moved = await fetch(`${fresh.url}/_emulator/services/listenbrainz/users/listener/next`, {
        method: "POST",
        body: JSON.stringify({ series: "weekly-exploration" }),
      });
      const made = (await moved.json()) as Json;
      expect(made.title).toBe("Weekly Exploration for listener, week of 2026-11-30 Mon");
      const after = (await (
        await fetch(`${fresh.url}/listenbrainz/1/user/listener/playlists/createdfor`)
      ).json()) as Json;
      expect(after.playlist_count).toBe(before.playlist_count + 1);
    } finally {
      await fresh.stop();
    }
  });
});

describe("ListenBrainz fake: one playlist in JSPF", () => {
  it("gives each track the recording URI, artist credit, release, duration in ms and the MusicBrainz extension", async () => {
    const list = await lb("user/listener/playlists/createdfor?count=100");
    const jams = list.json.playlists.find((p: Json) => p.playlist.title.startsWith("Weekly Jams"));
    const r = await lb(`playlist/${idOf(jams)}`);
    expect(r.status).toBe(200);
    const tracks = r.json.playlist.track as Json[];
    expect(tracks).toHaveLength(50);
    for (const t of tracks) {
      expect(t.identifier).toEqual([
        expect.stringMatching(/^https:\/\/musicbrainz\.org\/recording\/[0-9a-f-]{36}$/),
      ]);
      expect(typeof t.title).toBe("string");
      expect(typeof t.creator).toBe("string");
      if (t.duration !== undefined) expect(Number.isInteger(t.duration) && t.duration > 1000).toBe(true);
      const ext = t.extension[TRACK_EXT];
      expect(ext.artist_identifiers.length).toBe(ext.additional_metadata.artists.length);
      expect(t.creator).toBe(
        ext.additional_metadata.artists.map((a: Json) => a.artist_credit_name + a.join_phrase).join(""),
      );
    }
  });

  it("writes the oldest weekly playlist's identifiers as strings, as older JSPF did", async () => {
    const list = await lb("user/listener/playlists/createdfor?count=100");
    const jams = list.json.playlists.filter((p: Json) => p.playlist.title.startsWith("Weekly Jams"));
    const oldest = await lb(`playlist/${idOf(jams.at(-1))}`);
    expect(typeof oldest.json.playlist.track[0].identifier).toBe("string");
  });

  it("stands each track for a catalogue song, or for none about one time in fifteen", async () => {
    const truth = listenbrainzTruth(emu.state);
    const list = await lb("user/listener/playlists/createdfor?count=100");
    let none = 0;
    let all = 0;
    for (const p of list.json.playlists as Json[]) {
      const r = await lb(`playlist/${idOf(p)}`);
      for (const t of r.json.playlist.track as Json[]) {
        const uri = Array.isArray(t.identifier) ? t.identifier[0] : t.identifier;
        const key = `musicbrainz:recording:${String(uri).split("/").pop()}`;
        expect(truth.has(key)).toBe(true);
        const videoId = truth.get(key);
        all++;
        if (videoId === null) none++;
        else expect(emu.state.store.catalogue.song(videoId!)).not.toBeNull();
      }
    }
    expect(none / all).toBeGreaterThan(0.02);
    expect(none / all).toBeLessThan(0.12);
  });

  it("shows a private playlist to its owner's token only; refuses a bad token and a bad id", async () => {
    const own = await lb("user/listener/playlists", { authorization: `Token ${token("listener")}` });
    expect(own.json.playlist_count).toBe(3);
    const hidden = (own.json.playlists as Json[]).find((p) => p.playlist.extension[EXT].public === false)!;
    expect((await lb("user/listener/playlists")).json.playlist_count).toBe(2);
    expect((await lb(`playlist/${idOf(hidden)}`)).status).toBe(404);
    expect(
      (await lb(`playlist/${idOf(hidden)}`, { authorization: `Token ${token("newcomer")}` })).status,
    ).toBe(404);
    const mine = await lb(`playlist/${idOf(hidden)}`, { authorization: `Token ${token("listener")}` });
    expect(mine.json.playlist.track).toHaveLength(40);
    expect(await lb("user/listener/playlists", { authorization: "Token nope" })).toMatchObject({
      status: 401,
      json: { code: 401, error: "Invalid authorization token." },
    });
    expect((await lb("playlist/not-a-uuid")).json).toEqual({
      code: 400,
      error: "Provided playlist ID is invalid.",
    });
    expect((await lb("user/nobody/playlists/createdfor")).json).toEqual({
      code: 404,
      error: "Cannot find user: nobody",
    });
    // A broken escape names no user; it is not a server error.
    expect((await lb("user/%E0%A4%A/playlists")).status).toBe(404);
  });

  it("edits a playlist through the control route: ten songs added, one removed", async () => {
    const own = await lb("user/listener/playlists");
    const road = (own.json.playlists as Json[]).find((p) => p.playlist.title === "Road Trip")!;
    const before = (await lb(`playlist/${idOf(road)}`)).json.playlist.track as Json[];
    const edit = await control(`playlists/${idOf(road)}`, { add: 10, remove: [3] });
    expect(edit.json.length).toBe(before.length + 9);
    const after = (await lb(`playlist/${idOf(road)}`)).json.playlist.track as Json[];
    expect(after).toHaveLength(before.length + 9);
    expect(after[3]).toEqual(before[4]);
    expect(after.slice(0, before.length - 1)).toEqual([...before.slice(0, 3), ...before.slice(4)]);
    expect((await control(`playlists/${idOf(road)}`, { remove: [999] })).status).toBe(400);
  });
});

describe("ListenBrainz fake: top recordings", () => {
  it("pages a range with its total, most listened first; MBIDs absent on unmapped listens", async () => {
    const r = await lb("stats/user/listener/recordings?range=month&count=50&offset=100");
    const p = r.json.payload;
    expect([p.count, p.offset, p.total_recording_count, p.range]).toEqual([20, 100, 120, "month"]);
    const whole = (await lb("stats/user/listener/recordings?range=all_time&count=1000")).json.payload;
    const all = whole.recordings as Json[];
    expect(all.length).toBe(whole.total_recording_count);
    expect(new Set(all.map((x) => x.recording_mbid ?? x.track_name)).size).toBe(all.length);
    const counts = all.map((x) => x.listen_count as number);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const unmapped = all.filter((x) => x.recording_mbid === undefined);
    expect(unmapped.length).toBeGreaterThan(0);
    expect(unmapped.every((x) => x.artist_mbids === undefined && typeof x.track_name === "string")).toBe(
      true,
    );
  });

  it("answers 204 while statistics are not calculated, 400 for an unknown range", async () => {
    const r = await lb("stats/user/newcomer/recordings?range=week");
    expect([r.status, r.json]).toEqual([204, null]);
    expect((await lb("stats/user/listener/recordings?range=fortnight")).json).toEqual({
      code: 400,
      error: "Invalid range: fortnight",
    });
  });
});

describe("ListenBrainz fake: rate limit and faults", () => {
  it("sends the rate limit's headers, and a 429 past it", async () => {
    const fresh = await startEmulator({ catalogueSize: 300, seed: 11, now: () => NOW });
    try {
      await fetch(`${fresh.url}/_emulator/services/listenbrainz/rate-limit`, {
        method: "POST",
        body: JSON.stringify({ limit: 2, windowSeconds: 7 }),
      });
      const get = () => fetch(`${fresh.url}/listenbrainz/1/user/listener/playlists`);
      const a = await get();
      expect([a.headers.get("x-ratelimit-limit"), a.headers.get("x-ratelimit-remaining")]).toEqual([
        "2",
        "1",
      ]);
      expect(a.headers.get("x-ratelimit-reset-in")).toBe("7");
      expect((await get()).headers.get("x-ratelimit-remaining")).toBe("0");
      const c = await get();
      expect(c.status).toBe(429);
      expect(((await c.json()) as Json).code).toBe(429);
      expect(c.headers.get("x-ratelimit-remaining")).toBe("0");
    } finally {
      await fresh.stop();
    }
  });

  it("answers injected faults in ListenBrainz's error shape", async () => {
    const limited = await lb("user/listener/playlists", { "x-emulator-fault": "429;retry-after=3" });
    expect([limited.status, limited.json.code, limited.headers.get("x-ratelimit-reset-in")]).toEqual([
      429,
      429,
      "3",
    ]);
    expect((await lb("user/listener/playlists", { "x-emulator-fault": "500" })).json.code).toBe(500);
    const down = await lb("user/listener/playlists", { "x-emulator-fault": "503;retry-after=2" });
    expect([down.status, down.headers.get("retry-after")]).toEqual([503, "2"]);
    const cut = await lb("user/listener/playlists/createdfor?count=10", { "x-emulator-fault": "truncate" });
    expect(cut.json.playlists.length).toBeLessThan(cut.json.count);
  });
});
