import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe } from "vitest";
import { MusicClient, type MusicClientOptions } from "../../src/index.js";
import { DIFFERENCES, type Difference } from "./differences.js";
import { endpointOf, extraParams, type SeenRequest, START_PAGE, startServer } from "./replay-server.js";

/**
 * The harness for the real captures in ../shared/fixtures (see its README): serve a case's pages
 * from a local server, make the case's call through a real MusicClient, and compare what was sent
 * and what came back with what the reference implementation sent and returned.
 */

const FIXTURES = fileURLToPath(new URL("../../../shared/fixtures/", import.meta.url));

export const fixturesAvailable = existsSync(`${FIXTURES}cases.json`);

/** `describe`, or a skipped block that says why when ../shared is not beside the repository. */
export function describeWithFixtures(name: string, body: () => void): void {
  if (fixturesAvailable) describe(name, body);
  else describe.skip(`${name} (skipped: ../shared/fixtures is not beside the repository)`, body);
}

export interface RecordedRequest {
  endpoint: string;
  body: Record<string, unknown>;
  /** The continuation query string, cut at 80 characters when recorded. */
  additionalParams: string;
  /** The page that answered, or `{} (terminal)` for an empty answer. */
  served: string;
}

export interface FixtureCase {
  id: string;
  operation: string;
  call: { method: string; args: unknown[]; options: Record<string, unknown> };
  auth: boolean;
  pages: string[];
  requests: RecordedRequest[];
  expected: string | null;
  reference_status: string;
  client_version: string | null;
}

let cases: FixtureCase[] | undefined;

export function fixtureCases(filter: (c: FixtureCase) => boolean = () => true): FixtureCase[] {
  if (!fixturesAvailable) return [];
  cases ??= JSON.parse(readFileSync(`${FIXTURES}cases.json`, "utf8")) as FixtureCase[];
  return cases.filter(filter);
}

export function fixtureCase(id: string): FixtureCase {
  const found = fixtureCases((c) => c.id === id)[0];
  if (!found) throw new Error(`no fixture case ${id}`);
  return found;
}

export function responsePath(page: string): string {
  return `${FIXTURES}responses/${page}.json`;
}

export function loadResponse(page: string): unknown {
  return JSON.parse(readFileSync(responsePath(page), "utf8"));
}

export function loadExpected(c: FixtureCase): unknown {
  return c.expected === null ? null : JSON.parse(readFileSync(`${FIXTURES}expected/${c.expected}`, "utf8"));
}

/** Browser headers for authenticated cases: any SAPISID will do against a replay server. */
export const TEST_BROWSER_AUTH = JSON.stringify({
  cookie: "__Secure-3PAPISID=fixture-sapisid-0000; SAPISID=fixture-sapisid-0000; SID=fixture-session-0000",
  "x-goog-authuser": "0",
  authorization: "SAPISIDHASH 0_0000",
  "x-origin": "https://music.youtube.com",
});

export interface CaseRun {
  result: unknown;
  /** The InnerTube requests the client sent (start page and other GETs left out). */
  requests: SeenRequest[];
}

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * Serves `c.pages` in order to the client's InnerTube requests (then `{}`), makes `c.call` through a
 * MusicClient pointed at the server, and returns the result and the requests.
 */
export async function runCase(
  c: FixtureCase,
  client: Partial<MusicClientOptions> = {},
  /** Page bodies to serve instead of the captured ones (robustness tests mutate them). */
  pageBodies?: readonly string[],
): Promise<CaseRun> {
  const pages = pageBodies ?? c.pages.map((page) => readFileSync(responsePath(page), "utf8"));
  let next = 0;
  const server = await startServer((request) => {
    if (endpointOf(request.path) === null) return { body: START_PAGE };
    const page = pages[next++];
    // The page's own text, as the service sent it: parsing and serializing it again here cost as
    // much as the client's reading of it.
    return page === undefined ? { body: {} } : { body: page, headers: { "content-type": JSON_TYPE } };
  });
  try {
    const music = new MusicClient({
      baseUrl: server.url,
      auth: c.auth ? TEST_BROWSER_AUTH : undefined,
      retry: false,
      ...client,
    });
    const method = (music as unknown as Record<string, unknown>)[c.call.method];
    if (typeof method !== "function") throw new Error(`MusicClient has no method ${c.call.method}`);
    const result: unknown = await method.call(music, ...c.call.args, c.call.options);
    return { result, requests: server.requests.filter((r) => endpointOf(r.path) !== null) };
  } finally {
    await server.close();
  }
}

/**
 * Where what the client sent differs from what the reference implementation sent. Where the
 * reference failed part-way (`expected` is null), only the requests it got to send are compared:
 * a client that parses further may go on asking for more pages.
 */
export function requestDifferences(c: FixtureCase, sent: readonly SeenRequest[]): string[] {
  const out: string[] = [];
  const referenceStopped = c.expected === null && sent.length > c.requests.length;
  if (sent.length !== c.requests.length && !referenceStopped) {
    out.push(`sent ${sent.length} requests, the reference sent ${c.requests.length}`);
  }
  const count = Math.min(sent.length, c.requests.length);
  for (let i = 0; i < count; i++) {
    const want = c.requests[i] as RecordedRequest;
    const got = sent[i] as SeenRequest;
    const endpoint = endpointOf(got.path);
    if (endpoint !== want.endpoint) out.push(`request ${i}: endpoint ${endpoint}, expected ${want.endpoint}`);
    const { context: _context, ...body } = (got.json ?? {}) as Record<string, unknown>;
    const bodyDiffs = diffValues(want.body, body, `request ${i} body`);
    out.push(...bodyDiffs.diffs);
    const params = extraParams(got.query);
    const matches =
      want.additionalParams === ""
        ? params === ""
        : params.startsWith(want.additionalParams) || params.slice(0, 80) === want.additionalParams;
    if (!matches) out.push(`request ${i}: params ${params.slice(0, 90)}, expected ${want.additionalParams}`);
  }
  return out;
}

export interface Comparison {
  /** Differing paths left after the deliberate differences were taken out. */
  diffs: string[];
  /** Deliberate differences that applied, by entry. */
  excused: Map<Difference, string[]>;
  /** Leaf fields compared (those of the expected value, plus any the result adds). */
  fields: number;
}

/** Compares a result with the reference's, field by field, excusing the listed deliberate differences. */
export function compareResult(c: FixtureCase, actual: unknown): Comparison {
  const expected = loadExpected(c);
  // Through JSON, as the reference's result was: undefined members vanish, dates become strings.
  const normalised: unknown = actual === undefined ? null : JSON.parse(JSON.stringify(actual));
  const { diffs, fields } = diffValues(expected, normalised, "");
  const entries = DIFFERENCES.filter((d) => d.caseId === c.id);
  const excused = new Map<Difference, string[]>();
  const left = diffs.filter((diff) => {
    const path = diff.slice(0, diff.indexOf(":"));
    const entry = entries.find((d) => pathMatches(d.path, path));
    if (!entry) return true;
    excused.set(entry, [...(excused.get(entry) ?? []), diff]);
    return false;
  });
  return { diffs: left, excused, fields };
}

/** Whether a difference's path is covered by an entry: `[*]` stands for any index, sub-paths count. */
export function pathMatches(pattern: string, path: string): boolean {
  const escaped = pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\\\[\\\*\\\]/g, "\\[\\d+\\]");
  return new RegExp(`^${escaped}(?:$|[.[])`).test(path);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function join(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  return base === "" ? key : `${base}.${key}`;
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? "undefined" : text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Differences between two JSON values as `path: expected X, got Y` lines, and the leaf count. */
export function diffValues(
  expected: unknown,
  actual: unknown,
  base: string,
): { diffs: string[]; fields: number } {
  const diffs: string[] = [];
  let fields = 0;
  const walk = (want: unknown, got: unknown, path: string): void => {
    if (Array.isArray(want)) {
      if (!Array.isArray(got)) {
        fields++;
        diffs.push(`${path || "(root)"}: expected an array, got ${show(got)}`);
        return;
      }
      if (want.length !== got.length)
        diffs.push(`${path || "(root)"}: expected ${want.length} items, got ${got.length}`);
      for (let i = 0; i < Math.max(want.length, got.length); i++) {
        if (i >= want.length) {
          fields++;
          continue;
        }
        if (i >= got.length) {
          fields++;
          continue;
        }
        walk(want[i], got[i], join(path, i));
      }
      return;
    }
    if (isRecord(want)) {
      if (!isRecord(got)) {
        fields++;
        diffs.push(`${path || "(root)"}: expected an object, got ${show(got)}`);
        return;
      }
      for (const key of Object.keys(want)) {
        if (!(key in got)) {
          fields++;
          diffs.push(`${join(path, key)}: missing (expected ${show(want[key])})`);
        } else walk(want[key], got[key], join(path, key));
      }
      for (const key of Object.keys(got)) {
        if (!(key in want)) {
          fields++;
          diffs.push(`${join(path, key)}: unexpected field (got ${show(got[key])})`);
        }
      }
      return;
    }
    fields++;
    if (want !== got) diffs.push(`${path || "(root)"}: expected ${show(want)}, got ${show(got)}`);
  };
  walk(expected, actual, base);
  return { diffs, fields };
}
