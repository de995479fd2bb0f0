/**
 * The state as runs write to it: every argument of a write is scrubbed before it is stored; a read's
 * arguments (which only pick rows) go through untouched, and ask no client (a worker makes a dozen
 * reads a run, each once scrubbed by every client it made).
 */
import { describe, expect, it } from "vitest";
import { CredentialScrubber } from "../../../engine/output/scrub.js";
import { scrubbingState } from "../../../engine/run/scrubbing-state.js";
import type { EngineState, Stores } from "../../../engine/state/types.js";
import { Redactor } from "../../../shared/redact.js";
import { MusicClient } from "../../../src/index.js";
import { seeded } from "../../support/seeded.js";

const SECRET = "SAPISID-0123456789abcdef/xyz";

/** A state whose every call records its arguments; `batch` hands the same recorder as its stores. */
function recorder() {
  const calls: [string, unknown[]][] = [];
  const record =
    (name: string) =>
    async (...args: unknown[]) => {
      calls.push([name, args]);
      return null;
    };
  const state: Record<string, unknown> = {
    recordOwnedPlaylist: record("recordOwnedPlaylist"),
    finishRun: record("finishRun"),
    journalMark: record("journalMark"),
    ownedRows: record("ownedRows"),
    tombstones: record("tombstones"),
    storedAccount: record("storedAccount"),
    somethingNew: record("somethingNew"),
  };
  state.batch = async (work: (stores: Stores) => Promise<unknown>) => work(state as unknown as Stores);
  return { state: state as unknown as EngineState, calls };
}

/** The engine's scrubber with one client, as a MusicClient scrubs: its credentials in every spelling. */
function scrubber() {
  const s = new CredentialScrubber();
  const client = new Redactor(() => [SECRET]);
  let asked = 0;
  s.addClient(<T>(v: T): T => {
    asked++;
    return typeof v === "string" ? (client.text(v) as T) : client.value(v);
  });
  return { s, asked: () => asked };
}

describe("the scrubbing state", () => {
  it("scrubs a write's arguments, in a batch too, and a call it does not know", async () => {
    const { state, calls } = recorder();
    const { s } = scrubber();
    const scrubbing = scrubbingState(state, s);
    await scrubbing.finishRun(1, { at: 1, result: "failed", error: `echoed ${SECRET}` });
    await scrubbing.batch((stores) =>
      stores.recordOwnedPlaylist({
        account: "acc",
        recipeId: "r",
        target: "t",
        playlistId: `PL${SECRET}`,
        createdAt: 1,
      }),
    );
    await (scrubbing as unknown as Record<string, (v: string) => Promise<void>>).somethingNew!(SECRET);
    expect(JSON.stringify(calls)).not.toContain(SECRET);
    expect(calls.map(([name]) => name)).toEqual(["finishRun", "recordOwnedPlaylist", "somethingNew"]);
  });

  it("passes a read's arguments as they are, asking no client", async () => {
    const { state, calls } = recorder();
    const { s, asked } = scrubber();
    const scrubbing = scrubbingState(state, s);
    await scrubbing.ownedRows("account-one", `playlist:${SECRET}`);
    await scrubbing.batch((stores) => stores.tombstones("account-one", `playlist:${SECRET}`));
    await scrubbing.storedAccount(SECRET);
    expect(calls).toEqual([
      ["ownedRows", ["account-one", `playlist:${SECRET}`]],
      ["tombstones", ["account-one", `playlist:${SECRET}`]],
      ["storedAccount", [SECRET]],
    ]);
    expect(asked()).toBe(0);
  });

  it("cuts a piece of the fifteenth client's secret, screened with fourteen others (seeded)", async () => {
    const { int } = seeded(15);
    const word = (n: number) =>
      Array.from(
        { length: n },
        () => "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-/"[int(65)],
      ).join("");
    const s = new CredentialScrubber();
    const sapisids: string[] = [];
    // As the engine adds a worker's clients: one per account, each with the index of its secrets.
    for (let i = 0; i < 15; i++) {
      const sapisid = word(24);
      sapisids.push(sapisid);
      const made = new MusicClient({
        auth: { cookie: `SID=${word(30)}; SAPISID=${sapisid}; HSID=${word(9)}`, "x-goog-authuser": "0" },
        dispatcher: false,
      });
      s.addClient(
        (value) => made.redact(value),
        () => made.secretIndex(),
      );
    }
    const { state, calls } = recorder();
    const scrubbing = scrubbingState(state, s);
    const piece = sapisids[14]!.slice(5, 17);
    const clean = {
      account: "acc15",
      recipeId: "r",
      target: "t",
      playlistId: "PLabcdefghijklmnopqrstuvwxyz012345",
      createdAt: 1,
    };
    await scrubbing.recordOwnedPlaylist(clean);
    await scrubbing.finishRun(1, {
      at: 1,
      result: "failed",
      error: `the service said ${encodeURIComponent(piece)}!`,
    });
    await scrubbing.journalMark(1, 1, "failed", 2, { nested: [`x${piece}y`] });
    const stored = JSON.stringify(calls);
    expect(calls[0]![1][0]).toBe(clean);
    expect(stored).not.toContain(piece);
    expect(stored.match(/\[redacted\]/g)).toHaveLength(2);
  });
});
