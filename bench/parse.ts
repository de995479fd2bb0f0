/**
 * bench/parse — how fast real captures become results, against JSON.parse alone on the same bytes.
 *
 *   npx tsx bench/parse.ts [--rounds N] [--against DIR]
 *
 * Every case of ../shared/fixtures/cases.json whose reference result exists is replayed through a
 * real MusicClient whose dispatcher answers from memory and keeps nothing (no sockets; see
 * buffer-dispatcher.ts for why not undici's MockAgent), so the figure is decoding, JSON.parse,
 * parsing and the client's own per-request work (the credential scrub among it). The floor is
 * decoding and JSON.parse of the same bytes: no parser can go below it. A second floor decodes as
 * this tree's transport does (ASCII text where it can, parse-cases.ts): each tree's ratio to it says
 * how near the parsing itself is, apart from the cheaper decoding.
 *
 * Each result is first checked against the reference implementation's (test/support/fixtures.ts's
 * comparison, its deliberate differences excused): a case whose result differs is marked and left
 * out of the sums. With `--against DIR` the client of another checkout (its src/, compiled the same
 * way) is timed in the same rounds, interleaved (the order turns each round), for a before/after in
 * one run. Every timing, the floor's too, ends with a turn of the event loop, where the collection
 * work it caused runs (see `round`). youtubei.js's parser is timed on the same pages in rounds of
 * its own, with the floor; and ytmusicapi is said to be skipped when python3 cannot import it.
 * Figures are medians over the rounds: per case, and of each round's sum.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { commandLine } from "./args.js";
import {
  type BenchCase,
  benchCases,
  type CaseRunner,
  checkResult,
  parseAsTransportDecodes,
  parseOnly,
  treeRunner,
  youtubeiParse,
} from "./parse-cases.js";

const { numbers, texts } = commandLine({
  script: "bench/parse",
  numbers: { rounds: { default: 20 } },
  texts: { against: "" },
});

interface Contender {
  name: string;
  run: (c: BenchCase) => unknown;
  /** Cases whose result is wrong (or that failed), with why: marked, and out of the sums. */
  wrong: Map<string, string>;
  /** Milliseconds per case id, one per round. */
  times: Map<string, number[]>;
}

function contender(name: string, run: (c: BenchCase) => unknown): Contender {
  return { name, run, wrong: new Map(), times: new Map() };
}

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** A tree's client as a contender whose every case was checked against the reference's result. */
async function checkedTree(name: string, root: string, cases: readonly BenchCase[]): Promise<Contender> {
  const run: CaseRunner = await treeRunner(root);
  const tree = contender(name, run);
  for (const c of cases) {
    try {
      const diffs = checkResult(c, await run(c));
      if (diffs.length > 0)
        tree.wrong.set(c.fixture.id, `${diffs.length} fields differ: ${diffs.slice(0, 3).join("; ")}`);
    } catch (error) {
      tree.wrong.set(c.fixture.id, `failed: ${(error as Error).message}`);
    }
  }
  return tree;
}

/** youtubei.js's parser, where it is installed; a page it throws on marks its case. */
function youtubei(cases: readonly BenchCase[]): Contender {
  const yt = contender("youtubei.js", youtubeiParse);
  for (const c of cases) {
    try {
      youtubeiParse(c);
    } catch (error) {
      yt.wrong.set(c.fixture.id, `youtubei.js threw: ${String(error).slice(0, 80)}`);
    }
  }
  return yt;
}

/** One turn of the event loop: where V8 runs collection work it posted as tasks. */
const turnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * One round: each case timed for the floor and every contender, in an order that turns each round.
 * Each timing ends with a turn of the event loop. The collector's work that a contender's
 * allocation starts (incremental marking, its finish) is partly posted as tasks, which run only
 * on such a turn: the floor never yields, so the contender after it paid for the floor's, always
 * the same one as the order turns (one tree timed in both places read 1.19× the floor's CPU
 * right after it, 1.09× in the other place). With the turn, each pays for its own.
 */
async function round(cases: readonly BenchCase[], floor: Contender, others: Contender[], turn: number) {
  for (const c of cases) {
    const order = [floor, ...others];
    for (let i = 0; i < turn % order.length; i++) order.push(order.shift() as Contender);
    for (const who of order) {
      if (who.wrong.has(c.fixture.id)) continue; // marked in the report, never timed
      const started = performance.now();
      await who.run(c);
      await turnOfTheLoop();
      const took = performance.now() - started;
      const list = who.times.get(c.fixture.id) ?? [];
      list.push(took);
      who.times.set(c.fixture.id, list);
    }
  }
}

/** The median over rounds of the sum over `ids` of a contender's times. */
function summed(who: Contender, ids: readonly string[], rounds: number): number {
  const totals: number[] = [];
  for (let r = 0; r < rounds; r++)
    totals.push(ids.reduce((sum, id) => sum + (who.times.get(id)?.[r] ?? 0), 0));
  return median(totals);
}

function ytmusicapiLine(): string {
  try {
    execFileSync("python3", ["-c", "import ytmusicapi"], { stdio: "ignore" });
  } catch {
    return "ytmusicapi: not installed (python3 cannot import it); skipped";
  }
  return "ytmusicapi: installed, but this bench has no Python runner for it yet; skipped";
}

function report(cases: readonly BenchCase[], floor: Contender, trees: Contender[], rounds: number): void {
  const bytes = cases.reduce((n, c) => n + c.pages.reduce((m, p) => m + p.length, 0), 0);
  const auth = cases.filter((c) => c.fixture.auth).length;
  console.log(
    `corpus: ${cases.length} cases (${auth} with credentials), ${(bytes / 1e6).toFixed(1)} MB per round; ` +
      `${rounds} rounds, medians; floor = decode + JSON.parse of the same bytes`,
  );
  for (const who of trees) {
    const right = cases.length - who.wrong.size;
    console.log(
      `results: ${who.name}: ${right}/${cases.length} cases as the reference's (deliberate differences excused)`,
    );
    for (const [id, why] of who.wrong) console.log(`  ✗ ${id}: ${why}`);
  }
  console.log(`sum (median of the rounds' sums): floor ${summed(floor, all(cases), rounds).toFixed(1)} ms`);
  for (const who of trees) sumLine(cases, floor, who, rounds);
}

const all = (cases: readonly BenchCase[]) => cases.map((c) => c.fixture.id);

/** A contender's sum over the cases it got right, as a ratio to the floor's over the same cases. */
function sumLine(cases: readonly BenchCase[], floor: Contender, who: Contender, rounds: number): void {
  const ids = all(cases).filter((id) => !who.wrong.has(id));
  const ratio = summed(who, ids, rounds) / summed(floor, ids, rounds);
  const failed = who.wrong.size === 0 ? "" : ` (${who.wrong.size} left out: ✗ below)`;
  console.log(`  ${who.name}: ${ratio.toFixed(3)}× the floor over ${ids.length} cases${failed}`);
}

/** Per case: the floor's median and each contender's ratio to it, worst first by the first contender. */
function perCase(
  cases: readonly BenchCase[],
  floor: Contender,
  others: Contender[],
  ytFloor: Contender,
): void {
  const ratio = (who: Contender, id: string) =>
    median(who.times.get(id) ?? []) /
    median((who.name === "youtubei.js" ? ytFloor : floor).times.get(id) ?? []);
  const first = others[0] as Contender;
  const rank = (id: string) => (first.times.has(id) ? ratio(first, id) : Number.POSITIVE_INFINITY);
  const rows = [...cases].sort((a, b) => rank(b.fixture.id) - rank(a.fixture.id));
  console.log(
    "per case (floor ms; ratio to it, youtubei.js's to the floor of its own rounds; ✗ = wrong, not timed):",
  );
  console.log(
    `  ${"case".padEnd(58)} ${"floor".padStart(8)} ${others.map((o) => o.name.padStart(14)).join(" ")}`,
  );
  for (const c of rows) {
    const id = c.fixture.id;
    const cells = others.map(
      (o) => `${o.wrong.has(id) ? "✗" : " "}${(o.times.has(id) ? ratio(o, id).toFixed(2) : "").padStart(13)}`,
    );
    const auth = c.fixture.auth ? " (auth)" : "";
    console.log(
      `  ${`${id}${auth}`.padEnd(58)} ${median(floor.times.get(id) ?? [])
        .toFixed(2)
        .padStart(8)} ${cells.join(" ")}`,
    );
  }
}

/** Warm-up rounds (the JIT sees every path), then the timed ones; the floor is timed in each. */
async function timed(cases: readonly BenchCase[], floor: Contender, others: Contender[], rounds: number) {
  for (let i = 0; i < 3; i++) await round(cases, floor, others, i);
  for (const who of [floor, ...others]) who.times.clear();
  for (let r = 0; r < rounds; r++) await round(cases, floor, others, r);
}

async function main(): Promise<void> {
  const cases = benchCases();
  const here = fileURLToPath(new URL("..", import.meta.url));
  const trees = [await checkedTree("this tree", here, cases)];
  if (texts.against !== "") trees.push(await checkedTree(texts.against, texts.against, cases));
  const floor = contender("floor", parseOnly);
  const decodedAsTransport = contender("floor decoded as the transport does", parseAsTransportDecodes);
  await timed(cases, floor, [...trees, decodedAsTransport], numbers.rounds);
  // The results once more, after the timing: a client that goes wrong only when warm is caught too.
  for (const who of trees) {
    for (const c of cases) {
      if (who.wrong.has(c.fixture.id)) continue;
      const diffs = checkResult(c, await who.run(c));
      if (diffs.length > 0) who.wrong.set(c.fixture.id, `after timing, ${diffs.length} fields differ`);
    }
  }
  // youtubei.js in rounds of its own: its garbage, collected during a tree's turn, would be billed to
  // the tree (measured: whichever ran after it lost up to a third). Its floor is timed alongside it.
  const yt = youtubei(cases);
  const ytFloor = contender("floor", parseOnly);
  await timed(cases, ytFloor, [yt], numbers.rounds);
  report(cases, floor, trees, numbers.rounds);
  sumLine(cases, floor, decodedAsTransport, numbers.rounds);
  console.log(`against the floor decoded as this tree's transport does:`);
  for (const who of trees) sumLine(cases, decodedAsTransport, who, numbers.rounds);
  console.log(
    `youtubei.js's parser on the same pages (${cases.length - yt.wrong.size}/${cases.length} cases parsed):`,
  );
  sumLine(cases, ytFloor, yt, numbers.rounds);
  console.log(ytmusicapiLine());
  perCase(cases, floor, [...trees, yt], ytFloor);
  // maxRSS is in kibibytes: the whole run's peak, corpus and warm-up included.
  console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
}

await main();
