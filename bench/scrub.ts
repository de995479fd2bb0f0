/**
 * bench/scrub — the credential scrub alone (Redactor.text, which every response body of a client
 * with credentials passes through before JSON.parse), against JSON.parse of the same text.
 *
 *   npx tsx bench/scrub.ts [--rounds N] [--against DIR]
 *
 * Every capture of ../shared/fixtures/responses, with browser credentials' secrets (a cookie, its
 * SAPISID, eight recent SAPISIDHASH values). With `--against DIR` another checkout's scrubber is
 * timed in the same rounds, the order turning each round. Medians of the rounds' sums.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Redactor } from "../shared/redact.js";
import { commandLine } from "./args.js";

const { numbers, texts } = commandLine({
  script: "bench/scrub",
  numbers: { rounds: { default: 20 } },
  texts: { against: "" },
});

const RESPONSES = fileURLToPath(new URL("../../shared/fixtures/responses/", import.meta.url));
const pages = readdirSync(RESPONSES)
  .filter((name) => name.endsWith(".json"))
  .map((name) => readFileSync(`${RESPONSES}${name}`, "utf8"));
const cookie = "__Secure-3PAPISID=bench-sapisid-0000; SAPISID=bench-sapisid-0000";
const hashes = Array.from({ length: 8 }, (_, i) => `SAPISIDHASH ${1700000000 + i}_${"ab12".repeat(10)}`);
const secrets = [cookie, "bench-sapisid-0000", ...hashes];

type Scrub = (text: string) => string;
const mine = new Redactor(() => secrets);
const scrubbers: [string, Scrub][] = [["this tree", (t) => mine.text(t)]];
if (texts.against !== "") {
  const url = pathToFileURL(`${texts.against.replace(/\/$/, "")}/shared/redact.ts`).href;
  const { Redactor: Theirs } = (await import(url)) as { Redactor: typeof Redactor };
  const theirs = new Theirs(() => secrets);
  scrubbers.push([texts.against, (t) => theirs.text(t)]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
const parseTimes: number[] = [];
const scrubTimes = scrubbers.map((): number[] => []);
for (let round = -3; round < numbers.rounds; round++) {
  let parse = 0;
  const sums = scrubbers.map(() => 0);
  for (const text of pages) {
    let started = performance.now();
    JSON.parse(text);
    parse += performance.now() - started;
    for (let k = 0; k < scrubbers.length; k++) {
      const i = (k + Math.max(0, round)) % scrubbers.length;
      started = performance.now();
      (scrubbers[i] as [string, Scrub])[1](text);
      sums[i] = (sums[i] as number) + performance.now() - started;
    }
  }
  if (round < 0) continue; // warm-up
  parseTimes.push(parse);
  for (const [i, sum] of sums.entries()) scrubTimes[i]?.push(sum);
}

const chars = pages.reduce((n, t) => n + t.length, 0);
console.log(
  `${pages.length} pages, ${(chars / 1e6).toFixed(1)} M characters; ${numbers.rounds} rounds, medians`,
);
console.log(`JSON.parse: ${median(parseTimes).toFixed(1)} ms`);
scrubbers.forEach(([name], i) => {
  const ms = median(scrubTimes[i] as number[]);
  console.log(`scrub, ${name}: ${ms.toFixed(1)} ms, ${(ms / median(parseTimes)).toFixed(3)}× JSON.parse`);
});
