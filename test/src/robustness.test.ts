import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { MusicApiError } from "../../src/index.js";
import {
  describeWithFixtures,
  type FixtureCase,
  fixtureCases,
  responsePath,
  runCase,
} from "../support/fixtures.js";

/**
 * Damaged responses must never crash a parser with a TypeError: each real capture is mutated
 * (keys deleted, values of the wrong type, arrays truncated) at random places, with a fixed seed so
 * that a failure can be replayed, and every failure must be one of the library's typed errors.
 */

const MUTATIONS = 1200;
const SEED = 20261121;

/** A small seeded PRNG (mulberry32): the same seed gives the same mutations on every machine. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keys on the paths parsers walk: renderers, runs, endpoints, ids and texts. */
const READ_KEYS =
  /Renderer$|^(runs|text|contents|items|tabs|header|title|subtitle|menu|flexColumns|navigationEndpoint|browseEndpoint|watchEndpoint|videoId|browseId|playlistId|continuations|thumbnail|thumbnails)$/;

const WRONG_TYPES: Json[] = [null, 0, "", "text", true, [], {}, [{}], { runs: 1 }];

/** A copy of an array or object node, one level deep (its children shared). */
function shallow(node: Json): Json {
  return Array.isArray(node) ? node.slice() : { ...(node as Record<string, Json>) };
}

/**
 * Walks down a random branch and damages the node it stops at, in a copy: the nodes on the path
 * are copied one level deep, the rest of the tree is shared, so one parse of a page serves every
 * mutation of it (parsing the page again for each cost as much as the client's own reading).
 * Returns the damaged tree and where, for the report.
 */
function mutate(root: Json, random: () => number): { tree: Json; where: string } {
  let parent: Json = root;
  let key: string | number | undefined;
  const path: Array<string | number> = [];
  /** The nodes the path goes through, root first; the last is the damaged node's container. */
  const chain: Json[] = [root];
  for (let depth = 0; depth < 60; depth++) {
    const node = (key === undefined ? parent : (parent as Record<string, Json>)[key as string]) as Json;
    const keys: Array<string | number> = Array.isArray(node)
      ? node.map((_, i) => i)
      : node !== null && typeof node === "object"
        ? Object.keys(node)
        : [];
    if (keys.length === 0 || (depth > 3 && random() < 0.12)) break;
    if (key !== undefined) {
      parent = node;
      chain.push(node);
    }
    // Parsers mostly read first elements (`runs[0]`, `tabs[0]`) and renderer keys: favour them so
    // that the damage lands where it is read, not in the many unread branches of a page.
    const read = Array.isArray(node) ? [0] : keys.filter((k) => READ_KEYS.test(String(k)));
    const pool = read.length > 0 && random() < 0.6 ? read : keys;
    key = pool[Math.floor(random() * pool.length)] as string | number;
    path.push(key);
  }
  if (key === undefined) return { tree: root, where: "(root untouched)" };
  const container = shallow(parent) as Record<string | number, Json>;
  const target = container[key];
  const roll = random();
  let where: string;
  if (Array.isArray(target) && roll < 0.4) {
    container[key] = target.slice(0, Math.floor(target.length * random()));
    where = `${path.join(".")} truncated`;
  } else if (roll < 0.7 && !Array.isArray(container)) {
    delete container[key];
    where = `${path.join(".")} deleted`;
  } else {
    container[key] = WRONG_TYPES[Math.floor(random() * WRONG_TYPES.length)] as Json;
    where = `${path.join(".")} replaced`;
  }
  // The copied container put back in copies of its ancestors, up to a new root.
  let child: Json = container as Json;
  for (let i = chain.length - 2; i >= 0; i--) {
    const copy = shallow(chain[i] as Json) as Record<string | number, Json>;
    copy[path[i] as string | number] = child;
    child = copy as Json;
  }
  return { tree: child, where };
}

describeWithFixtures("damaged captures", () => {
  it(`give only typed errors over ${MUTATIONS} mutations (seed ${SEED})`, async () => {
    const random = prng(SEED);
    const cases = fixtureCases((c) => c.expected !== null);
    const texts = new Map<string, string>();
    const text = (page: string) => {
      let body = texts.get(page);
      if (body === undefined) {
        body = readFileSync(responsePath(page), "utf8");
        texts.set(page, body);
      }
      return body;
    };
    /** Each page parsed once; mutate leaves it as it is. */
    const trees = new Map<string, Json>();
    const parsed = (page: string) => {
      let tree = trees.get(page);
      if (tree === undefined) {
        tree = JSON.parse(text(page)) as Json;
        trees.set(page, tree);
      }
      return tree;
    };
    const crashes: string[] = [];
    let typed = 0;
    let ok = 0;
    for (let i = 0; i < MUTATIONS; i++) {
      const c = cases[Math.floor(random() * cases.length)] as FixtureCase;
      const damaged = Math.floor(random() * c.pages.length);
      const bodies = c.pages.map((page) => text(page));
      const { tree, where } = mutate(parsed(c.pages[damaged] as string), random);
      bodies[damaged] = JSON.stringify(tree);
      try {
        await runCase(c, {}, bodies);
        ok++;
      } catch (error) {
        if (error instanceof MusicApiError) typed++;
        else crashes.push(`#${i} ${c.id} page ${damaged}: ${where}: ${String(error)}`);
      }
    }
    console.log(
      `damaged captures: ${MUTATIONS} mutations, ${ok} parsed, ${typed} typed errors, ${crashes.length} crashes`,
    );
    expect(crashes).toEqual([]);
  }, 300_000);
});
