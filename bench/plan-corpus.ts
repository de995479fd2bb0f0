/**
 * A corpus of 2,956 plans, each rendered as text (plain and -v), Markdown and JSON, digested into one
 * sha256. A refactor that should not change what a person reads runs this before and after: the same
 * digest means every rendering is byte-identical. `--out DIR` also writes each rendering to a file,
 * so two runs that differ can be compared with `diff -r`.
 *
 *   npx tsx bench/plan-corpus.ts [--plans 2956] [--out DIR]
 *
 * The scenarios are drawn from a seeded generator: playlist and likes targets, every mode, both
 * orders, owned and tombstoned rows, missing playlists, skipped items, truncated sources, removal caps
 * and titles with Markdown, quotes and non-Latin letters. Never part of the test run.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { targetKey } from "../engine/plan/core.js";
import { plan } from "../engine/plan/plan.js";
import type { ActualTarget, Desired, Owned, PlanPolicy } from "../engine/plan/types.js";
import { DEFAULT_POLICY } from "../engine/recipe/defaults.js";
import { MODES, type TargetSpec } from "../engine/recipe/types.js";
import { renderPlansJson } from "../engine/render/json.js";
import { renderPlansMarkdown } from "../engine/render/markdown.js";
import { renderPlansText } from "../engine/render/text.js";
import { type Item, makeItem } from "../engine/sources/item.js";

const { values } = parseArgs({
  options: { plans: { type: "string", default: "2956" }, out: { type: "string" } },
});
const count = Number(values.plans);

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 4294967296;
  };
}

const TITLES = [
  "Song",
  "*Bold* _song_",
  "Quote \"it\" 'now'",
  "Pipe | table",
  "Ünïcødé 歌",
  "<b>tag</b> & co",
  "Back`tick`",
];

function scenario(seed: number): {
  desired: Desired;
  actual: ActualTarget;
  owned: Owned;
  policy: PlanPolicy;
} {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const song = (k: number, rank: number, setVideoId: string | null = null): Item =>
    makeItem({
      videoId: `v${String(k).padStart(10, "0")}`,
      title: `${pick(TITLES)} ${k}`,
      artists: [{ name: pick(TITLES), id: null }],
      setVideoId,
      source: setVideoId ? "target" : "s",
      rank,
    });
  const target: TargetSpec =
    next() < 0.8
      ? {
          type: "playlist",
          playlist: {
            id: next() < 0.5 ? "PLcorpus" : null,
            title: pick(TITLES),
            description: next() < 0.5 ? pick(TITLES) : null,
            privacy: pick(["PUBLIC", "PRIVATE", "UNLISTED", null] as const),
          },
          allow_delete: next() < 0.3,
        }
      : { type: "likes", rating: next() < 0.8 ? "LIKE" : "DISLIKE" };
  const wanted = Math.floor(next() * 40);
  const universe = wanted + 20;
  const items = Array.from({ length: wanted }, (_, i) => song(Math.floor(next() * universe), i + 1));
  const rowCount = Math.floor(next() * 40);
  const rows = Array.from({ length: rowCount }, (_, i) =>
    song(Math.floor(next() * universe), i + 1, `S${i}`),
  );
  const exists = target.type !== "playlist" || next() < 0.85;
  const keyOf = (item: Item) => targetKey(target, item);
  const ownedRows = new Set(
    rows
      .filter(() => next() < 0.5)
      .map(keyOf)
      .filter((k) => k !== null),
  );
  const tombstones = new Set(
    items
      .filter(() => next() < 0.1)
      .map(keyOf)
      .filter((k) => k !== null),
  );
  const skipped = items
    .filter(() => next() < 0.1)
    .map((item) => ({ item, reason: pick(["unavailable", "duplicate", "filtered: year < 2000"]) }));
  const desired: Desired = {
    recipe: { id: `recipe-${seed}`, hash: `h${seed}`, account: "default", target },
    items: items.filter((item) => !skipped.some((s) => s.item === item)),
    skipped,
    sourceTotal: wanted + Math.floor(next() * 5),
    truncatedSources: next() < 0.1 ? ["s"] : [],
  };
  const actual: ActualTarget = {
    exists,
    playlistId: exists && target.type === "playlist" ? "PLcorpus" : null,
    title: exists ? pick(TITLES) : null,
    description: null,
    privacy: exists ? "PRIVATE" : null,
    rows: exists ? rows : [],
    truncated: next() < 0.05,
  };
  const policy: PlanPolicy = {
    ...DEFAULT_POLICY,
    mode: pick(MODES),
    order: next() < 0.7 ? "source" : "keep",
    max_removals: pick([0, 3, 100]),
    min_source_items: pick([0, 0, 10]),
    allow_empty: next() < 0.5,
    batch_size: pick([1, 5, 100]),
  };
  return { desired, actual, owned: { playlist: next() < 0.7, rows: ownedRows, tombstones }, policy };
}

const digest = createHash("sha256");
if (values.out) mkdirSync(values.out, { recursive: true });
const counted = { plans: 0, actions: 0, failures: 0 };
for (let seed = 1; seed <= count; seed++) {
  const s = scenario(seed);
  let renderings: string[];
  try {
    const p = plan(s.desired, s.actual, s.owned, s.policy);
    counted.actions += p.actions.length;
    renderings = [
      renderPlansText([p]),
      renderPlansText([p], { verbose: true }),
      renderPlansMarkdown([p], [], { verbose: true }),
      renderPlansJson([p]),
    ];
  } catch (error) {
    // A scenario the planner refuses is part of the corpus too: its message must not change either.
    counted.failures++;
    renderings = [`error: ${(error as Error).message}\n`];
  }
  counted.plans++;
  for (const text of renderings) digest.update(text).update("\u0000");
  if (values.out)
    writeFileSync(join(values.out, `${String(seed).padStart(4, "0")}.txt`), renderings.join("\n=====\n"));
}
console.log(`plans ${counted.plans}, actions ${counted.actions}, refused ${counted.failures}`);
console.log(`sha256 ${digest.digest("hex")}`);
