import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator/index.js";
import { listenbrainzTruth, listenbrainzUsers } from "../../../emulator/services/listenbrainz/index.js";
import { engineScrubber } from "../../../engine/output/scrub.js";
import { ServiceReadError } from "../../../engine/services/http.js";
import { ListenBrainzReader, parsePlaylistId } from "../../../engine/services/listenbrainz/index.js";
import { everyText, failure, fakeClock, hostileServer, postJson } from "./service-fakes.js";

let emu: RunningEmulator;
let clock: ReturnType<typeof fakeClock>;

beforeAll(async () => {
  clock = fakeClock();
  emu = await startEmulator({ catalogueSize: 300, seed: 21, now: () => clock.now() });
});
afterAll(async () => {
  await emu?.stop();
});

const token = (name: string) => listenbrainzUsers(emu.state).find((u) => u.name === name)!.token;

function reader(options: { token?: string; pageSize?: number; base?: string } = {}) {
  return new ListenBrainzReader({
    baseUrl: options.base ?? `${emu.url}/listenbrainz`,
    token: options.token ?? null,
    pageSize: options.pageSize ?? 4,
    http: clock.http,
  });
}

describe("ListenBrainz reader: series", () => {
  it("reads the newest Weekly Exploration, recognised by its source_patch, every track with its MBID", async () => {
    const [newest] = await reader().series("listener", "weekly-exploration", "newest");
    expect(newest!.info.title).toBe("Weekly Exploration for listener, week of 2026-11-23 Mon");
    expect(newest!.info.series).toBe("weekly-exploration");
    expect(newest!.list.entries).toHaveLength(50);
    const truth = listenbrainzTruth(emu.state);
    for (const t of newest!.list.entries) {
      expect(t.serviceId).toBe(`musicbrainz:recording:${t.mbid}`);
      expect(truth.has(t.serviceId)).toBe(true);
      expect(t.artists.length).toBeGreaterThan(0);
    }
    expect(newest!.list.entries.some((t) => t.durationSeconds !== null && t.album !== null)).toBe(true);
    const [byName] = await reader().series("listener", "Weekly Exploration", "newest");
    expect(byName!.info.mbid).toBe(newest!.info.mbid);
  });

  it("reads every archived one, newest first, the oldest's string identifiers too", async () => {
    const all = await reader().series("listener", "weekly-jams", "all");
    expect(all.map((p) => p.info.title.slice(-14))).toEqual([
      "2026-11-23 Mon",
      "2026-11-16 Mon",
      "2026-11-09 Mon",
      "2026-11-02 Mon",
    ]);
    expect(
      all.every((p) => p.list.entries.length === 50 && p.list.entries.every((t) => t.mbid !== null)),
    ).toBe(true);
  });

  it("says a user has no series playlist yet, rather than reading an empty list", async () => {
    const e = await failure(reader().series("newcomer", "daily-jams", "newest"));
    expect(String(e)).toContain("no Daily Jams playlist for newcomer yet");
  });
});

describe("ListenBrainz reader: playlists and statistics", () => {
  it("lists a user's playlists, the private one only with the owner's token", async () => {
    expect((await reader().userPlaylists("listener")).map((p) => p.title).sort()).toEqual([
      "Imported favourites",
      "Road Trip",
    ]);
    const mine = await reader({ token: token("listener") }).userPlaylists("listener");
    expect(mine.map((p) => [p.title, p.public])).toContainEqual(["Late Night", false]);
  });

  it("reads a playlist by MBID or address; a bad id fails before any request", async () => {
    const road = (await reader().userPlaylists("listener")).find((p) => p.title === "Road Trip")!;
    const byId = await reader().playlist(road.mbid);
    const byUrl = await reader().playlist(`https://listenbrainz.org/playlist/${road.mbid.toUpperCase()}/`);
    expect(byId.list.entries).toHaveLength(120);
    expect(byUrl.list.entries).toEqual(byId.list.entries);
    emu.resetCounts();
    for (const bad of ["", "road-trip", `${road.mbid}x`, "https://example.com/playlist/" + road.mbid]) {
      const e = await failure(reader().playlist(bad));
      expect(e).toBeInstanceOf(ServiceReadError);
      expect(String(e)).toContain("is not a ListenBrainz playlist id");
    }
    expect(emu.counts()["listenbrainz/playlist"]).toBeUndefined();
  });

  it("reads a user's own playlist by its title", async () => {
    const road = await reader().playlistTitled("listener", "Road Trip");
    expect(road.list.entries).toHaveLength(120);
    expect(String(await failure(reader().playlistTitled("listener", "Late Night")))).toContain(
      'no playlist titled "Late Night" that this token can see',
    );
    const late = await reader({ token: token("listener") }).playlistTitled("listener", "Late Night");
    expect(late.info.public).toBe(false);
  });

  it("reads a private playlist with its owner's token; says why not without it", async () => {
    const late = (await reader({ token: token("listener") }).userPlaylists("listener")).find(
      (p) => !p.public,
    )!;
    expect((await reader({ token: token("listener") }).playlist(late.mbid)).list.entries).toHaveLength(40);
    const e = await failure(reader().playlist(late.mbid));
    expect([e?.status, String(e)]).toEqual([
      404,
      expect.stringContaining("private and the token is not its owner's"),
    ]);
    const bad = await failure(reader({ token: "0123-not-a-token" }).userPlaylists("listener"));
    expect(bad?.status).toBe(401);
    expect(String(bad)).not.toContain("0123-not-a-token");
  });

  it("reads every page of a user's top recordings, unmapped listens keyed by name", async () => {
    const list = await reader({ pageSize: 30 }).topRecordings("listener", "all_time");
    expect(list.expected).toBeGreaterThan(300);
    expect(list.entries).toHaveLength(list.expected!);
    const unmapped = list.entries.filter((t) => t.mbid === null);
    expect(unmapped.length).toBeGreaterThan(0);
    const truth = listenbrainzTruth(emu.state);
    expect(
      unmapped.every((t) => t.serviceId.startsWith("listenbrainz:listen:") && truth.has(t.serviceId)),
    ).toBe(true);
    expect(new Set(list.entries.map((t) => t.serviceId)).size).toBe(list.expected);
  });

  it("fails on statistics not calculated yet (204), an unknown user and an unknown range", async () => {
    expect((await failure(reader().topRecordings("newcomer", "week")))?.status).toBe(204);
    expect(String(await failure(reader().topRecordings("nobody", "week")))).toContain(
      "no ListenBrainz user named nobody",
    );
    expect(String(await failure(reader().topRecordings("listener", "fortnight")))).toContain("is not one of");
  });
});

describe("ListenBrainz reader: rate limits, failures, reads cut short", () => {
  it("waits out a spent window (X-RateLimit-Remaining 0) before the next request", async () => {
    await postJson(emu.url, "/_emulator/services/listenbrainz/rate-limit", { limit: 2, windowSeconds: 5 });
    try {
      clock.waits.length = 0;
      const made = await reader().createdFor("listener");
      expect(made).toHaveLength(15);
      expect(clock.waits.filter((w) => w >= 5000).length).toBeGreaterThanOrEqual(1);
    } finally {
      await fetch(`${emu.url}/_emulator/services/listenbrainz/rate-limit`, { method: "DELETE" });
    }
  });

  it("waits out a 429 for its X-RateLimit-Reset-In, then reads", async () => {
    await postJson(emu.url, "/_emulator/faults", {
      queue: [{ kind: "rate-limit", endpoint: "listenbrainz/createdfor", retryAfter: 3 }],
    });
    clock.waits.length = 0;
    expect(await reader().createdFor("listener")).toHaveLength(15);
    expect(clock.waits[0]).toBeGreaterThanOrEqual(3000);
  });

  it("tries a failing server a bounded number of times, then throws", async () => {
    await postJson(emu.url, "/_emulator/faults", {
      queue: [{ kind: "server-error", endpoint: "listenbrainz/stats", count: 20 }],
    });
    try {
      const e = await failure(reader().topRecordings("listener", "week"));
      expect(String(e)).toMatch(/HTTP 500 after 5 tries/);
    } finally {
      await fetch(`${emu.url}/_emulator/faults`, { method: "DELETE" });
    }
  });

  it("throws on a listing cut short instead of returning fewer playlists", async () => {
    await postJson(emu.url, "/_emulator/faults", {
      queue: [{ kind: "truncate", endpoint: "listenbrainz/createdfor" }],
    });
    const e = await failure(reader().createdFor("listener"));
    expect(String(e)).toContain("cut short");
    await postJson(emu.url, "/_emulator/faults", {
      queue: [{ kind: "truncate", endpoint: "listenbrainz/stats" }],
    });
    expect(String(await failure(reader({ pageSize: 100 }).topRecordings("listener", "month")))).toContain(
      "cut short",
    );
  });

  it("keeps the token out of every message, cause and JSON, from an echoing body or a redirect", async () => {
    const secret = "5e1f6a0c-token-that-must-never-show";
    let n = 0;
    const hostile = await hostileServer((req, res) => {
      n++;
      if (n === 1) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: 400, error: `bad token ${req.headers.authorization}` }));
      } else {
        res.writeHead(302, { location: `https://evil.invalid/?t=${secret}` });
        res.end(`moved: ${secret}`);
      }
    });
    try {
      const r = reader({ base: hostile.base, token: secret });
      const first = await failure(r.userPlaylists("listener"));
      const second = await failure(r.userPlaylists("listener"));
      for (const e of [first, second]) {
        expect(e).toBeInstanceOf(ServiceReadError);
        expect(everyText(e)).not.toContain(secret);
        expect(everyText(e)).not.toContain("5e1f6a0c");
      }
      expect(String(first)).toContain("[redacted]");
      expect(engineScrubber.value(`said ${secret}`)).not.toContain(secret);
    } finally {
      await hostile.close();
    }
  });
});

describe("parsePlaylistId", () => {
  it("takes a UUID or its listenbrainz.org address, lower-cased", () => {
    const id = "8F5C1D2E-0B1A-4C3D-9E8F-0123456789AB";
    expect(parsePlaylistId(id)).toBe(id.toLowerCase());
    expect(parsePlaylistId(`https://listenbrainz.org/playlist/${id}`)).toBe(id.toLowerCase());
  });
});
