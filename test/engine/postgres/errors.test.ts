/**
 * The PostgreSQL state's errors never carry the connection's password, in any spelling or any
 * 12-character piece of one: a server or driver may echo it percent-encoded (as it stands in the
 * URL), base64'd, or cut short inside a longer message.
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { describePool, openingError, queryError, redact } from "../../../engine/postgres/errors.js";

const PASSWORD = "Kx9/tR@ss+w0rd:Quv#Lm7Zy";
const pool = new pg.Pool({
  connectionString: `postgres://musician:${encodeURIComponent(PASSWORD)}@db.example:5433/music`,
});
afterAll(() => pool.end());

const forms = {
  whole: PASSWORD,
  "percent-encoded": encodeURIComponent(PASSWORD),
  base64: Buffer.from(PASSWORD).toString("base64"),
  "a 12-character piece": PASSWORD.slice(5, 17),
};

function refused(message: string): Error {
  return Object.assign(new Error(message), { code: "ECONNREFUSED" });
}

describe("the PostgreSQL state's errors", () => {
  it("read the password from the URL, and name the server without it", () => {
    expect(describePool(pool)).toEqual({ database: "db.example:5433/music", secret: PASSWORD });
  });

  for (const [name, form] of Object.entries(forms)) {
    it(`hide the password ${name} inside a server's message`, () => {
      const message = `FATAL: password authentication failed near "${form}" for user musician`;
      expect(redact(message, PASSWORD)).not.toContain(form);
      for (const e of [queryError(pool, refused(message)), openingError(pool, refused(message))]) {
        const text = (e as Error).message;
        expect(text).toContain("db.example:5433/music");
        expect(text).not.toContain(form);
        expect(text).toContain("for user musician");
      }
    });
  }

  it("keep a message that carries no part of the password as it is", () => {
    expect(redact("connect ECONNREFUSED 127.0.0.1:5433", PASSWORD)).toBe(
      "connect ECONNREFUSED 127.0.0.1:5433",
    );
  });
});
