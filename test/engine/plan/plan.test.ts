import { describe, expect, it } from "vitest";
import { longestIncreasingSubsequence } from "../../../engine/plan/lis.js";
import { plan } from "../../../engine/plan/plan.js";
import type {
  ActualTarget,
  Desired,
  Owned,
  Plan,
  PlanAction,
  PlanPolicy,
} from "../../../engine/plan/types.js";
import { DEFAULT_POLICY } from "../../../engine/recipe/defaults.js";
import { deepFreeze } from "../../../engine/recipe/freeze.js";
import type { Mode, TargetSpec } from "../../../engine/recipe/types.js";
import type { Item } from "../../../engine/sources/item.js";
import { list, rows, track, vid } from "../support/fixtures.js";

const playlistTarget: TargetSpec = {
  type: "playlist",
  playlist: { id: "PLx", title: null, description: null, privacy: null },
  allow_delete: false,
};

function desired(items: Item[], extra: Partial<Desired> = {}, target: TargetSpec = playlistTarget): Desired {
  return {
    recipe: { id: "r", hash: "h", account: "default", target },
    items,
    skipped: [],
    sourceTotal: items.length,
    truncatedSources: [],
    ...extra,
  };
}

function actual(r: Item[], extra: Partial<ActualTarget> = {}): ActualTarget {
  return {
    exists: true,
    playlistId: "PLx",
    title: null,
    description: null,
    privacy: null,
    rows: r,
    truncated: false,
    ...extra,
  };
}

const nobody: Owned = { playlist: true, rows: new Set(), tombstones: new Set() };

function policy(mode: Mode, extra: Partial<PlanPolicy> = {}): PlanPolicy {
  return { ...DEFAULT_POLICY, max_removals: 10_000, mode, ...extra };
}

function ops(p: Plan): string[] {
  return p.lines.map((l) => `${l.op} ${l.label}${l.reason ? ` (${l.reason})` : ""}`);
}

/** Applies a plan's playlist actions to a list of rows the way the service would. */
function simulate(start: readonly Item[], p: Plan): string[] {
  let seq = start.map((r) => ({ videoId: r.videoId!, setVideoId: r.setVideoId! }));
  let next = 0;
  const resolve = (ref: { videoId: string; setVideoId: string | null }) => {
    const i = ref.setVideoId
      ? seq.findIndex((r) => r.setVideoId === ref.setVideoId)
      : seq.findIndex((r) => r.videoId === ref.videoId && r.setVideoId.startsWith("new"));
    if (i === -1) throw new Error(`row ${ref.videoId} not found`);
    return i;
  };
  for (const a of p.actions) {
    if (a.kind === "remove_playlist_items") {
      const gone = new Set(a.videos.map((v) => v.setVideoId));
      seq = seq.filter((r) => !gone.has(r.setVideoId));
    } else if (a.kind === "add_playlist_items" || a.kind === "create_playlist") {
      for (const id of a.videoIds) seq.push({ videoId: id, setVideoId: `new${next++}` });
    } else if (a.kind === "move_playlist_items") {
      for (const m of a.moves) {
        const [row] = seq.splice(resolve(m.row), 1);
        if (m.before === null) seq.push(row!);
        else seq.splice(resolve(m.before), 0, row!);
      }
    }
  }
  return seq.map((r) => r.videoId);
}

function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe("longestIncreasingSubsequence", () => {
  it("returns positions of a longest strictly increasing run", () => {
    const values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9];
    const picked = longestIncreasingSubsequence(values).map((p) => values[p]!);
    expect(picked).toHaveLength(6);
    for (let i = 1; i < picked.length; i++) expect(picked[i]!).toBeGreaterThan(picked[i - 1]!);
    expect(longestIncreasingSubsequence([])).toEqual([]);
    expect(longestIncreasingSubsequence([5, 4, 3])).toHaveLength(1);
  });

  it("matches the quadratic answer's length on random inputs", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const values = seededShuffle(
        Array.from({ length: 40 }, (_, i) => i),
        seed,
      ).slice(0, 25 + (seed % 10));
      const best = values.map(() => 1);
      for (let i = 0; i < values.length; i++)
        for (let j = 0; j < i; j++) if (values[j]! < values[i]!) best[i] = Math.max(best[i]!, best[j]! + 1);
      const positions = longestIncreasingSubsequence(values);
      expect(positions.length).toBe(Math.max(...best));
      for (let k = 1; k < positions.length; k++) {
        expect(positions[k]!).toBeGreaterThan(positions[k - 1]!);
        expect(values[positions[k]!]!).toBeGreaterThan(values[positions[k - 1]!]!);
      }
    }
  });
});

describe("plan: mirror", () => {
  it("adds, removes and accounts for every source item and every row", () => {
    const want = list("chart", ["a", "b", "new"]);
    const have = rows(["a", "old", "b"]);
    const skippedItem = track("gone", { source: "chart", rank: 4, isAvailable: false });
    const p = plan(
      desired(want, { skipped: [{ item: skippedItem, reason: "unavailable" }] }),
      actual(have),
      nobody,
      policy("mirror"),
    );
    expect(ops(p)).toEqual([
      "keep a — Artist",
      "keep b — Artist",
      "add new — Artist",
      "remove old — Artist (not desired)",
      "skip gone — Artist (unavailable)",
    ]);
    expect(p.actions).toEqual([
      {
        kind: "remove_playlist_items",
        playlistId: "PLx",
        videos: [{ videoId: vid("old"), setVideoId: have[1]!.setVideoId }],
      },
      { kind: "add_playlist_items", playlistId: "PLx", videoIds: [vid("new")] },
    ]);
    expect(p.summary).toMatchObject({ add: 1, remove: 1, move: 0, keep: 2, skip: 1, requests: 2 });
    expect(simulate(have, p)).toEqual(want.map((i) => i.videoId));
  });

  it("removes second copies of a desired song", () => {
    const have = rows(["a", "b", "a"]);
    const p = plan(desired(list("s", ["a", "b"])), actual(have), nobody, policy("mirror"));
    expect(ops(p)).toContain("remove a — Artist (duplicate row)");
    expect(simulate(have, p)).toEqual([vid("a"), vid("b")]);
  });

  it("moves only the rows outside the longest run already in order", () => {
    const want = list("s", ["1", "2", "3", "4", "5", "6"]);
    const have = rows(["2", "3", "1", "4", "6", "5"]);
    const p = plan(desired(want), actual(have), nobody, policy("mirror"));
    // 2 3 4 6 (or 2 3 4 5) stay: two moves are the fewest.
    expect(p.summary.move).toBe(2);
    expect(p.actions.map((a) => a.kind)).toEqual(["move_playlist_items"]);
    expect(simulate(have, p)).toEqual(want.map((i) => i.videoId));
    expect(p.lines.filter((l) => l.op === "move")).toHaveLength(2);
  });

  it("reaches the desired order with n − LIS moves for shuffled targets with churn", () => {
    for (let seed = 1; seed <= 25; seed++) {
      const all = Array.from({ length: 60 }, (_, i) => `t${i}`);
      const wantNames = seededShuffle(all, seed).slice(0, 50);
      const haveNames = seededShuffle([...seededShuffle(all, seed + 100).slice(0, 45), "x1", "x2"], seed + 7);
      const want = list("s", wantNames);
      const have = rows(haveNames);
      const p = plan(desired(want), actual(have), nobody, policy("mirror", { batch_size: 7 }));
      expect(simulate(have, p)).toEqual(want.map((i) => i.videoId));
      // The fewest moves: everything not on a longest increasing run of desired positions.
      const position = new Map(wantNames.map((n, i) => [n, i]));
      const kept = haveNames.filter((n) => position.has(n)).map((n) => position.get(n)!);
      const added = wantNames.map((_, i) => i).filter((i) => !haveNames.includes(wantNames[i]!));
      const sequence = [...kept, ...added];
      expect(p.summary.move).toBe(sequence.length - longestIncreasingSubsequence(sequence).length);
      for (const a of p.actions) {
        if (a.kind === "move_playlist_items") expect(a.moves.length).toBeLessThanOrEqual(7);
      }
    }
  });

  it("keeps the order when policy.order is keep", () => {
    const p = plan(
      desired(list("s", ["1", "2"])),
      actual(rows(["2", "1"])),
      nobody,
      policy("mirror", { order: "keep" }),
    );
    expect(p.actions).toEqual([]);
    expect(p.summary.move).toBe(0);
  });

  it("re-adds rows the person removed (mirror ignores tombstones)", () => {
    const owned: Owned = { playlist: true, rows: new Set([vid("a")]), tombstones: new Set([vid("b")]) };
    const p = plan(desired(list("s", ["a", "b"])), actual([]), owned, policy("mirror"));
    expect(p.summary.add).toBe(2);
    expect(p.tombstones).toEqual([]);
  });

  it("is pure: same inputs, same plan, inputs untouched", () => {
    const d = deepFreeze(desired(list("s", ["a", "b", "c"])));
    const a = deepFreeze(actual(rows(["c", "x", "a"])));
    const first = plan(d, a, nobody, policy("mirror"));
    expect(plan(d, a, nobody, policy("mirror"))).toEqual(first);
  });
});

describe("plan: sync", () => {
  const owned: Owned = {
    playlist: true,
    rows: new Set([vid("mine"), vid("gone")]),
    tombstones: new Set([vid("dead")]),
  };

  it("removes only engine-owned rows and keeps what the person added", () => {
    const p = plan(desired(list("s", ["a"])), actual(rows(["a", "mine", "theirs"])), owned, policy("sync"));
    expect(ops(p)).toEqual([
      "keep a — Artist",
      "remove mine — Artist (no longer desired)",
      "keep theirs — Artist (added outside the engine)",
    ]);
  });

  it("adopts a removal by the person as a tombstone", () => {
    const p = plan(
      desired(list("s", ["gone", "dead", "fresh"])),
      actual([]),
      owned,
      policy("sync", { on_drift: "adopt" }),
    );
    expect(ops(p)).toEqual([
      "skip gone — Artist (removed outside the engine; not re-added)",
      "skip dead — Artist (tombstoned)",
      "add fresh — Artist",
    ]);
    expect(p.tombstones).toEqual([vid("gone")]);
  });

  it("reverts a removal by the person when on_drift is revert", () => {
    const p = plan(
      desired(list("s", ["gone", "dead"])),
      actual([]),
      owned,
      policy("sync", { on_drift: "revert" }),
    );
    expect(p.summary.add).toBe(2);
    expect(p.tombstones).toEqual([]);
  });

  it("orders desired rows around the person's rows without moving those", () => {
    const have = rows(["b", "theirs", "a"]);
    const p = plan(desired(list("s", ["a", "b"])), actual(have), owned, policy("sync"));
    const after = simulate(have, p);
    expect(after.filter((v) => v !== vid("theirs"))).toEqual([vid("a"), vid("b")]);
    expect(p.summary.move).toBe(1);
  });
});

describe("plan: append", () => {
  it("never removes, never moves, and does not bring back what was removed", () => {
    const owned: Owned = { playlist: true, rows: new Set([vid("gone")]), tombstones: new Set() };
    const have = rows(["b", "old", "a"]);
    const p = plan(desired(list("s", ["a", "b", "gone", "new"])), actual(have), owned, policy("append"));
    expect(p.actions).toEqual([{ kind: "add_playlist_items", playlistId: "PLx", videoIds: [vid("new")] }]);
    expect(ops(p)).toContain("keep old — Artist (append never removes)");
    expect(ops(p)).toContain("skip gone — Artist (removed outside the engine; not re-added)");
    expect(p.tombstones).toEqual([vid("gone")]);
  });
});

describe("plan: clean", () => {
  it("removes exactly the rows the pipeline dropped, with its reasons, and adds nothing", () => {
    const have = rows(["a", "b", "a", "dead"]);
    const kept = [have[0]!, have[1]!];
    const p = plan(
      desired(kept, {
        skipped: [
          { item: have[2]!, reason: "duplicate of a" },
          { item: have[3]!, reason: "unavailable" },
        ],
      }),
      actual(have),
      nobody,
      policy("clean"),
    );
    expect(p.actions).toEqual([
      {
        kind: "remove_playlist_items",
        playlistId: "PLx",
        videos: [
          { videoId: vid("a"), setVideoId: have[2]!.setVideoId },
          { videoId: vid("dead"), setVideoId: have[3]!.setVideoId },
        ],
      },
    ]);
    expect(ops(p).filter((l) => l.startsWith("remove"))).toEqual([
      "remove a — Artist (duplicate of a)",
      "remove dead — Artist (unavailable)",
    ]);
    // Each row appears once: two kept, two removed.
    expect(p.lines).toHaveLength(4);
  });
});

describe("plan: guards", () => {
  const have = rows(["a", "b", "c"]);

  it("blocks removals but not adds when a source looks truncated", () => {
    const p = plan(
      desired(list("s", ["a", "new"]), { truncatedSources: ["chart"] }),
      actual(have),
      nobody,
      policy("mirror"),
    );
    expect(p.actions.map((a) => a.kind)).toEqual(["add_playlist_items"]);
    expect(p.guards).toEqual([
      { guard: "source_truncated", message: "source read looks truncated (chart)", blocks: "removals" },
    ]);
    expect(ops(p)).toContain("skip b — Artist (removal blocked: source_truncated)");
  });

  it("blocks removals when sources return fewer than min_source_items", () => {
    const p = plan(
      desired(list("s", ["a"]), { sourceTotal: 1 }),
      actual(have),
      nobody,
      policy("mirror", { min_source_items: 5 }),
    );
    expect(p.guards.map((g) => g.guard)).toEqual(["too_few_items"]);
    expect(p.summary.remove).toBe(0);
  });

  it("refuses to empty a target unless allow_empty", () => {
    const blocked = plan(desired([]), actual(have), nobody, policy("mirror"));
    expect(blocked.guards.map((g) => g.guard)).toEqual(["empty_desired"]);
    expect(blocked.actions).toEqual([]);
    const allowed = plan(desired([]), actual(have), nobody, policy("mirror", { allow_empty: true }));
    expect(allowed.summary.remove).toBe(3);
  });

  it("blocks all removals above max_removals", () => {
    const p = plan(desired(list("s", ["a"])), actual(have), nobody, policy("mirror", { max_removals: 1 }));
    expect(p.guards[0]!.message).toBe("2 removals exceed max_removals (1)");
    expect(p.summary.remove).toBe(0);
    const ok = plan(desired(list("s", ["a"])), actual(have), nobody, policy("mirror", { max_removals: 2 }));
    expect(ok.summary.remove).toBe(2);
  });

  it("writes nothing when the target read looks truncated", () => {
    const p = plan(
      desired(list("s", ["a", "new"])),
      actual(have, { truncated: true }),
      nobody,
      policy("mirror"),
    );
    expect(p.actions).toEqual([]);
    expect(p.guards.map((g) => g.guard)).toContain("target_truncated");
    expect(p.summary.add).toBe(0);
  });

  it("leaves rows the service lists without row ids, saying why", () => {
    const have = [...rows(["a"]), track("ghost", { source: "target", rank: 2, setVideoId: null })];
    const p = plan(desired(list("s", ["a"])), actual(have), nobody, policy("mirror"));
    expect(p.actions).toEqual([]);
    expect(ops(p)).toContain("skip ghost — Artist (cannot be removed: the service gave no row id)");
  });

  it("never sends unavailable items", () => {
    const p = plan(
      desired([track("x", { source: "s", rank: 1, isAvailable: false })]),
      actual([]),
      nobody,
      policy("mirror"),
    );
    expect(ops(p)).toEqual(["skip x — Artist (unavailable)"]);
  });
});

describe("plan: the 5,000 cap", () => {
  const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

  it("drops the last adds with overflow: truncate", () => {
    const have = rows(many(4990, "h"));
    const want = [...have.map((r, i) => ({ ...r, source: "s", rank: i + 1 })), ...list("s", many(20, "n"))];
    const p = plan(desired(want), actual(have), nobody, policy("mirror", { batch_size: 100 }));
    expect(p.summary.add).toBe(10);
    expect(p.lines.filter((l) => l.reason === "over the 5,000 cap")).toHaveLength(10);
    expect(p.guards.map((g) => g.guard)).toEqual(["overflow"]);
  });

  it("refuses the whole plan with overflow: error", () => {
    const p = plan(
      desired(list("s", many(5001, "n"))),
      actual([]),
      nobody,
      policy("mirror", { overflow: "error" }),
    );
    expect(p.actions).toEqual([]);
    expect(p.errors).toEqual(["the target would hold 5001 items, 1 over the 5000 cap (overflow: error)"]);
  });
});

describe("plan: batching and creation", () => {
  it("batches adds and removes by batch_size", () => {
    const want = list(
      "s",
      Array.from({ length: 250 }, (_, i) => `n${i}`),
    );
    const have = rows(Array.from({ length: 120 }, (_, i) => `o${i}`));
    const p = plan(desired(want), actual(have), nobody, policy("mirror", { batch_size: 100 }));
    const sizes = p.actions.map(
      (a) => `${a.kind}:${"videoIds" in a ? (a.videoIds?.length ?? 0) : "videos" in a ? a.videos.length : 0}`,
    );
    expect(sizes).toEqual([
      "remove_playlist_items:100",
      "remove_playlist_items:20",
      "add_playlist_items:100",
      "add_playlist_items:100",
      "add_playlist_items:50",
    ]);
    expect(p.summary.requests).toBe(5);
  });

  it("creates a missing playlist with its first batch and the ownership marker", () => {
    const target: TargetSpec = {
      type: "playlist",
      playlist: { id: null, title: "Top", description: "Daily", privacy: null },
      allow_delete: false,
    };
    const want = list(
      "s",
      Array.from({ length: 150 }, (_, i) => `n${i}`),
    );
    const p = plan(
      desired(want, {}, target),
      actual([], { exists: false, playlistId: null }),
      nobody,
      policy("mirror"),
    );
    expect(p.actions[0]).toEqual({
      kind: "create_playlist",
      title: "Top",
      description: "Daily\n\n[musicsync:r]",
      privacy: "PRIVATE",
      videoIds: want.slice(0, 100).map((i) => i.videoId),
    });
    expect(p.actions[1]).toEqual({
      kind: "add_playlist_items",
      playlistId: null,
      videoIds: want.slice(100).map((i) => i.videoId),
    });
    expect(p.summary).toMatchObject({ create: 1, add: 150, requests: 2 });
  });

  it("ignores remembered rows and tombstones of a playlist that no longer exists", () => {
    const target: TargetSpec = {
      type: "playlist",
      playlist: { id: null, title: "Top", description: null, privacy: null },
      allow_delete: false,
    };
    const owned: Owned = { playlist: true, rows: new Set([vid("a")]), tombstones: new Set([vid("b")]) };
    const p = plan(
      desired(list("s", ["a", "b"]), {}, target),
      actual([], { exists: false, playlistId: null }),
      owned,
      policy("sync"),
    );
    expect(p.actions).toEqual([
      {
        kind: "create_playlist",
        title: "Top",
        description: "[musicsync:r]",
        privacy: "PRIVATE",
        videoIds: [vid("a"), vid("b")],
      },
    ]);
  });

  it("edits title, description and privacy that differ from the recipe", () => {
    const target: TargetSpec = {
      type: "playlist",
      playlist: { id: "PLx", title: "New name", description: null, privacy: "PUBLIC" },
      allow_delete: false,
    };
    const p = plan(
      desired([], {}, target),
      actual([], { title: "Old", privacy: "PRIVATE" }),
      nobody,
      policy("sync"),
    );
    expect(p.actions).toEqual([
      { kind: "edit_playlist", playlistId: "PLx", title: "New name", privacy: "PUBLIC" },
    ]);
    const same = plan(
      desired([], {}, target),
      actual([], { title: "New name", privacy: "PUBLIC" }),
      nobody,
      policy("sync"),
    );
    expect(same.actions).toEqual([]);
  });

  it("refuses when a playlist adopted by id does not exist", () => {
    const p = plan(
      desired(list("s", ["a"])),
      actual([], { exists: false, playlistId: null }),
      nobody,
      policy("sync"),
    );
    expect(p.errors).toEqual(["playlist PLx was not found"]);
    expect(p.actions).toEqual([]);
  });
});

describe("plan: each item counted once", () => {
  const likes: TargetSpec = { type: "likes", rating: "LIKE" };

  it("a song the pipeline drops as already liked is its liked row: unchanged once, not also skipped", () => {
    // Sources a, b, c, d; b and c were liked before (rows), x too; d is dropped as unavailable.
    const dropped = [
      { item: track("b", { source: "s", rank: 2 }), reason: "already liked" },
      { item: track("c", { source: "s", rank: 3 }), reason: "already liked" },
      { item: track("d", { source: "s", rank: 4 }), reason: "unavailable" },
    ];
    const p = plan(
      desired([track("a", { source: "s", rank: 1 })], { skipped: dropped }, likes),
      actual(rows(["b", "c", "x"]), { playlistId: "LM" }),
      nobody,
      policy("append"),
    );
    expect(p.summary).toMatchObject({ rate: 1, keep: 3, skip: 1 });
    // Four source items and one row no source names: five items, five lines.
    expect(p.lines).toHaveLength(5);
    expect(ops(p)).toEqual([
      "rate a — Artist (rating LIKE)",
      "keep b — Artist (already liked; append never removes)",
      "keep c — Artist (already liked; append never removes)",
      "keep x — Artist (append never removes)",
      "skip d — Artist (unavailable)",
    ]);
  });

  it("the next run, once a is liked: all four liked rows unchanged, only d skipped", () => {
    const dropped = ["a", "b", "c"].map((n, i) => ({
      item: track(n, { source: "s", rank: i + 1 }),
      reason: "already liked",
    }));
    dropped.push({ item: track("d", { source: "s", rank: 4 }), reason: "unavailable" });
    const p = plan(
      desired([], { skipped: dropped }, likes),
      actual(rows(["a", "b", "c", "x"]), { playlistId: "LM" }),
      nobody,
      policy("append", { allow_empty: true }),
    );
    expect(p.actions).toEqual([]);
    expect(p.summary).toMatchObject({ keep: 4, skip: 1 });
  });

  it("a dropped item a mirrored playlist holds is that row's removal, with the drop's reason", () => {
    const dropped = [{ item: track("b", { source: "s", rank: 2 }), reason: "over the limit of 1" }];
    const p = plan(
      desired(list("s", ["a"]), { skipped: dropped }),
      actual(rows(["a", "b"])),
      nobody,
      policy("mirror"),
    );
    expect(p.summary).toMatchObject({ keep: 1, remove: 1, skip: 0 });
    expect(ops(p)).toContain("remove b — Artist (over the limit of 1; not desired)");
  });

  it("two dropped copies of one song and one row of it: the row stands for the first, the second is skipped", () => {
    const dropped = [
      { item: track("b", { source: "s", rank: 1 }), reason: "already liked" },
      { item: track("b", { source: "t", rank: 1 }), reason: "duplicate (union)" },
    ];
    const p = plan(
      desired([], { skipped: dropped }, likes),
      actual(rows(["b"]), { playlistId: "LM" }),
      nobody,
      {
        ...policy("append"),
        allow_empty: true,
      },
    );
    expect(p.summary).toMatchObject({ keep: 1, skip: 1 });
  });

  it("a file source's entries left out (unmatched, unreadable) are counted as skipped", () => {
    const notes = [
      { source: "old", kind: "unmatched" as const, text: '"Painted Story - Hotel" (no candidate)' },
      { source: "old", kind: "unreadable" as const, text: "old.csv:4: no title" },
    ];
    const p = plan(desired(list("old", ["a"]), { notes }), actual(rows(["a"])), nobody, policy("mirror"));
    expect(p.summary).toMatchObject({ keep: 1, skip: 2 });
    expect(p.notes).toEqual(notes);
  });
});

describe("plan: other targets", () => {
  it("likes: one rating request per song, INDIFFERENT for removals", () => {
    const target: TargetSpec = { type: "likes", rating: "LIKE" };
    const p = plan(
      desired(list("s", ["a", "b"]), {}, target),
      actual(rows(["b", "c"]), { playlistId: "LM" }),
      nobody,
      policy("mirror"),
    );
    const expected: PlanAction[] = [
      { kind: "rate_song", videoId: vid("a"), rating: "LIKE" },
      { kind: "rate_song", videoId: vid("c"), rating: "INDIFFERENT" },
    ];
    expect(p.actions).toEqual(expected);
    expect(p.summary).toMatchObject({ rate: 2, add: 0, remove: 0, keep: 1 });
  });

  it("library songs: feedback tokens in batches, each naming its songs and direction; items without a token are skipped", () => {
    const target: TargetSpec = { type: "library", kind: "songs" };
    const want = [
      track("a", { source: "s", rank: 1, feedbackTokens: { add: "ADD_A", remove: "RM_A" } }),
      track("b", { source: "s", rank: 2, feedbackTokens: null }),
    ];
    const have = rows(["c"], { feedbackTokens: { add: null, remove: "RM_C" } });
    const p = plan(desired(want, {}, target), actual(have, { playlistId: null }), nobody, policy("mirror"));
    expect(p.actions).toEqual([
      {
        kind: "edit_song_library_status",
        feedbackTokens: ["ADD_A"],
        videoIds: ["a__________"],
        direction: "add",
      },
      {
        kind: "edit_song_library_status",
        feedbackTokens: ["RM_C"],
        videoIds: ["c__________"],
        direction: "remove",
      },
    ]);
    expect(ops(p)).toContain("skip b — Artist (no library token to add it with)");
  });

  it("library albums: rate_playlist by the album's playlist id; tracks do not fit", () => {
    const target: TargetSpec = { type: "library", kind: "albums" };
    const album = track("Album", { kind: "album", videoId: null, playlistId: "OLAK1", source: "s", rank: 1 });
    const p = plan(
      desired([album, track("song", { source: "s", rank: 2 })], {}, target),
      actual([]),
      nobody,
      policy("sync"),
    );
    expect(p.actions).toEqual([{ kind: "rate_playlist", playlistId: "OLAK1", rating: "LIKE" }]);
    expect(ops(p)).toContain("skip song — Artist (a track cannot go in library albums)");
  });

  it("subscriptions: one subscribe per channel, unsubscribes batched", () => {
    const target: TargetSpec = { type: "subscriptions" };
    const artist = (n: string) =>
      track(n, { kind: "artist", videoId: null, browseId: `UC${n}`, source: "s", rank: 1 });
    const p = plan(
      desired([artist("a"), artist("b")], {}, target),
      actual([artist("x"), artist("y")], { playlistId: null }),
      nobody,
      policy("mirror"),
    );
    expect(p.actions).toEqual([
      { kind: "subscribe_artists", channelIds: ["UCa"] },
      { kind: "subscribe_artists", channelIds: ["UCb"] },
      { kind: "unsubscribe_artists", channelIds: ["UCx", "UCy"] },
    ]);
  });

  it("saved episodes: adds and removes on SE, never moves", () => {
    const target: TargetSpec = { type: "saved_episodes" };
    const ep = (n: string) => track(n, { kind: "episode", source: "s", rank: 1 });
    const have = rows(["b", "a", "old"], { kind: "episode" });
    const p = plan(
      desired([ep("a"), ep("b"), ep("c")], {}, target),
      actual(have, { playlistId: null }),
      nobody,
      policy("mirror"),
    );
    expect(p.actions.map((a) => a.kind)).toEqual(["remove_playlist_items", "add_playlist_items"]);
    expect(p.actions[1]).toMatchObject({ playlistId: "SE", videoIds: [vid("c")] });
  });
});

describe("plan: the document", () => {
  it("carries the recipe hash, the account and a fingerprint of the target as read", () => {
    const d = desired(list("s", ["a"]));
    const p1 = plan(d, actual(rows(["a", "b"])), nobody, policy("sync"));
    const p2 = plan(d, actual(rows(["b", "a"])), nobody, policy("sync"));
    expect(p1).toMatchObject({
      version: 1,
      recipe: { id: "r", hash: "h" },
      account: "default",
      mode: "sync",
    });
    expect(p1.target.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(p2.target.fingerprint).not.toBe(p1.target.fingerprint);
  });
});

describe("plan: invariants over random inputs", () => {
  it("accounts for every desired item and every row exactly once, in every mode", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const pool = Array.from({ length: 30 }, (_, i) => `p${i}`);
      const wantNames = seededShuffle(pool, seed).slice(0, 12 + (seed % 9));
      const haveNames = seededShuffle(pool, seed * 31).slice(0, 8 + (seed % 11));
      // Some rows twice, some desired items unavailable, some keys owned or tombstoned.
      const have = rows([...haveNames, ...haveNames.slice(0, seed % 3)]);
      const want = list("s", wantNames).map((item, i) =>
        i % 7 === 6 ? { ...item, isAvailable: false } : item,
      );
      const owned: Owned = {
        playlist: true,
        rows: new Set(
          seededShuffle(pool, seed * 7)
            .slice(0, 10)
            .map(vid),
        ),
        tombstones: new Set(
          seededShuffle(pool, seed * 13)
            .slice(0, 3)
            .map(vid),
        ),
      };
      for (const mode of ["mirror", "sync", "append"] as const) {
        const p = plan(
          desired(want),
          actual(have),
          owned,
          policy(mode, { on_drift: seed % 2 ? "adopt" : "revert" }),
        );
        const fromSource = p.lines.filter((l) => l.source !== null);
        expect(fromSource.map((l) => l.rank).sort((a, b) => a! - b!)).toEqual(want.map((w) => w.rank));
        expect(p.lines.filter((l) => l.source === null)).toHaveLength(
          have.length -
            p.lines.filter((l) => l.source !== null && (l.op === "keep" || l.op === "move")).length,
        );
        const after = simulate(have, p);
        // No duplicate rows are ever added, and nothing is removed in append mode.
        const added = p.actions.flatMap((a) => (a.kind === "add_playlist_items" ? a.videoIds : []));
        expect(new Set(added).size).toBe(added.length);
        for (const id of added) expect(have.some((r) => r.videoId === id)).toBe(false);
        if (mode === "append") expect(after.length).toBe(have.length + added.length);
        if (mode === "mirror") {
          const wanted = want
            .filter((w) => w.isAvailable || haveNames.includes(w.title!))
            .map((w) => w.videoId);
          expect(after).toEqual(wanted);
        }
      }
    }
  });
});
