import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator/index.js";
import { lastfmKey, lastfmTruth } from "../../../emulator/services/lastfm/index.js";

let emu: RunningEmulator;
let key: string;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 300, seed: 12, now: () => Date.UTC(2026, 10, 25, 15, 0, 0) });
  key = lastfmKey(emu.state);
});
afterAll(async () => {
  await emu?.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: the tests walk the fake's raw JSON by the service's field names
type Json = Record<string, any>;

async function lfm(params: Record<string, string>, init: { post?: boolean; fault?: string } = {}) {
  const q = new URLSearchParams({ api_key: key, format: "json", ...params });
  const headers: Record<string, string> = init.fault ? { "x-emulator-fault": init.fault } : {};
  const r = init.post
    ? await fetch(`${emu.url}/lastfm/2.0/`, { method: "POST", body: q.toString(), headers })
    : await fetch(`${emu.url}/lastfm/2.0/?${q}`, { headers });
  return { status: r.status, headers: r.headers, json: (await r.json()) as Json };
}

const list = (root: Json) => (Array.isArray(root.track) ? root.track : [root.track]) as Json[];

describe("Last.fm fake: the three lists", () => {
  it("pages loved tracks with @attr facts as strings, artist names and mbid '' where unknown", async () => {
    const a = await lfm({ method: "user.getLovedTracks", user: "scrobbler", limit: "50", page: "3" });
    expect(a.json.lovedtracks["@attr"]).toEqual({
      user: "scrobbler",
      totalPages: "3",
      page: "3",
      perPage: "50",
      total: "130",
    });
    const rows = list(a.json.lovedtracks);
    expect(rows).toHaveLength(30);
    expect(rows.every((t) => typeof t.name === "string" && typeof t.artist.name === "string")).toBe(true);
    expect(rows.every((t) => typeof t.date.uts === "string" && typeof t.date["#text"] === "string")).toBe(
      true,
    );
    const all = list(
      (await lfm({ method: "user.getlovedtracks", user: "scrobbler", limit: "1000" })).json.lovedtracks,
    );
    expect(all.some((t) => t.mbid === "")).toBe(true);
    expect(all.some((t) => /^[0-9a-f-]{36}$/.test(t.mbid))).toBe(true);
  });

  it("gives top tracks per period with ranks, durations in seconds as strings and '0' when unknown", async () => {
    const r = await lfm({ method: "user.gettoptracks", user: "scrobbler", period: "overall", limit: "1000" });
    const rows = list(r.json.toptracks);
    expect(rows).toHaveLength(380);
    expect(rows.map((t) => t["@attr"].rank).slice(0, 3)).toEqual(["1", "2", "3"]);
    expect(rows.every((t) => /^\d+$/.test(t.duration))).toBe(true);
    expect(rows.some((t) => t.duration === "0")).toBe(true);
    const plays = rows.map((t) => Number(t.playcount));
    expect(plays).toEqual([...plays].sort((x, y) => y - x));
    expect(
      list(
        (await lfm({ method: "user.gettoptracks", user: "scrobbler", period: "7day", limit: "1000" })).json
          .toptracks,
      ),
    ).toHaveLength(35);
    expect(
      (await lfm({ method: "user.gettoptracks", user: "scrobbler", period: "fortnight" })).json.error,
    ).toBe(6);
  });

  it("puts what plays now on top of recent tracks' first page, flagged and undated, beyond the limit", async () => {
    const r = await lfm({ method: "user.getrecenttracks", user: "scrobbler", limit: "10" });
    const rows = list(r.json.recenttracks);
    expect(rows).toHaveLength(11);
    expect(rows[0]!["@attr"]).toEqual({ nowplaying: "true" });
    expect(rows[0]!.date).toBeUndefined();
    expect(rows.slice(1).every((t) => t.date && t["@attr"] === undefined)).toBe(true);
    expect(r.json.recenttracks["@attr"].total).toBe("260");
    expect(rows[1]!.artist["#text"]).toEqual(expect.any(String));
    expect(rows[1]!.album).toEqual({ mbid: expect.any(String), "#text": expect.any(String) });
    const page2 = list(
      (await lfm({ method: "user.getrecenttracks", user: "scrobbler", limit: "10", page: "2" })).json
        .recenttracks,
    );
    expect(page2).toHaveLength(10);
  });

  it("writes a page of one track as the object itself", async () => {
    const r = await lfm({ method: "user.getlovedtracks", user: "scrobbler", limit: "1" });
    expect(Array.isArray(r.json.lovedtracks.track)).toBe(false);
    expect(typeof r.json.lovedtracks.track.name).toBe("string");
  });

  it("answers POST forms as GET queries", async () => {
    const a = await lfm({ method: "user.getlovedtracks", user: "scrobbler", limit: "5" }, { post: true });
    const b = await lfm({ method: "user.getlovedtracks", user: "scrobbler", limit: "5" });
    expect(a.json).toEqual(b.json);
  });

  it("stands each track for a catalogue song, or for none", async () => {
    const truth = lastfmTruth(emu.state);
    const rows = list(
      (await lfm({ method: "user.getlovedtracks", user: "scrobbler", limit: "1000" })).json.lovedtracks,
    );
    let none = 0;
    for (const t of rows) {
      const [artist, title] = String(t.url).slice("https://www.last.fm/music/".length).split("/_/");
      const v = truth.get(`lastfm:track:${artist}/${title}`);
      expect(v).not.toBeUndefined();
      if (v === null) none++;
      else expect(emu.state.store.catalogue.song(v!)?.title).toBeDefined();
    }
    expect(none).toBeGreaterThan(0);
    expect(none / rows.length).toBeLessThan(0.15);
  });
});

describe("Last.fm fake: errors in Last.fm's codes and statuses", () => {
  it("refuses a bad key (10, 403), an unknown user (6, 404), hidden listening (17, 403), an unknown method (3)", async () => {
    expect(
      await lfm({ method: "user.getlovedtracks", user: "scrobbler", api_key: "0".repeat(32) }),
    ).toMatchObject({
      status: 403,
      json: { error: 10 },
    });
    expect(await lfm({ method: "user.getlovedtracks", user: "ghost" })).toMatchObject({
      status: 404,
      json: { error: 6, message: "User not found" },
    });
    expect(await lfm({ method: "user.getrecenttracks", user: "private-scrobbler" })).toMatchObject({
      status: 403,
      json: { error: 17 },
    });
    expect((await lfm({ method: "user.getnothing", user: "scrobbler" })).json.error).toBe(3);
    expect((await lfm({ method: "user.getlovedtracks" })).json.error).toBe(6);
  });

  it("answers faults as Last.fm does: 29 with 429, 8 with 500, 11 with 503, 8 inside a 200", async () => {
    const p = { method: "user.getlovedtracks", user: "scrobbler" };
    const limited = await lfm(p, { fault: "429;retry-after=4" });
    expect([limited.status, limited.json.error, limited.headers.get("retry-after")]).toEqual([429, 29, "4"]);
    expect((await lfm(p, { fault: "500" })).json.error).toBe(8);
    expect((await lfm(p, { fault: "503" })).json.error).toBe(11);
    expect(await lfm(p, { fault: "failed" })).toMatchObject({ status: 200, json: { error: 8 } });
  });

  it("loves songs and switches what plays now through the control routes", async () => {
    const fresh = await startEmulator({ catalogueSize: 300, seed: 12 });
    try {
      const k = lastfmKey(fresh.state);
      const loved = async () =>
        (
          (await (
            await fetch(
              `${fresh.url}/lastfm/2.0/?method=user.getlovedtracks&user=scrobbler&limit=1000&format=json&api_key=${k}`,
            )
          ).json()) as Json
        ).lovedtracks;
      const before = list(await loved());
      const post = (path: string, body: unknown) =>
        fetch(`${fresh.url}/_emulator/services/lastfm/users/scrobbler/${path}`, {
          method: "POST",
          body: JSON.stringify(body),
        });
      expect(((await (await post("loved", { add: 10, remove: [0] })).json()) as Json).loved).toBe(139);
      const after = list(await loved());
      expect(after.slice(10).map((t) => t.url)).toEqual(before.slice(1).map((t) => t.url));
      await post("now-playing", { playing: false });
      const recent = (await (
        await fetch(
          `${fresh.url}/lastfm/2.0/?method=user.getrecenttracks&user=scrobbler&limit=5&format=json&api_key=${k}`,
        )
      ).json()) as Json;
      expect(list(recent.recenttracks)).toHaveLength(5);
    } finally {
      await fresh.stop();
    }
  });
});
