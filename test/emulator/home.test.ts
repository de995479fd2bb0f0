/**
 * Home and its continuations (docs/PROTOCOL.md#browsing): every shelf once, in the shapes a client reads,
 * signed in and signed out — a continuation that brought back "Quick picks" and "Listen again"
 * showed a user the same shelf twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { MusicClient } from "../../src/client.js";
import { headersFor } from "./helpers.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 400, seed: 4 });
});

afterAll(async () => {
  await emu.stop();
});

describe("home", () => {
  it("shows each shelf once across all its pages, each with content", async () => {
    for (const auth of [undefined, await headersFor(emu, 1)]) {
      const client = new MusicClient({ baseUrl: emu.url, ...(auth ? { auth } : {}) });
      const shelves = await client.getHome({ limit: 50 });
      const titles = shelves.map((s) => s.title);
      expect(titles.length).toBeGreaterThan(6);
      expect(new Set(titles).size).toBe(titles.length);
      expect(titles.filter((t) => t === "Listen again").length).toBeLessThanOrEqual(1);
      for (const s of shelves) expect((s.contents ?? []).length).toBeGreaterThan(0);
    }
  });
});
