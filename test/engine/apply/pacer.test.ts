/** The write pace and retries, on a fake clock. */
import { describe, expect, it } from "vitest";
import { type Clock, isThrottle400, Pacer } from "../../../engine/apply/pacer.js";
import { RateLimitError, ServiceError } from "../../../src/index.js";

function fakeClock(): Clock & { slept: number[] } {
  let t = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => t,
    sleep: async (ms) => {
      slept.push(ms);
      t += ms;
    },
  };
}

const options = { minIntervalMs: 0, maxPerMinute: 0, attempts: 4, baseDelayMs: 100, maxDelayMs: 10_000 };

describe("Pacer", () => {
  it("spaces writes by the minimum interval", async () => {
    const clock = fakeClock();
    const pacer = new Pacer({ ...options, minIntervalMs: 250 }, clock);
    for (let i = 0; i < 3; i++) await pacer.send(async () => i);
    expect(clock.slept).toEqual([250, 250]);
  });

  it("holds the 61st write of a minute until the window has room", async () => {
    const clock = fakeClock();
    const pacer = new Pacer({ ...options, maxPerMinute: 60 }, clock);
    for (let i = 0; i < 61; i++) await pacer.send(async () => i);
    expect(clock.slept).toEqual([60_000]);
  });

  it("retries a 429 no sooner than its Retry-After, and a 503 with backoff", async () => {
    const clock = fakeClock();
    const pacer = new Pacer(options, clock);
    const answers: unknown[] = [
      new RateLimitError("slow down", 3000, { status: 429 }),
      new ServiceError("HTTP_ERROR", "unavailable", { status: 503 }),
      "ok",
    ];
    const result = await pacer.send(async () => {
      const a = answers.shift();
      if (a instanceof Error) throw a;
      return a;
    });
    expect(result).toBe("ok");
    expect(pacer.sent).toBe(3);
    expect(clock.slept[0]).toBeGreaterThanOrEqual(3000);
    // The second backoff step is 200 ms with jitter, plus the pace the 429 imposed.
    expect(clock.slept.slice(1).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(100);
  });

  it("does not retry a refusal of the request itself, and gives up after its attempts", async () => {
    const pacer = new Pacer(options, fakeClock());
    const bad = new ServiceError("HTTP_ERROR", "Invalid video id.", { status: 400 });
    await expect(pacer.send(async () => Promise.reject(bad))).rejects.toBe(bad);
    expect(pacer.sent).toBe(1);
    const busy = new ServiceError("HTTP_ERROR", "busy", { status: 503 });
    await expect(pacer.send(async () => Promise.reject(busy))).rejects.toBe(busy);
    expect(pacer.sent).toBe(1 + options.attempts);
  });

  it("paces a throttling 400 like a 429 (Retry-After honoured), but never a plain bad request", async () => {
    const clock = fakeClock();
    const pacer = new Pacer(options, clock);
    const answers: unknown[] = [
      new ServiceError("HTTP_ERROR", "quota", {
        status: 400,
        serviceStatus: "RESOURCE_EXHAUSTED",
        retryAfterMs: 2000,
      }),
      new ServiceError("HTTP_ERROR", "slow down", {
        status: 400,
        serviceMessage: "Too many requests. Try again later.",
      }),
      "ok",
    ];
    const result = await pacer.send(async () => {
      const a = answers.shift();
      if (a instanceof Error) throw a;
      return a;
    });
    expect(result).toBe("ok");
    expect(pacer.sent).toBe(3);
    expect(clock.slept[0]).toBeGreaterThanOrEqual(2000);
    expect(
      isThrottle400(
        new ServiceError("HTTP_ERROR", "x", { status: 400, serviceMessage: "Invalid video id." }),
      ),
    ).toBe(false);
    expect(
      isThrottle400(
        new ServiceError("HTTP_ERROR", "x", { status: 503, serviceStatus: "RESOURCE_EXHAUSTED" }),
      ),
    ).toBe(false);
  });
});
