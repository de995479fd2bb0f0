/**
 * The piece index as a browser client's scrubber uses it: its secrets change every second (a new
 * SAPISIDHASH comes, the oldest goes). Each change must find the newcomer at once and stop
 * finding the leaver, without making the index whole again each time (a worker paid that once per
 * run and per account).
 */
import { describe, expect, it, vi } from "vitest";
import { keysAlong, PieceIndex, STRIDE } from "../../shared/piece-index.js";
import { sapisidHash } from "../../src/auth/sapisid.js";
import { seeded } from "../support/seeded.js";

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

  it("notices a list changed in place; only a frozen one is taken as unchanged by its identity", () => {
    const index = new PieceIndex();
    const list = [hashAt(1_700_000_000)];
    index.sync(list);
    expect(found(index, list[0]!.slice(-20))).toBe(true);
    const gone = list[0]!;
    list[0] = hashAt(1_700_000_001);
    index.sync(list);
    expect(found(index, list[0]!.slice(-20))).toBe(true);
    expect(found(index, gone.slice(-20))).toBe(false);
    const frozen = Object.freeze([hashAt(1_700_000_002)]);
    index.sync(frozen);
    index.sync(frozen);
    expect(found(index, frozen[0]!.slice(-20))).toBe(true);
  });

  it("is made whole again only now and then, not at every change", () => {
    const index = new PieceIndex();
    const changes = 40;
    for (let i = 0; i < changes; i++) index.sync(secretsAt(1_700_000_000 + i));
    expect(index.rebuilds).toBeLessThanOrEqual(changes / 4);
    expect(index.rebuilds).toBeGreaterThanOrEqual(1);
  });
});

/** Seeded secrets: the same seed gives the same secrets and texts. */
function generator(seed: number) {
  const { int } = seeded(seed);
  const CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/+=_-.:é"\\';
  const secret = () => Array.from({ length: 20 + int(40) }, () => CHARS[int(CHARS.length)]).join("");
  return { int, secret };
}

/** A window of `secret` as the service would echo it inside a JSON string, one character escaped or not. */
function echoed(secret: string, at: number, length: number, escapeAt: number | null): string {
  const piece = secret.slice(at, at + length);
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  if (escapeAt === null) return json(piece);
  const unit = `\\u${piece.charCodeAt(escapeAt).toString(16).padStart(4, "0")}`;
  return json(piece.slice(0, escapeAt)) + unit + json(piece.slice(escapeAt + 1));
}

describe("a piece index whose secrets come and go at random (seeded)", () => {
  // Secrets added one by one beyond the few that pass join the counted table: 30 steps of adds
  // cross that bound on most seeds.
  it.each(Array.from({ length: 20 }, (_, i) => i + 1))(
    "seed %i: finds every live secret's pieces, no gone one's",
    (seed) => {
      const { int, secret } = generator(seed);
      const index = new PieceIndex();
      const live = [secret(), secret()];
      const gone: string[] = [];
      for (let step = 0; step < 30; step++) {
        if (step > 0 && live.length > 1 && int(3) === 0)
          gone.push(...live.splice(1 + int(live.length - 1), 1));
        else if (step > 0) live.push(secret());
        index.sync(live);
        const s = live[int(live.length)]!;
        const length = 12 + int(Math.min(8, s.length - 12));
        const at = int(s.length - length + 1);
        const text = echoed(s, at, length, int(2) === 0 ? int(length) : null);
        expect(
          index.spans(`{"echo":"${text}"}`).length,
          `live ${JSON.stringify(s)} at ${at}`,
        ).toBeGreaterThan(0);
        const old = gone[int(gone.length)];
        if (old === undefined) continue;
        const piece = old.slice(0, 12);
        // A gone secret's piece is still a live one's only by chance: then it must still be found.
        if (!live.some((l) => l.includes(piece)))
          expect(index.spans(`{"echo":${JSON.stringify(piece)}}`)).toEqual([]);
      }
    },
  );
});

/** Filler a page is made of: ASCII, the two-byte `•` separator, CJK, an emoji (four UTF-8 bytes). */
const FILLER = ["title", " \u2022 ", "日本語", "\u{1F3B5}", '{"a":1}', "x", "\\u0026", "é"];

describe("the byte screen: spans given the text's UTF-8 bytes (seeded)", () => {
  it.each(Array.from({ length: 20 }, (_, i) => i + 1))(
    "seed %i: finds exactly what the text's own pass finds",
    (seed) => {
      const { int, secret } = generator(seed);
      let planted = 0;
      for (let step = 0; step < 60; step++) {
        // Secrets with `é` (a key outside ASCII: the screen stands aside) on some steps.
        const secrets = [secret(), secret()].map((s) => (seed % 3 === 0 ? s : s.replaceAll("é", "e")));
        const index = new PieceIndex();
        index.sync(secrets);
        // One piece at most: the screen answers for a whole text, so a text with two would hide
        // a screen that misses one of them.
        const pieceAt = int(4) === 0 ? -1 : int(40);
        let text = "";
        for (let part = 0; part < 40; part++) {
          if (part === pieceAt) {
            const s = secrets[int(secrets.length)]!;
            // Pieces of exactly the shortest length half the time: a screen off by one misses them.
            const length = int(2) === 0 ? 12 : 12 + int(Math.min(8, s.length - 12));
            text += echoed(s, int(s.length - length + 1), length, int(3) === 0 ? int(length) : null);
            planted++;
          } else {
            text += FILLER[int(FILLER.length)]!.repeat(1 + int(4));
          }
        }
        expect(index.spans(text, Buffer.from(text, "utf8")), JSON.stringify(text)).toEqual(index.spans(text));
      }
      expect(planted).toBeGreaterThan(30);
    },
  );

  it("finds a piece of the shortest length at every offset from the probes", () => {
    const index = new PieceIndex();
    index.sync(secretsAt(1_700_000_000));
    const piece = COOKIE.slice(40, 52);
    for (let offset = 0; offset < 30; offset++) {
      for (const pad of ["x", "\u2022"]) {
        // Inside JSON, and at the very start and end of a text (a plain page's is scrubbed too).
        const texts = [
          `{"t":"${pad.repeat(offset)}${piece}"}`,
          `${pad.repeat(offset)}${piece}`,
          `${piece}${pad.repeat(offset)}`,
        ];
        for (const text of texts) {
          expect(index.spans(text, Buffer.from(text)), text).toEqual(index.spans(text));
          expect(index.spans(text).length, text).toBe(1);
        }
      }
    }
  });

  it("searches the text only when its bytes hold a piece, not for a run whose windows are only keys", () => {
    const index = new PieceIndex();
    index.sync(secretsAt(1_700_000_000));
    // Four windows of the cookie, each a key, in an order no spelling has: every slot test passes.
    const run = COOKIE.slice(0, 3) + COOKIE.slice(20, 23) + COOKIE.slice(40, 43) + COOKIE.slice(60, 63);
    expect(keysAlong(index.slots, run, 0)).toBe(true);
    const probe = vi.spyOn(PieceIndex.prototype as unknown as { probe: () => void }, "probe");
    try {
      // Every offset from the probes: one lands on the run's first window.
      for (let pad = 0; pad < STRIDE; pad++) {
        const text = `{"token":"${"-".repeat(pad)}${run}"}`;
        probe.mockClear();
        expect(index.spans(text, Buffer.from(text)), text).toEqual([]);
        expect(probe, text).not.toHaveBeenCalled();
        // The text's own pass agrees: there is no piece.
        expect(index.spans(text), text).toEqual([]);
      }
    } finally {
      probe.mockRestore();
    }
  });

  it("says nothing of a page without credentials, and finds a piece among two-byte text", () => {
    const index = new PieceIndex();
    index.sync(secretsAt(1_700_000_000));
    const page = `{"runs":[${Array.from({ length: 300 }, (_, i) => `{"text":"曲 ${i} \u2022 \u{1F3B5}"}`).join(",")}]}`;
    expect(index.spans(page, Buffer.from(page))).toEqual([]);
    const piece = COOKIE.slice(30, 46);
    const echo = page.replace('"曲 150', `"曲 ${piece}`);
    const spans = index.spans(echo, Buffer.from(echo));
    expect(spans.map(([from, to]) => echo.slice(from, to)).join("")).toContain(piece);
  });
});
