/** The pipeline steps other than combine and filter, each a pure function of the stream. */
import type { DedupeKey, ShufflePeriod, SortKey } from "../recipe/types.js";
import type { Item } from "../sources/item.js";
import { isoWeek, parseServiceDate } from "./dates.js";
import { itemKey, type StepResult } from "./types.js";

const DAY_MS = 86_400_000;

export function since(items: readonly Item[], days: number, now: Date): StepResult {
  const from = now.getTime() - days * DAY_MS;
  const result: StepResult = { items: [], skipped: [] };
  for (const item of items) {
    const at = parseServiceDate(item.date, now);
    if (at === null) result.skipped.push({ item, reason: "no date" });
    else if (at < from) result.skipped.push({ item, reason: `older than ${days} days` });
    else result.items.push(item);
  }
  return result;
}

/**
 * Folds a title to what stays the same across releases of one recording: case, accents, bracketed
 * notes ("(Remastered 2009)", "[Official Video]") and a trailing " - Remastered…" are dropped.
 */
export function normaliseTitle(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/\([^)]*\)|\[[^\]]*\]/g, " ")
    .replace(/\s-\s.*(remaster|version|edit|mix|live|mono|stereo).*$/, " ")
    .replace(/\b(feat|ft)\.?\s.*$/, " ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function dedupeKey(item: Item, by: DedupeKey): string | null {
  if (by === "videoId") return itemKey(item);
  const artist = item.artists[0]?.name ?? "";
  return `${normaliseTitle(item.title ?? "")}\u0000${normaliseTitle(artist)}`;
}

export function dedupe(items: readonly Item[], by: DedupeKey): StepResult {
  const first = new Map<string, Item>();
  const result: StepResult = { items: [], skipped: [] };
  for (const item of items) {
    const k = dedupeKey(item, by);
    const earlier = k === null ? undefined : first.get(k);
    if (earlier) {
      result.skipped.push({
        item,
        reason: `duplicate of ${earlier.videoId ?? "an earlier item"} (#${earlier.rank} of ${earlier.source})`,
      });
      continue;
    }
    if (k !== null) first.set(k, item);
    result.items.push(item);
  }
  return result;
}

export interface ExcludeSets {
  /** Keys from other sources, with the source that named each. */
  sources: ReadonlyMap<string, string>;
  liked: ReadonlySet<string> | null;
  tombstones: ReadonlySet<string> | null;
}

export function exclude(items: readonly Item[], sets: ExcludeSets): StepResult {
  const result: StepResult = { items: [], skipped: [] };
  for (const item of items) {
    const k = itemKey(item);
    if (k !== null && sets.sources.has(k))
      result.skipped.push({ item, reason: `excluded by source "${sets.sources.get(k)}"` });
    else if (k !== null && sets.liked?.has(k)) result.skipped.push({ item, reason: "already liked" });
    else if (k !== null && sets.tombstones?.has(k)) result.skipped.push({ item, reason: "tombstoned" });
    else result.items.push(item);
  }
  return result;
}

function text(s: string | null | undefined): string {
  return (s ?? "").toLocaleLowerCase("en-US");
}

export function sortItems(items: readonly Item[], by: SortKey, order: "asc" | "desc", now: Date): StepResult {
  const sign = order === "asc" ? 1 : -1;
  // Missing values sort last in either order, so a `desc` sort does not lead with blanks.
  const numeric = (get: (i: Item) => number | null) => (a: Item, b: Item) => {
    const x = get(a);
    const y = get(b);
    if (x === null || y === null) return (x === null ? 1 : 0) - (y === null ? 1 : 0);
    return sign * (x - y);
  };
  const textual = (get: (i: Item) => string) => (a: Item, b: Item) =>
    sign * get(a).localeCompare(get(b), "en");
  const compare = {
    title: textual((i) => text(i.title)),
    artist: textual((i) => text(i.artists[0]?.name)),
    album: textual((i) => text(i.album?.name)),
    duration: numeric((i) => i.duration_seconds),
    date: numeric((i) => parseServiceDate(i.date, now)),
    rank: numeric((i) => i.rank),
  }[by];
  // Array.prototype.sort is stable: ties keep stream order.
  return { items: [...items].sort(compare), skipped: [] };
}

/** The calendar date of an instant in a time zone, as a UTC midnight (null zone = UTC). */
function localDay(now: Date, timeZone: string | null): Date {
  if (!timeZone) return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return new Date(Date.UTC(get("year"), get("month") - 1, get("day")));
}

/**
 * The period a shuffle is stable within, as text that changes when the period does. Days and
 * weeks are counted in the recipe's time zone, so a Monday-morning run in Berlin is in the new week.
 */
export function periodKey(period: ShufflePeriod, now: Date, timeZone: string | null = null): string {
  if (period === "run") return now.toISOString();
  const day = localDay(now, timeZone);
  switch (period) {
    case "day":
      return day.toISOString().slice(0, 10);
    case "week":
      return isoWeek(day);
    case "month":
      return day.toISOString().slice(0, 7);
  }
}

/** 32-bit FNV-1a of a string: the seed of the generator below. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A small deterministic generator (splitmix32): same seed, same sequence, on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) | 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    z ^= z >>> 16;
    return (z >>> 0) / 4294967296;
  };
}

/** Fisher–Yates with a seed from recipe, period and the step's own seed text. */
export function shuffle(items: readonly Item[], seedText: string): StepResult {
  const out = [...items];
  const random = seededRandom(hashSeed(seedText));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return { items: out, skipped: [] };
}

export function limit(items: readonly Item[], count: number): StepResult {
  return {
    items: items.slice(0, count),
    skipped: items.slice(count).map((item) => ({ item, reason: `over the limit of ${count}` })),
  };
}
