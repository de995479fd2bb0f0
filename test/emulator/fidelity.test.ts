/**
 * Fidelity: for each operation with a real capture, the emulator's response to the same kind of
 * request must carry the capture's renderer structure (the set of renderer paths, array positions
 * folded), and youtubei.js must parse it into the capture's node types. The figures are printed
 * per capture; each case has a floor below which the test fails.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Helpers, Log, Parser } from "youtubei.js";
import type { RunningEmulator } from "../../emulator/index.js";
import { CASES, type Ids, startFidelityEmulator } from "./fidelity-cases.js";
import { headersFor, type Json, rendererPaths } from "./helpers.js";

const FIXTURES = fileURLToPath(new URL("../../../shared/fixtures/", import.meta.url));
const present = existsSync(`${FIXTURES}responses`);
if (!present) console.warn(`fidelity tests skipped: no captures at ${FIXTURES}responses`);

Log.setLevel(Log.Level.NONE);

function capture(name: string): unknown {
  return JSON.parse(readFileSync(`${FIXTURES}responses/${name}.json`, "utf8"));
}

/** What youtubei.js's parser reported through its error hook, as `error_type:classname`. */
let reports: string[] = [];
Parser.setParserErrorHandler((e) => {
  reports.push(`${e.error_type}:${e.classname}`);
});

/** The youtubei.js reports made while parsing `response`. */
function parserReports(response: unknown): string[] {
  reports = [];
  try {
    Parser.parseResponse(response as never);
  } catch (e) {
    reports.push(`throw:${String(e).slice(0, 80)}`);
  }
  return reports;
}

/** Every object key anywhere in a value. */
function allKeys(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const x of value) allKeys(x, out);
  else if (value && typeof value === "object") {
    for (const [k, x] of Object.entries(value)) {
      out.add(k);
      allKeys(x, out);
    }
  }
  return out;
}

/**
 * Reports on the emulator's response that the capture does not excuse: an unknown renderer is
 * excused only when the capture has that renderer too (youtubei.js does not know the service's
 * own renderer; it remembers a class once reported, so the capture is checked by its keys); a type
 * mismatch or a parse failure only when the capture's own parse reports the same.
 */
function unexcusedReports(mine: unknown, real: unknown): string[] {
  const own = parserReports(mine);
  const theirs = new Set(parserReports(real));
  const keys = allKeys(real);
  return own.filter((r) => {
    const [kind, name = ""] = r.split(":");
    if (theirs.has(r)) return false;
    if (kind === "class_not_found" || kind === "class_changed") {
      return ![...keys].some(
        (k) => k.toLowerCase() === name.toLowerCase() || k.toLowerCase().startsWith(name.toLowerCase()),
      );
    }
    return true;
  });
}

/**
 * youtubei.js reports on the emulator's responses that are open gaps (not yet fixed), per capture.
 * Listed so the suite states them; a listed report that no longer occurs fails the test.
 */
const KNOWN_REPORTS: Record<string, string[]> = {};

/** The youtubei.js node types a response parses into. */
function nodeTypes(response: unknown): Set<string> {
  const types = new Set<string>();
  let parsed: unknown;
  try {
    parsed = Parser.parseResponse(response as never);
  } catch {
    return types;
  }
  const seen = new Set<unknown>();
  const walk = (v: unknown, depth: number) => {
    if (!v || typeof v !== "object" || seen.has(v) || depth > 100) return;
    seen.add(v);
    if (v instanceof Helpers.YTNode) types.add(v.type);
    if (v instanceof Map) {
      for (const x of v.values()) walk(x, depth + 1);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    for (const k of Object.keys(v)) walk((v as Json)[k], depth + 1);
  };
  walk(parsed, 0);
  return types;
}

/** Share of `reference` found in `candidate` (1 when the reference is empty). */
function coverage(reference: Set<string>, candidate: Set<string>): number {
  if (reference.size === 0) return 1;
  let n = 0;
  for (const p of reference) if (candidate.has(p)) n++;
  return n / reference.size;
}

let emu: RunningEmulator;
let ids: Ids;

beforeAll(async () => {
  if (!present) return;
  ({ emu, ids } = await startFidelityEmulator());
});
afterAll(async () => {
  await emu?.stop();
});

const figures: string[] = [];

describe.skipIf(!present)("emulator responses have the captures' structure", () => {
  for (const c of CASES) {
    it(c.capture, async () => {
      const auth = await headersFor(emu, 1);
      const reply = await c.run(ids, auth);
      expect(reply.status).toBe(200);
      const real = capture(c.capture);
      const pathShare = coverage(rendererPaths(real), rendererPaths(reply.json));
      const unexcused = unexcusedReports(reply.json, real);
      const nodeShare = coverage(nodeTypes(real), nodeTypes(reply.json));
      if (process.env.EMU_FIDELITY_DIFF) {
        const mine = rendererPaths(reply.json);
        const missing = [...rendererPaths(real)].filter((x) => !mine.has(x));
        const mineTypes = nodeTypes(reply.json);
        const missingTypes = [...nodeTypes(real)].filter((x) => !mineTypes.has(x));
        console.log(`${c.capture} missing:\n  ${missing.join("\n  ")}\n  types: ${missingTypes.join(" ")}`);
      }
      figures.push(
        `${c.capture.padEnd(48)} paths ${(pathShare * 100).toFixed(0).padStart(3)}%  nodes ${(nodeShare * 100).toFixed(0).padStart(3)}%`,
      );
      const known = new Set(KNOWN_REPORTS[c.capture] ?? []);
      expect([...new Set(unexcused)].filter((r) => !known.has(r))).toEqual([]);
      expect([...known].filter((r) => !unexcused.includes(r))).toEqual([]);
      expect(pathShare).toBeGreaterThanOrEqual(c.paths);
      expect(nodeShare).toBeGreaterThanOrEqual(c.nodes);
    });
  }

  it("prints the figures", () => {
    console.log(`renderer-path and youtubei.js node-type coverage of each capture:\n${figures.join("\n")}`);
    expect(figures.length).toBe(CASES.length);
  });
});
