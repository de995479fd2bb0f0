/**
 * bench/parse — how fast real captures become results, against JSON.parse alone on the same bytes.
 *
 *   npx tsx bench/parse.ts [--rounds N]
 *
 * Every case of ../shared/fixtures/cases.json whose reference result exists is replayed through a
 * real MusicClient whose dispatcher answers from memory and keeps nothing (no sockets; see
 * buffer-dispatcher.ts for why not undici's MockAgent), so the figure is JSON.parse + parsing + the
 * client's own per-request work. The floor is JSON.parse of the same bytes: no parser can go below
 * it. Prints MB/s of both and their ratio (target ≤ 1.3), the slowest operations, and the process's
 * peak RSS.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MusicClient } from "../src/index.js";
import { commandLine } from "./args.js";
import { BufferDispatcher } from "./buffer-dispatcher.js";

const FIXTURES = fileURLToPath(new URL("../../shared/fixtures/", import.meta.url));
const { rounds } = commandLine({ script: "bench/parse", numbers: { rounds: { default: 20 } } }).numbers;

interface Case {
  id: string;
  operation: string;
  call: { method: string; args: unknown[]; options: Record<string, unknown> };
  auth: boolean;
  requests: Array<{ served: string }>;
  expected: string | null;
}

const AUTH = JSON.stringify({
  cookie: "__Secure-3PAPISID=bench-sapisid-0000; SAPISID=bench-sapisid-0000",
  "x-goog-authuser": "0",
  authorization: "SAPISIDHASH 0_0",
  "x-origin": "https://music.youtube.com",
  "x-goog-visitor-id": "bench-visitor",
});

const cases = (JSON.parse(readFileSync(`${FIXTURES}cases.json`, "utf8")) as Case[]).filter((c) => c.expected);
const served = new Map<string, Buffer[]>();
for (const c of cases) {
  const pages = c.requests
    .map((r) => r.served)
    .filter((page) => !page.startsWith("{}"))
    .map((page) => readFileSync(`${FIXTURES}responses/${page}.json`));
  served.set(c.id, pages);
}

const VISITOR_PAGE = '<script>ytcfg.set({"VISITOR_DATA":"bench"});</script>';

/** A client whose requests are answered from memory, in order, then `{}`; `rewind` starts over. */
function clientFor(c: Case): { client: MusicClient; rewind(): void } {
  const pages = served.get(c.id) ?? [];
  let next = 0;
  const dispatcher = new BufferDispatcher((request) =>
    request.method === "GET"
      ? { statusCode: 200, body: VISITOR_PAGE }
      : { statusCode: 200, body: pages[next++] ?? "{}" },
  );
  const client = new MusicClient({
    baseUrl: "http://bench.invalid",
    dispatcher,
    auth: c.auth ? AUTH : undefined,
    retry: false,
  });
  return { client, rewind: () => (next = 0) };
}

// One client per case, made once: the per-run figure is requests and parsing, not construction.
const clients = new Map(cases.map((c) => [c.id, clientFor(c)]));

async function run(c: Case): Promise<void> {
  const { client, rewind } = clients.get(c.id) as ReturnType<typeof clientFor>;
  rewind();
  const method = (client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[
    c.call.method
  ];
  if (typeof method !== "function") throw new Error(`MusicClient has no method ${c.call.method}`);
  await method.call(client, ...c.call.args, c.call.options);
}

const runnable: Case[] = [];
for (const c of cases) {
  try {
    await run(c);
    runnable.push(c);
  } catch (error) {
    console.log(`skipped ${c.id}: ${(error as Error).message}`);
  }
}

let bytes = 0;
for (const c of runnable) for (const page of served.get(c.id) ?? []) bytes += page.length;

// Warm both paths so the JIT has seen them, then time whole rounds.
for (let i = 0; i < 3; i++) {
  for (const c of runnable) {
    for (const page of served.get(c.id) ?? []) JSON.parse(page.toString("utf8"));
    await run(c);
  }
}

const perOperation = new Map<string, { parse: number; total: number }>();
let floor = 0;
let total = 0;
for (let round = 0; round < rounds; round++) {
  for (const c of runnable) {
    const pages = served.get(c.id) ?? [];
    let t = performance.now();
    for (const page of pages) JSON.parse(page.toString("utf8"));
    const parseOnly = performance.now() - t;
    t = performance.now();
    await run(c);
    const whole = performance.now() - t;
    floor += parseOnly;
    total += whole;
    const entry = perOperation.get(c.operation) ?? { parse: 0, total: 0 };
    entry.parse += parseOnly;
    entry.total += whole;
    perOperation.set(c.operation, entry);
  }
}

const mb = (bytes * rounds) / 1e6;
console.log(
  `corpus: ${runnable.length}/${cases.length} cases, ${(bytes / 1e6).toFixed(1)} MB served per round, ${rounds} rounds`,
);
console.log(`JSON.parse alone:   ${(mb / (floor / 1000)).toFixed(1)} MB/s`);
console.log(`bytes -> results:   ${(mb / (total / 1000)).toFixed(1)} MB/s`);
console.log(`ratio to JSON.parse: ${(total / floor).toFixed(3)} (target <= 1.3)`);
const slowest = [...perOperation.entries()].sort((a, b) => b[1].total / b[1].parse - a[1].total / a[1].parse);
console.log("per operation (ratio):");
for (const [operation, { parse, total: t }] of slowest)
  console.log(`  ${operation.padEnd(28)} ${(t / parse).toFixed(2)}`);
// maxRSS is in kibibytes: the whole run's peak, corpus and warm-up included.
console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
