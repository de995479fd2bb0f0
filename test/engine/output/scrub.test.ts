/**
 * The engine's scrubber asks its clients (one per account) only about values that can hold a
 * credential: a worker scrubs every argument of every state call, and with hundreds of accounts
 * each walk of a value was made hundreds of times.
 */
import { describe, expect, it } from "vitest";
import { CredentialScrubber, mayHoldSecret } from "../../../engine/output/scrub.js";
import { SHORTEST_SECRET } from "../../../shared/piece-index.js";
import { Redactor } from "../../../shared/redact.js";
import { secretForms } from "../../../shared/secret-forms.js";
import { seeded } from "../../support/seeded.js";

const SECRET = "SAPISID-0123456789abcdef/xyz";

function counted(): { scrubber: CredentialScrubber; asked: unknown[] } {
  const scrubber = new CredentialScrubber();
  const asked: unknown[] = [];
  scrubber.addClient(<T>(value: T): T => {
    asked.push(value);
    return (typeof value === "string" ? value.replaceAll(SECRET, "[redacted]") : value) as T;
  });
  return { scrubber, asked };
}

describe("the engine's scrubber", () => {
  it("asks no client about numbers, short texts, or plain data made only of them", () => {
    const { scrubber, asked } = counted();
    const values = [
      42,
      "acc1-r1",
      null,
      undefined,
      true,
      { id: 7, account: "acc1", at: 1700000000000 },
      [1, "r1"],
    ];
    for (const v of values) expect(scrubber.value(v)).toBe(v);
    expect(asked).toEqual([]);
  });

  it("asks every client about long texts, long keys, nested ones and anything not plain data", () => {
    const { scrubber, asked } = counted();
    expect(scrubber.value(`cookie ${SECRET}`)).toBe("cookie [redacted]");
    const error = new Error("x");
    const values = [{ a: { b: ["12345678"] } }, { longer_key: 1 }, error, new Date(0), Buffer.from("x")];
    for (const v of values) scrubber.value(v);
    expect(asked).toHaveLength(1 + values.length);
  });

  it("looks no deeper than a few levels: a deeper value goes to the clients", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20; i++) deep = { x: deep };
    expect(mayHoldSecret(deep)).toBe(true);
    expect(mayHoldSecret({ x: { y: 1 } })).toBe(false);
  });

  it("holds to its premise: no spelling of a secret is shorter than the shortest secret", () => {
    const secrets = [
      "abcdefgh",
      "a=b&c<d>",
      "é/ü+ö?=%",
      "12345678901234567890",
      "a b c d ",
      "\u00ff".repeat(8),
    ];
    for (const s of secrets) {
      expect(s.length).toBeGreaterThanOrEqual(SHORTEST_SECRET);
      for (const form of secretForms(s)) expect(form.length).toBeGreaterThanOrEqual(SHORTEST_SECRET);
    }
  });
});

/**
 * Clients as the engine adds them: each a MusicClient's scrubbing of its own secrets, with the
 * index of its secrets (screened: one pass for all) or without (each asked in turn).
 */
function withClients(secrets: readonly string[][], screened = false) {
  const redactors = secrets.map((own) => new Redactor(() => own));
  const scrubber = new CredentialScrubber();
  for (const r of redactors) {
    const redact = <T>(v: T): T => (typeof v === "string" ? (r.text(v) as T) : r.value(v));
    if (screened) scrubber.addClient(redact, () => r.ready());
    else scrubber.addClient(redact);
  }
  // What the scrubber did before it searched plain data as one text: each client walks the value.
  const walked = <T>(v: T): T => redactors.reduce((out, r) => r.value(out), v);
  return { scrubber, walked };
}

const CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/+=_-.:;é"\\\n ';

/** Seeded plain data, some texts and keys holding a piece of a secret in one of its spellings. */
function plantedValues(seed: number, secrets: readonly string[]) {
  const { int, next } = seeded(seed);
  const filler = () => Array.from({ length: int(30) }, () => CHARS[int(CHARS.length)]).join("");
  const piece = () => {
    const forms = secretForms(secrets[int(secrets.length)]!);
    const form = forms[int(forms.length)]!;
    const length = Math.min(form.length, 12 + int(20));
    const at = int(form.length - length + 1);
    return form.slice(at, at + length);
  };
  const text = () => (next() < 0.15 ? filler() + piece() + filler() : filler());
  const value = (depth: number): unknown => {
    const roll = int(depth >= 3 ? 4 : 6);
    if (roll === 0) return int(1e9);
    if (roll === 1) return [null, undefined, true][int(3)];
    if (roll <= 3) return text();
    if (roll === 4) return Array.from({ length: int(4) }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: int(4) }, () => [text(), value(depth + 1)]));
  };
  return Array.from({ length: 60 }, () => ({ row: value(0) }));
}

describe("plain data searched as one text (seeded)", () => {
  it.each(Array.from({ length: 25 }, (_, i) => i + 1))(
    "seed %i: scrubs exactly what each client's walk of the value scrubs",
    (seed) => {
      const { int } = seeded(seed * 7919);
      const secret = () => Array.from({ length: 16 + int(30) }, () => CHARS[int(CHARS.length)]).join("");
      const secrets = [[secret(), secret()], [secret(), secret()], [secret()]];
      const { scrubber, walked } = withClients(secrets);
      let changed = 0;
      for (const v of plantedValues(seed, secrets.flat())) {
        const expected = walked(v);
        expect(scrubber.value(v)).toEqual(expected);
        if (expected !== v) changed++;
      }
      // Not a vacuous comparison: the seeds plant pieces the walk finds.
      expect(changed).toBeGreaterThan(0);
    },
  );

  it.each(Array.from({ length: 10 }, (_, i) => i + 1))(
    "seed %i: fifteen screened clients scrub exactly what each one's walk scrubs",
    (seed) => {
      const { int } = seeded(seed * 6151);
      const secret = () => Array.from({ length: 16 + int(30) }, () => CHARS[int(CHARS.length)]).join("");
      // Short ones too (found whole only), as a cookie's shorter values are.
      const short = () => Array.from({ length: 8 + int(4) }, () => CHARS[int(CHARS.length)]).join("");
      const secrets = Array.from({ length: 15 }, () => [secret(), short()]);
      const { scrubber, walked } = withClients(secrets, true);
      let changed = 0;
      for (const v of plantedValues(seed, secrets.flat())) {
        const expected = walked(v);
        expect(scrubber.value(v)).toEqual(expected);
        if (expected !== v) changed++;
        for (const text of [JSON.stringify(v), ...(typeof v.row === "string" ? [v.row] : [])]) {
          expect(scrubber.text(text)).toBe(walked(text));
        }
      }
      expect(changed).toBeGreaterThan(0);
    },
  );

  it("a secret added after values were scrubbed is cut from the next ones, and a known one again", () => {
    const { scrubber } = withClients([["client-secret-0123456789"]], true);
    const later = "added-later-secret-9876543210";
    expect(scrubber.value({ note: `x ${later} y` })).toEqual({ note: `x ${later} y` });
    scrubber.addSecrets([later]);
    expect(scrubber.value({ note: `x ${later} y` })).toEqual({ note: "x [redacted] y" });
    scrubber.addSecrets([later]);
    expect(scrubber.text(`x ${later.slice(2, 16)} y`)).toBe("x [redacted] y");
  });

  it("a secret escaped in a text (a JSON answer quoted inside another) is still cut", () => {
    const secret = "SAPISID-0123456789abcdef/xyz";
    const { scrubber } = withClients([[secret]]);
    // The text holds the escapes themselves, as a body quoted in a string would.
    const quoted = secret.replace(/[0-9]/g, (d) => `\\u003${d}`);
    const v = { echo: `said ${quoted} once`, n: 1 };
    expect(JSON.stringify(scrubber.value(v))).not.toContain("abcdef/xyz");
    expect(scrubber.value(v)).not.toEqual(v);
  });
});
