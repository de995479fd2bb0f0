import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator/index.js";
import { lastfmKey, lastfmTruth } from "../../../emulator/services/lastfm/index.js";
import { engineScrubber } from "../../../engine/output/scrub.js";
import { ServiceReadError } from "../../../engine/services/http.js";
import { LastfmReader } from "../../../engine/services/lastfm/index.js";
import { everyText, failure, fakeClock, hostileServer, postJson } from "./service-fakes.js";

let emu: RunningEmulator;
let clock: ReturnType<typeof fakeClock>;

beforeAll(async () => {
  clock = fakeClock();
  emu = await startEmulator({ catalogueSize: 300, seed: 22, now: () => clock.now() });
});
afterAll(async () => {
  await emu?.stop();
});

function reader(options: { key?: string; pageSize?: number; base?: string } = {}) {
  return new LastfmReader({
    apiKey: options.key ?? lastfmKey(emu.state),
    baseUrl: options.base ?? `${emu.url}/lastfm/2.0/`,
    pageSize: options.pageSize ?? 40,
    http: clock.http,
  });
}

describe("Last.fm reader: the three lists", () => {
  it("reads every page of loved tracks, keyed by their last.fm address, mbid '' read as none", async () => {
    const list = await reader().lovedTracks("scrobbler");
    expect(list.expected).toBe(130);
    expect(list.entries).toHaveLength(130);
    const truth = lastfmTruth(emu.state);
    expect(list.entries.every((t) => truth.has(t.serviceId))).toBe(true);
    expect(list.entries.some((t) => t.mbid === null)).toBe(true);
    expect(list.entries.some((t) => t.mbid !== null)).toBe(true);
    expect(
      list.entries.every((t) => t.artists.length === 1 && t.album === null && t.durationSeconds === null),
    ).toBe(true);
    // 130 rows at 40 a page: four requests.
    expect(emu.counts().lastfm).toBeGreaterThanOrEqual(4);
  });

  it("reads top tracks for a period, a duration of '0' as unknown", async () => {
    const list = await reader().topTracks("scrobbler", "12month");
    expect(list.entries).toHaveLength(list.expected!);
    expect(list.entries.some((t) => t.durationSeconds === null)).toBe(true);
    expect(list.entries.filter((t) => t.durationSeconds !== null).every((t) => t.durationSeconds! > 60)).toBe(
      true,
    );
    expect(String(await failure(reader().topTracks("scrobbler", "fortnight")))).toContain("is not one of");
  });

  it("leaves what plays now out of recent tracks, counting it as skipped; albums from '#text'", async () => {
    const list = await reader().recentTracks("scrobbler");
    expect(list.entries).toHaveLength(list.expected!);
    expect(list.skipped).toEqual([{ reason: "playing now, not a listen yet", count: 1 }]);
    expect(list.entries.filter((t) => t.album !== null).length).toBeGreaterThan(list.entries.length / 2);
  });

  it("reads recent tracks since a time only", async () => {
    const all = await reader().recentTracks("scrobbler");
    const since = Math.floor(clock.now() / 1000) - 3_600;
    const recent = await reader().recentTracks("scrobbler", { from: since });
    expect(recent.entries.length).toBeGreaterThan(0);
    expect(recent.entries.length).toBeLessThan(all.entries.length);
    expect(recent.entries).toEqual(all.entries.slice(0, recent.entries.length));
  });

  it("reads a list whose page holds one track, written bare", async () => {
    const list = await reader({ pageSize: 1 }).topTracks("scrobbler", "7day");
    expect(list.entries).toHaveLength(list.expected!);
  });
});

describe("Last.fm reader: errors, limits, cut-short reads", () => {
  it("says which: an unknown user, hidden listening, a refused key", async () => {
    const ghost = await failure(reader().lovedTracks("ghost"));
    expect([ghost?.status, String(ghost)]).toEqual([
      404,
      expect.stringContaining("no Last.fm user named ghost"),
    ]);
    expect(String(await failure(reader().recentTracks("private-scrobbler")))).toContain(
      "hides their listening",
    );
    const badKey = "0123456789abcdef0123456789abcdef";
    const refused = await failure(reader({ key: badKey }).lovedTracks("scrobbler"));
    expect([refused?.status, String(refused)]).toEqual([403, expect.stringContaining("API key was refused")]);
    expect(everyText(refused)).not.toContain(badKey);
    expect(() => reader({ key: "" })).toThrow(/API key is missing/);
  });

  it("waits out error 29 (HTTP 429) for its Retry-After, then reads", async () => {
    await postJson(emu.url, "/_emulator/faults", {
      queue: [{ kind: "rate-limit", endpoint: "lastfm/user.getlovedtracks", retryAfter: 4 }],
    });
    clock.waits.length = 0;
    expect((await reader().lovedTracks("scrobbler")).entries).toHaveLength(130);
    expect(clock.waits[0]).toBeGreaterThanOrEqual(4000);
  });

  it("tries again an error sent inside an HTTP 200, within bounds", async () => {
    await postJson(emu.url, "/_emulator/faults", {
      queue: [{ kind: "failed-status", endpoint: "lastfm/user.gettoptracks", count: 2 }],
    });
    clock.waits.length = 0;
    expect((await reader().topTracks("scrobbler", "7day")).entries.length).toBeGreaterThan(0);
    expect(clock.waits).toHaveLength(2);
    await postJson(emu.url, "/_emulator/faults", {
      queue: [{ kind: "failed-status", endpoint: "lastfm/user.gettoptracks", count: 50 }],
    });
    try {
      expect(String(await failure(reader().topTracks("scrobbler", "7day")))).toContain("kept failing");
    } finally {
      await fetch(`${emu.url}/_emulator/faults`, { method: "DELETE" });
    }
  });

  it("throws on a page cut short instead of returning fewer tracks", async () => {
    await postJson(emu.url, "/_emulator/faults", {
      queue: [{ kind: "truncate", endpoint: "lastfm/user.getlovedtracks" }],
    });
    expect(String(await failure(reader().lovedTracks("scrobbler")))).toContain("cut short");
  });

  it("keeps the key out of every message, cause and JSON, from an echoing body or a redirect", async () => {
    const key = "feedfacefeedfacefeedfacefeedface";
    let n = 0;
    const hostile = await hostileServer((req, res) => {
      n++;
      const echoed = new URL(req.url ?? "/", "http://x").searchParams.get("api_key");
      if (n === 1) {
        res.writeHead(403, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: 10, message: `Invalid API key ${echoed}` }));
      } else if (n === 2) {
        res.writeHead(301, { location: `https://evil.invalid/2.0/?api_key=${echoed}` });
        res.end(`moved ${echoed}`);
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: 99, message: `odd ${echoed}` }));
      }
    });
    try {
      const r = reader({ key, base: `${hostile.base}/2.0/` });
      const errors = [
        await failure(r.lovedTracks("scrobbler")),
        await failure(r.lovedTracks("scrobbler")),
        await failure(r.lovedTracks("scrobbler")),
      ];
      for (const e of errors) {
        expect(e).toBeInstanceOf(ServiceReadError);
        expect(everyText(e)).not.toContain(key);
        expect(everyText(e)).not.toContain("feedface");
      }
      expect(engineScrubber.value(`url?api_key=${key}`)).not.toContain(key);
    } finally {
      await hostile.close();
    }
  });
});
