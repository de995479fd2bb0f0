/**
 * The engine's scrubber asks its clients (one per account) only about values that can hold a
 * credential: a worker scrubs every argument of every state call, and with hundreds of accounts
 * each walk of a value was made hundreds of times.
 */
import { describe, expect, it } from "vitest";
import { CredentialScrubber, mayHoldSecret } from "../../../engine/output/scrub.js";
import { SHORTEST_SECRET } from "../../../shared/piece-index.js";
import { secretForms } from "../../../shared/secret-forms.js";

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
