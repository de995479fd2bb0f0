/**
 * The piece index as a browser client's scrubber uses it: its secrets change every second (a new
 * SAPISIDHASH comes, the oldest goes). Each change must find the newcomer at once and stop
 * finding the leaver, without making the index whole again each time (a worker paid that once per
 * run and per account).
 */
import { describe, expect, it } from "vitest";
import { PieceIndex } from "../../shared/piece-index.js";
import { sapisidHash } from "../../src/auth/sapisid.js";

const COOKIE = "SID=g.a000abcDEF123456789xyzXYZ; SAPISID=Qw3rTy/UiOp-AsDfGh_1234; HSID=AbCdEf0123456789";
const ORIGIN = "https://music.youtube.com";
const hashAt = (second: number) => sapisidHash("Qw3rTy/UiOp-AsDfGh_1234", ORIGIN, second);
/** The client keeps its last few hashes (answers to earlier requests may still come). */
const RECENT = 3;

function secretsAt(second: number): string[] {
  const recent = Array.from({ length: RECENT }, (_, i) => hashAt(second - i));
  return [COOKIE, "Qw3rTy/UiOp-AsDfGh_1234", ...recent];
}

const found = (index: PieceIndex, text: string) => index.spans(`{"echo":"${text}"}`).length > 0;

describe("a piece index whose secrets change every second", () => {
  it("finds each new hash, in JSON's escapes too, and no longer finds one gone", () => {
    const index = new PieceIndex();
    for (let second = 1_700_000_000; second < 1_700_000_040; second++) {
      index.sync(secretsAt(second));
      const fresh = hashAt(second);
      expect(found(index, fresh.slice(-20))).toBe(true);
      expect(found(index, fresh.replace("_", "\\u005f"))).toBe(true);
      expect(found(index, hashAt(second - RECENT).split("_")[1]!)).toBe(false);
      expect(found(index, "nothing secret in this text at all, just words")).toBe(false);
      expect(found(index, COOKIE.slice(5, 25))).toBe(true);
    }
  });

  it("is made whole again only now and then, not at every change", () => {
    const index = new PieceIndex();
    const changes = 40;
    for (let i = 0; i < changes; i++) index.sync(secretsAt(1_700_000_000 + i));
    expect(index.rebuilds).toBeLessThanOrEqual(changes / 4);
    expect(index.rebuilds).toBeGreaterThanOrEqual(1);
  });
});
