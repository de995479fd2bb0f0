/**
 * What bench/parse times: the captures of ../shared/fixtures replayed through a MusicClient of a
 * given tree (this one, or another checkout for a before/after in one run), JSON.parse of the same
 * bytes as the floor, and youtubei.js's parser on the same pages. Each tree's result of each case is
 * checked against the reference implementation's, as the client's own tests compare them.
 */

import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Log, Parser } from "youtubei.js";
import { asciiJsonText } from "../src/transport/json-text.js";
import { compareResult, type FixtureCase, fixtureCases } from "../test/support/fixtures.js";
import { BufferDispatcher } from "./buffer-dispatcher.js";

const RESPONSES = fileURLToPath(new URL("../../shared/fixtures/responses/", import.meta.url));

/** A case and the bytes of the pages it is served, in order. */
export interface BenchCase {
  fixture: FixtureCase;
  pages: Buffer[];
}

/** Every case whose reference result exists, with its pages read once. */
export function benchCases(): BenchCase[] {
  return fixtureCases((c) => c.expected !== null).map((fixture) => ({
    fixture,
    pages: fixture.requests
      .map((r) => r.served)
      .filter((page) => !page.startsWith("{}"))
      .map((page) => readFileSync(`${RESPONSES}${page}.json`)),
  }));
}

/** Credentials for the cases that need them; the values are made up, as in the client's tests. */
const AUTH = JSON.stringify({
  cookie: "__Secure-3PAPISID=bench-sapisid-0000; SAPISID=bench-sapisid-0000",
  "x-goog-authuser": "0",
  authorization: "SAPISIDHASH 0_0",
  "x-origin": "https://music.youtube.com",
  "x-goog-visitor-id": "bench-visitor",
});

const VISITOR_PAGE = '<script>ytcfg.set({"VISITOR_DATA":"bench"});</script>';

type Call = (...args: unknown[]) => Promise<unknown>;
interface ClientClass {
  new (options: Record<string, unknown>): object;
}

/** Runs one case through its client and returns the result; the client is made once per case. */
export type CaseRunner = (c: BenchCase) => Promise<unknown>;

/**
 * A runner over the MusicClient of the tree at `root`: its source, compiled as this one is (by
 * tsx), so two trees differ only in their code. Requests are answered from memory, in order, then
 * `{}` (buffer-dispatcher.ts).
 */
export async function treeRunner(root: string): Promise<CaseRunner> {
  const entry = pathToFileURL(`${root.replace(/\/$/, "")}/src/index.ts`).href;
  const { MusicClient } = (await import(entry)) as { MusicClient: ClientClass };
  const clients = new Map<string, { client: object; rewind(): void }>();
  const clientFor = (c: BenchCase) => {
    let next = 0;
    const dispatcher = new BufferDispatcher((request) =>
      request.method === "GET"
        ? { statusCode: 200, body: VISITOR_PAGE }
        : { statusCode: 200, body: c.pages[next++] ?? "{}" },
    );
    const options = { baseUrl: "http://bench.invalid", dispatcher, retry: false };
    const client = new MusicClient(c.fixture.auth ? { ...options, auth: AUTH } : options);
    return { client, rewind: () => (next = 0) };
  };
  return async (c) => {
    const made = clients.get(c.fixture.id) ?? clientFor(c);
    clients.set(c.fixture.id, made);
    made.rewind();
    const method = (made.client as Record<string, unknown>)[c.fixture.call.method];
    if (typeof method !== "function") throw new Error(`MusicClient has no method ${c.fixture.call.method}`);
    return (method as Call).call(made.client, ...c.fixture.call.args, c.fixture.call.options);
  };
}

/** The floor: the case's pages decoded and JSON.parse'd, as any client must. */
export function parseOnly(c: BenchCase): void {
  for (const page of c.pages) JSON.parse(page.toString("utf8"));
}

/**
 * The floor as this tree's transport decodes: JSON.parse of the page as ASCII text (each non-ASCII
 * character escaped, src/transport/json-text.ts) where that is taken, else of its UTF-8 decoding. A
 * client that decodes more cheaply than `parseOnly` gains on that floor without parsing faster.
 */
export function parseAsTransportDecodes(c: BenchCase): void {
  for (const page of c.pages) JSON.parse(asciiJsonText(page, 0) ?? page.toString("utf8"));
}

/** youtubei.js's parser on the same pages (it throws on a page it cannot read). */
export function youtubeiParse(c: BenchCase): void {
  for (const page of c.pages) Parser.parseResponse(JSON.parse(page.toString("utf8")));
}
Log.setLevel(Log.Level.NONE);
Parser.setParserErrorHandler(() => {});

/** How a result compares with the reference's: the fields that differ (deliberate differences excused). */
export function checkResult(c: BenchCase, result: unknown): string[] {
  return compareResult(c.fixture, result).diffs;
}
