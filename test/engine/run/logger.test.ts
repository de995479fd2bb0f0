/**
 * The engine's logger (engine/run/logger.ts) makes its pino logger when a line at its level is first
 * written; what it writes is pino's, as before: the level's lines and above, each child's own
 * bindings, credential fields redacted and known secrets scrubbed. A level pino does not know is
 * refused when the logger is made.
 */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { engineScrubber } from "../../../engine/output/scrub.js";
import { createLogger } from "../../../engine/run/logger.js";

/** A stream that keeps the JSON lines written to it. */
function lines() {
  const out: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split("\n").filter(Boolean)) out.push(JSON.parse(l));
      done();
    },
  });
  return { stream, out };
}

describe("the engine's logger", () => {
  it("writes its level's lines and above, dropping the rest", () => {
    const { stream, out } = lines();
    const log = createLogger("warn", stream);
    log.debug({ a: 1 }, "debug");
    log.info({ a: 2 }, "info");
    log.warn({ a: 3 }, "warn");
    log.error({ a: 4 }, "error");
    expect(out.map((l) => [l.level, l.msg, l.a])).toEqual([
      [40, "warn", 3],
      [50, "error", 4],
    ]);
  });

  it("gives each child its own bindings, also when made before anything was written", () => {
    const { stream, out } = lines();
    const log = createLogger("info", stream);
    const one = log.child({ recipe: "one" });
    const two = log.child({ recipe: "two" });
    two.child({ run: 7 }).info({}, "deep");
    one.info({}, "first");
    two.info({}, "second");
    log.info({}, "root");
    expect(out.map((l) => [l.msg, l.recipe, l.run])).toEqual([
      ["deep", "two", 7],
      ["first", "one", undefined],
      ["second", "two", undefined],
      ["root", undefined, undefined],
    ]);
  });

  it("redacts credential fields and scrubs known secrets from any field", () => {
    const secret = "logger-test-secret-value-0123456789";
    engineScrubber.addSecrets([secret]);
    const { stream, out } = lines();
    createLogger("info", stream)
      .child({ cookie: "SID=abc" })
      .warn({ note: `had ${secret}` }, "seen");
    expect(out).toHaveLength(1);
    expect(out[0]!.cookie).toBe("[redacted]");
    expect(JSON.stringify(out[0])).not.toContain(secret.slice(0, 12));
  });

  it("a silent logger writes nothing; an unknown level is refused at once", () => {
    const { stream, out } = lines();
    const log = createLogger("silent", stream);
    log.error({}, "never");
    log.child({ a: 1 }).error({}, "never");
    expect(out).toEqual([]);
    expect(() => createLogger("loud", stream)).toThrow(/loud/);
  });
});
