import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceReadError, serviceJson, shownAddress } from "../../../engine/services/http.js";

/** A service whose answers the test scripts, one per request, recording what it was asked. */
let server: Server;
let base: string;
let script: ((req: IncomingMessage, res: ServerResponse) => void)[] = [];
let asked: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? "");
    const next = script.shift();
    if (next) next(req, res);
    else res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function answer(status: number, body: string, headers: Record<string, string> = {}) {
  return (_req: IncomingMessage, res: ServerResponse) => res.writeHead(status, headers).end(body);
}

/** A clock that moves only when the code sleeps, and the waits it asked for. */
function fakeTime() {
  let now = 1_000_000;
  const waits: number[] = [];
  return {
    waits,
    deps: {
      now: () => now,
      random: () => 0.5,
      sleep: async (ms: number) => {
        waits.push(ms);
        now += ms;
      },
    },
  };
}

const SECRET = "k3y-that-must-never-show-0123456789";

function run(path: string, time = fakeTime()) {
  script = script.slice();
  asked = [];
  return serviceJson("lastfm", { url: new URL(`${base}${path}?api_key=${SECRET}&page=1`) }, time.deps);
}

describe("serviceJson", () => {
  it("waits out a 429 for the Retry-After the service asks, then reads", async () => {
    const time = fakeTime();
    script = [answer(429, "", { "retry-after": "3" }), answer(200, '{"ok":1}')];
    const a = await run("/list", time);
    expect(a).toMatchObject({ status: 200, json: { ok: 1 } });
    expect(time.waits).toHaveLength(1);
    expect(time.waits[0]).toBeGreaterThanOrEqual(3000);
    expect(asked).toHaveLength(2);
  });

  it("gives up on a wait past its budget, saying the service is rate limited, without the key", async () => {
    script = [answer(429, `{"message":"slow down ${SECRET}"}`, { "retry-after": "600" })];
    const e = await run("/list").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ServiceReadError);
    expect((e as ServiceReadError).status).toBe(429);
    expect(String(e)).toContain("rate limited");
    expect(String(e)).toContain("wait 600 s");
    expect(JSON.stringify(e) + String(e) + String((e as Error).stack)).not.toContain("k3y");
    expect(asked).toHaveLength(1);
  });

  it("tries a 503 a bounded number of times, then says how often", async () => {
    script = Array.from({ length: 9 }, () => answer(503, "busy"));
    const e = await run("/list").catch((x: unknown) => x);
    expect(String(e)).toMatch(/answered HTTP 503 after 5 tries/);
    expect(asked).toHaveLength(5);
  });

  it("waits out a 429 for X-RateLimit-Reset-In when no Retry-After comes (ListenBrainz)", async () => {
    const time = fakeTime();
    script = [
      answer(429, "", { "x-ratelimit-reset-in": "4", "x-ratelimit-remaining": "0" }),
      answer(200, "{}"),
    ];
    await run("/list", time);
    expect(time.waits[0]).toBeGreaterThanOrEqual(4000);
  });

  it("takes X-RateLimit-Reset-In on any other answer as the window's end, not a wait", async () => {
    const time = fakeTime();
    script = [answer(503, "", { "x-ratelimit-reset-in": "50" }), answer(200, "{}")];
    await run("/list", time);
    expect(time.waits[0]).toBeLessThan(50_000);
  });

  it("hands other failures back with the service's own body, for its reader to explain", async () => {
    script = [answer(404, '{"error":6,"message":"User not found"}')];
    const a = await run("/user");
    expect(a).toMatchObject({ status: 404, json: { error: 6 } });
    expect(asked).toHaveLength(1);
  });

  it("reads an empty 204 as null and refuses a 200 that is not JSON", async () => {
    script = [answer(204, "")];
    expect((await run("/stats")).json).toBeNull();
    script = [answer(200, "<html>hello</html>")];
    await expect(run("/stats")).rejects.toThrow(/did not answer JSON/);
  });

  it("does not follow a redirect, which could carry the query elsewhere", async () => {
    script = [answer(302, "", { location: `http://127.0.0.1:1/steal` })];
    const a = await run("/moved");
    expect(a.status).toBe(302);
    expect(asked).toHaveLength(1);
  });

  it("names an unreachable service without the query", async () => {
    const url = new URL(`http://127.0.0.1:1/2.0/?api_key=${SECRET}`);
    const e = await serviceJson(
      "lastfm",
      { url },
      { ...fakeTime().deps, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1, totalMs: 10 } },
    ).catch((x: unknown) => x);
    expect(String(e)).toMatch(
      /lastfm: http:\/\/127\.0\.0\.1:1\/2\.0\/ could not be reached \(ECONNREFUSED\)/,
    );
    expect(String(e)).not.toContain("k3y");
    expect(shownAddress(url)).not.toContain("k3y");
  });
});
