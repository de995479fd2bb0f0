/**
 * The screen over many piece indexes (one per client of a worker) must answer exactly what asking
 * each index would: a text is clean only when no index finds anything in it. Seeded: browser-like
 * clients whose newest hash changes at every step, texts holding a piece of one client's secret in
 * one of its spellings (an escape inside it or not), whole short secrets, and plain filler.
 */
import { describe, expect, it } from "vitest";
import { PieceIndex } from "../../shared/piece-index.js";
import { PieceScreen } from "../../shared/piece-screen.js";
import { secretForms } from "../../shared/secret-forms.js";
import { sapisidHash } from "../../src/auth/sapisid.js";
import { seeded } from "../support/seeded.js";

const ORIGIN = "https://music.youtube.com";
const CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/+=_-.:;é"\\\n ';
const CLIENTS = 15;
/** A browser client keeps its last few hashes (answers to earlier requests may still come). */
const RECENT = 4;

interface Client {
  index: PieceIndex;
  sapisid: string;
  fixed: string[];
}

function world(seed: number) {
  const { int, next } = seeded(seed);
  const text = (length: number) => Array.from({ length }, () => CHARS[int(CHARS.length)]).join("");
  const clients: Client[] = Array.from({ length: CLIENTS }, () => {
    const sapisid = text(20 + int(20));
    // A short cookie value (8 to 11 characters) is searched for whole only.
    const fixed = [`SID=${text(30)}; SAPISID=${sapisid}`, sapisid, text(8 + int(4))];
    return { index: new PieceIndex(), sapisid, fixed };
  });
  const secretsAt = (c: Client, second: number) => [
    ...c.fixed,
    ...Array.from({ length: RECENT }, (_, i) => sapisidHash(c.sapisid, ORIGIN, second - i)),
  ];
  /** A text that may hold a piece (or a whole short secret) of a random client's live secret. */
  const planted = (second: number): string => {
    const filler = () => text(int(40));
    if (next() < 0.4) return filler() + filler();
    const secrets = secretsAt(clients[int(CLIENTS)]!, second);
    const forms = secretForms(secrets[int(secrets.length)]!);
    const form = forms[int(forms.length)]!;
    const length = Math.min(form.length, 12 + int(16));
    const at = int(form.length - length + 1);
    let piece = form.slice(at, at + length);
    // One character as a JSON escape, as a service may echo it.
    if (next() < 0.3) {
      const k = int(piece.length);
      piece = `${piece.slice(0, k)}\\u${piece.charCodeAt(k).toString(16).padStart(4, "0")}${piece.slice(k + 1)}`;
    }
    return filler() + piece + filler();
  };
  return { int, clients, secretsAt, planted };
}

const foundByAny = (indexes: readonly PieceIndex[], text: string) =>
  indexes.some((index) => index.spans(text).length > 0);

describe("a screen over many clients' piece indexes (seeded)", () => {
  it.each(Array.from({ length: 8 }, (_, i) => i + 1))(
    "seed %i: a text is clean exactly when no index finds anything, as hashes come and go",
    (seed) => {
      const { int, clients, secretsAt, planted } = world(seed * 104729);
      const screen = new PieceScreen();
      const indexes = clients.map((c) => c.index);
      let found = 0;
      let second = 1_700_000_000;
      for (let step = 0; step < 100; step++) {
        // Each step some clients make a request: a new hash, the oldest gone.
        if (step % 3 === 0) second++;
        for (const c of clients) if (step === 0 || int(4) === 0) c.index.sync(secretsAt(c, second));
        const text = planted(second);
        const expected = !foundByAny(indexes, text);
        expect(screen.clean(text, indexes), JSON.stringify(text)).toBe(expected);
        if (!expected) found++;
      }
      // Not vacuous: pieces were planted and found, and the union followed the hashes by marks.
      expect(found).toBeGreaterThan(15);
      expect(screen.remakes).toBeLessThan(50);
    },
  );

  it("finds a piece of the last client's secret, and its newest hash at once", () => {
    const { clients, secretsAt } = world(7);
    const screen = new PieceScreen();
    const indexes = clients.map((c) => c.index);
    const last = clients[CLIENTS - 1]!;
    for (const c of clients) c.index.sync(secretsAt(c, 1_700_000_000));
    expect(screen.clean(`{"title":"a song","id":"dQw4w9WgXcQ","n":3}`, indexes)).toBe(true);
    expect(screen.clean(`{"note":"x${last.sapisid.slice(3, 15)}y"}`, indexes)).toBe(false);
    last.index.sync(secretsAt(last, 1_700_000_001));
    const fresh = sapisidHash(last.sapisid, ORIGIN, 1_700_000_001);
    expect(screen.clean(`{"echo":"${fresh.slice(-14)}"}`, indexes)).toBe(false);
    // The short cookie value, whole, and a piece of it cut short that is no secret.
    const short = last.fixed[2]!;
    expect(screen.clean(`{"v":"${short}"}`, indexes)).toBe(false);
    expect(screen.clean(`{"v":"${short.slice(1)}"}`, indexes)).toBe(
      !foundByAny(indexes, `{"v":"${short.slice(1)}"}`),
    );
  });

  it("is clean for every text when no index holds a secret", () => {
    const screen = new PieceScreen();
    expect(screen.clean("any text at all, long enough", [new PieceIndex(), new PieceIndex()])).toBe(true);
  });
});
