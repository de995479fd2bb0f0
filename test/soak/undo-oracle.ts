/**
 * The undo soak's oracle. Pure: from three readings of one target — before the run (B), just after
 * it (A) and just before the undo (C) — it says what the target must hold after the undo, and
 * compares a fourth reading with that.
 *
 * The rule, item by item (a row, known by its setVideoId; a song's rating; a playlist field): an
 * item still as the run left it (C = A) goes back to what it was before the run (B); an item changed
 * since (by the person, or by a later run) is left as it is now (C). So the run's rows still there
 * go, the rows it removed come back unless the same video came back since, and rows added since
 * stay. Order is judged only for rows whose place is not in doubt: rows nobody moved since the run
 * keep the order they had before it, and rows the undo puts back sit where they were among those.
 */
import { longestIncreasingSubsequence } from "../../engine/plan/lis.js";
import type { Found, Row } from "./invariants.js";

export interface PlaylistMeta {
  title: string | null;
  description: string | null;
  privacy: string | null;
}

/** One reading of a target, fault-free, as the person sees it. */
export interface Snapshot {
  kind: "playlist" | "ratings";
  /** Playlists: whether it exists (a first run creates it). Ratings: always true. */
  exists: boolean;
  /** Playlists: the rows in order. */
  rows: Row[];
  meta: PlaylistMeta | null;
  /** Ratings targets: every rated song's rating (absent = INDIFFERENT). */
  ratings: Map<string, string>;
}

export interface Expected {
  /** Whether the playlist must exist afterwards; null = not judged. */
  exists: boolean | null;
  /** Rows per videoId (absent = none). */
  counts: Map<string, number>;
  /** The videoIds whose relative order is determined, in that order. */
  order: string[];
  /** Per field: the value it must have (undefined = not judged). */
  meta: Partial<PlaylistMeta>;
  ratings: Map<string, string>;
}

export interface OracleOptions {
  /** The undo was asked to delete a playlist the run created. */
  deleteCreated: boolean;
  /** VideoIds the person added, removed or moved by hand since the run: their places are not judged. */
  touched: ReadonlySet<string>;
}

export function countsOf(rows: readonly Row[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of rows) out.set(r.videoId, (out.get(r.videoId) ?? 0) + 1);
  return out;
}

/** The item rule: back to `before` unless it changed since the run. */
function restored<T>(before: T, after: T, now: T): T {
  return now === after ? before : now;
}

/**
 * Rows by identity (setVideoId): the run's rows still there go, the rows it removed come back —
 * unless a row of the same video appeared since (the person's or a later run's), which stands in.
 */
function expectedCounts(b: Snapshot, a: Snapshot, c: Snapshot): Map<string, number> {
  const inB = new Set(b.rows.map((r) => r.setVideoId));
  const inA = new Set(a.rows.map((r) => r.setVideoId));
  const out = new Map<string, number>();
  const since = new Map<string, number>();
  const bump = (m: Map<string, number>, v: string, n: number) => m.set(v, (m.get(v) ?? 0) + n);
  for (const r of c.rows) {
    if (inA.has(r.setVideoId) && !inB.has(r.setVideoId)) continue;
    bump(out, r.videoId, 1);
    if (!inA.has(r.setVideoId) && !inB.has(r.setVideoId)) bump(since, r.videoId, 1);
  }
  for (const r of b.rows) {
    if (inA.has(r.setVideoId)) continue;
    if ((since.get(r.videoId) ?? 0) > 0) bump(since, r.videoId, -1);
    else bump(out, r.videoId, 1);
  }
  return out;
}

/** Of the rows (setVideoIds) in both A and C, those that kept their relative order (nobody moved them). */
function unmoved(a: readonly Row[], c: readonly Row[], among: ReadonlySet<string>): Set<string> {
  const inC = c.map((r) => r.setVideoId).filter((sid) => among.has(sid));
  const posInA = new Map(a.map((r, i) => [r.setVideoId, i]));
  const positions = inC.map((sid) => posInA.get(sid)!);
  return new Set(longestIncreasingSubsequence(positions).map((i) => inC[i]!));
}

/**
 * Rows the order is judged for: rows there before, after and now, unmoved since the run and
 * untouched by hand (in B's order), plus rows the undo puts back whose nearest such neighbours
 * before the run are judged rows too. Only videos with one row, so that a row is known by its video.
 */
function expectedOrder(b: Snapshot, a: Snapshot, c: Snapshot, counts: Map<string, number>, o: OracleOptions) {
  if (!b.exists) return [];
  const [cb, cc] = [countsOf(b.rows), countsOf(c.rows)];
  const clear = (v: string) => cb.get(v) === 1 && counts.get(v) === 1 && !o.touched.has(v);
  const inA = new Set(a.rows.map((r) => r.setVideoId));
  const inC = new Set(c.rows.map((r) => r.setVideoId));
  const everywhere = new Set(b.rows.map((r) => r.setVideoId).filter((sid) => inA.has(sid) && inC.has(sid)));
  const stable = unmoved(a.rows, c.rows, everywhere);
  const kept = new Set(
    b.rows.filter((r) => stable.has(r.setVideoId) && clear(r.videoId)).map((r) => r.videoId),
  );
  const back = new Set(
    b.rows
      .filter((r) => !inA.has(r.setVideoId) && !cc.has(r.videoId) && clear(r.videoId))
      .map((r) => r.videoId),
  );
  const bOrder = b.rows.map((r) => r.videoId);
  const anchored = (i: number, step: number) => {
    for (let j = i + step; j >= 0 && j < bOrder.length; j += step) {
      const v = bOrder[j]!;
      if (back.has(v)) continue;
      return kept.has(v);
    }
    return true;
  };
  return bOrder.filter((v, i) => kept.has(v) || (back.has(v) && anchored(i, -1) && anchored(i, 1)));
}

function expectedMeta(b: Snapshot, a: Snapshot, c: Snapshot): Partial<PlaylistMeta> {
  if (!c.meta || !a.meta) return {};
  // A playlist the run created had no fields before it: what it has now stays.
  if (!b.exists || !b.meta) return { ...c.meta };
  const out: Partial<PlaylistMeta> = {};
  for (const f of ["title", "description", "privacy"] as const)
    out[f] = restored(b.meta[f], a.meta[f], c.meta[f]);
  return out;
}

function expectedRatings(b: Snapshot, a: Snapshot, c: Snapshot): Map<string, string> {
  const out = new Map<string, string>();
  const get = (s: Snapshot, k: string) => s.ratings.get(k) ?? "INDIFFERENT";
  for (const k of new Set([...b.ratings.keys(), ...a.ratings.keys(), ...c.ratings.keys()])) {
    const r = restored(get(b, k), get(a, k), get(c, k));
    if (r !== "INDIFFERENT") out.set(k, r);
  }
  return out;
}

/** What the target must hold after undoing the run that took it from `b` to `a`, read as `c` before the undo. */
export function expectAfterUndo(b: Snapshot, a: Snapshot, c: Snapshot, o: OracleOptions): Expected {
  if (b.kind === "ratings")
    return { exists: true, counts: new Map(), order: [], meta: {}, ratings: expectedRatings(b, a, c) };
  const counts = expectedCounts(b, a, c);
  const created = !b.exists && a.exists;
  // Deleting a playlist the person has since put rows in (or edited) may be refused: not judged.
  const untouched = created && counts.size === 0 && sameMeta(a, c);
  const exists = created && o.deleteCreated ? (untouched ? false : null) : a.exists || c.exists;
  return {
    exists,
    counts,
    order: expectedOrder(b, a, c, counts, o),
    meta: expectedMeta(b, a, c),
    ratings: new Map(),
  };
}

function sameMeta(a: Snapshot, c: Snapshot): boolean {
  return JSON.stringify(a.meta) === JSON.stringify(c.meta);
}

const list = (xs: Iterable<string>) => {
  const all = [...xs];
  return `${all.slice(0, 8).join(", ")}${all.length > 8 ? `, … ${all.length} in all` : ""}`;
};

function membershipFindings(e: Expected, got: Snapshot, prefix: string): Found[] {
  const counts = countsOf(got.rows);
  const wrong: string[] = [];
  for (const v of new Set([...e.counts.keys(), ...counts.keys()])) {
    const [want, have] = [e.counts.get(v) ?? 0, counts.get(v) ?? 0];
    if (want !== have) wrong.push(`${v} ${have} (want ${want})`);
  }
  return wrong.length === 0 ? [] : [{ invariant: `${prefix}-membership`, detail: `rows: ${list(wrong)}` }];
}

function orderFindings(e: Expected, got: Snapshot, prefix: string): Found[] {
  const judged = new Set(e.order);
  const seen = new Set<string>();
  const order = got.rows.map((r) => r.videoId).filter((v) => judged.has(v) && !seen.has(v) && seen.add(v));
  // A row missing is a membership finding already; order is compared over the rows both hold.
  const common = new Set(order);
  const want = e.order.filter((v) => common.has(v));
  return want.join() === order.join()
    ? []
    : [{ invariant: `${prefix}-order`, detail: `order [${list(order)}], want [${list(want)}]` }];
}

function metaFindings(e: Expected, got: Snapshot, prefix: string): Found[] {
  const out: Found[] = [];
  for (const f of ["title", "description", "privacy"] as const) {
    const want = e.meta[f];
    if (want === undefined) continue;
    const have = got.meta?.[f] ?? null;
    if (have !== want)
      out.push({
        invariant: `${prefix}-metadata`,
        detail: `${f} ${JSON.stringify(have)}, want ${JSON.stringify(want)}`,
      });
  }
  return out;
}

function ratingFindings(e: Expected, got: Snapshot, prefix: string): Found[] {
  const wrong: string[] = [];
  for (const k of new Set([...e.ratings.keys(), ...got.ratings.keys()])) {
    const [want, have] = [e.ratings.get(k) ?? "INDIFFERENT", got.ratings.get(k) ?? "INDIFFERENT"];
    if (want !== have) wrong.push(`${k} ${have} (want ${want})`);
  }
  return wrong.length === 0 ? [] : [{ invariant: `${prefix}-ratings`, detail: list(wrong) }];
}

/** The broken promises of one undo (prefix `undo`) or of undoing it again (`redo`). */
export function compareUndo(e: Expected, got: Snapshot, prefix: string): Found[] {
  if (got.kind === "ratings") return ratingFindings(e, got, prefix);
  if (e.exists !== null && e.exists !== got.exists)
    return [
      {
        invariant: `${prefix}-exists`,
        detail: `the playlist ${got.exists ? "exists" : "is gone"}, want it ${e.exists ? "kept" : "deleted"}`,
      },
    ];
  if (!got.exists) return [];
  return [
    ...membershipFindings(e, got, prefix),
    ...orderFindings(e, got, prefix),
    ...metaFindings(e, got, prefix),
  ];
}
