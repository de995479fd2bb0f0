/**
 * The promises, checked after every run against the service as read back without faults. Pure:
 * each check takes what was read and what the soak knows (its own model of the person's edits and
 * of desired, never the engine's tables) and returns the broken promises.
 */
import type { PlanAction, PlanLine } from "../../engine/plan/types.js";
import type { RecipeRun } from "../../engine/run/run-types.js";
import type { RecipeSpec } from "./generate.js";

export interface Violation {
  seed: number;
  /** 1-based index of the run in the seed's sequence (0 = setup, -1 = the final settle). */
  run: number;
  recipe: string;
  invariant: string;
  detail: string;
}

export type Found = Omit<Violation, "seed" | "run" | "recipe">;

export interface Row {
  videoId: string;
  setVideoId: string;
}

/** What the soak knows of one recipe's target, kept up to date by the person's edits. */
export interface Model {
  spec: RecipeSpec;
  /** Rows the person added to a playlist target (setVideoId → videoId), still there as far as the soak knows. */
  personRows: Map<string, string>;
  /** Keys of a set-like target (likes, library…) that were the person's before or added by hand. */
  personKeys: Set<string>;
  /** Keys the engine added that the person then removed (tombstones where the mode keeps them). */
  tombstones: Set<string>;
  /** Keys whose ownership the soak cannot know (removed by hand after an unfinished run): not checked. */
  ambiguous: Set<string>;
  /** Rows (setVideoIds, or keys) present when the state database was lost: their owner is unknown now. */
  orphans: Set<string>;
  /** Songs the person rated the other way (a LIKE recipe must leave a dislike alone: docs/ENGINE.md#ratings). */
  personRatedOther: Set<string>;
  /** Every key any version of the recipe wanted. */
  everDesired: Set<string>;
  /** Rows (setVideoIds) at the last check minus those the person removed since (append removes none). */
  mustStay: Set<string>;
  /** Copies of a videoId the person put in the playlist (clean's setup adds duplicates on purpose). */
  personCopies: Map<string, number>;
}

export function newModel(spec: RecipeSpec): Model {
  return {
    spec,
    personRows: new Map(),
    personKeys: new Set(),
    tombstones: new Set(),
    ambiguous: new Set(),
    orphans: new Set(),
    personRatedOther: new Set(),
    everDesired: new Set(),
    mustStay: new Set(),
    personCopies: new Map(),
  };
}

/** Whether rows the engine added and the person removed stay out (docs/ENGINE.md#modes). */
export function keepsTombstones(spec: RecipeSpec): boolean {
  return spec.mode === "append" || (spec.mode === "sync" && spec.policy.on_drift === "adopt");
}

const fmt = (ids: Iterable<string>) => {
  const list = [...ids];
  return `[${list.slice(0, 6).join(", ")}${list.length > 6 ? `, … ${list.length} in all` : ""}]`;
};

/** What one run claimed, for the checks. */
export interface Claim {
  outcome: string;
  /** Guards of the plan that held something back (removals, or everything). */
  guards: readonly { guard: string; blocks: string }[];
  errors: readonly string[];
  /** Keys the plan skipped as quarantined (refused by the service earlier): not wanted this run. */
  quarantined?: ReadonlySet<string>;
}

/**
 * The ids a run itself reported quarantined: those its apply quarantined now and those its plan
 * skipped as quarantined earlier. Read from the run's own report, so the soak never decides again
 * what the engine should have quarantined (docs/ENGINE.md#limits-of-the-service).
 */
export function reportedQuarantine(run: Pick<RecipeRun, "plan" | "apply">): Set<string> {
  return quarantineSaid(run.plan?.lines ?? [], run.apply?.quarantined ?? []);
}

/**
 * The same from a report's parts, as `sync --json` prints them too: the plan's skipped lines (its
 * `skipped`) and the ids the apply quarantined (its `quarantined`).
 */
export function quarantineSaid(
  lines: readonly Pick<PlanLine, "op" | "key" | "videoId" | "reason">[],
  applied: readonly string[],
): Set<string> {
  const skipped = lines
    .filter((l) => l.op === "skip" && l.reason?.startsWith("quarantined"))
    .map((l) => l.key ?? l.videoId ?? "");
  return new Set([...applied, ...skipped]);
}

/** Whether the run says the target now equals desired. */
export const claimsConverged = (c: Claim) =>
  (c.outcome === "converged" || c.outcome === "no_changes") && c.errors.length === 0;

/** Desired keys the target may lack: tombstoned, of unknown owner, rated otherwise by the person, quarantined. */
function skippedKeys(m: Model, claim: Claim): Set<string> {
  return new Set([
    ...m.ambiguous,
    ...(keepsTombstones(m.spec) ? m.tombstones : []),
    ...m.personRatedOther,
    ...(claim.quarantined ?? []),
  ]);
}

const blocksRemovals = (c: Claim) => c.guards.some((g) => g.blocks === "removals" || g.blocks === "all");

/**
 * A playlist target (owned by title or adopted, any mode but clean) against independently computed
 * desired: mirror holds exactly desired; sync holds desired plus the person's rows; append holds
 * at least desired; removed-by-hand rows stay out where the mode says so.
 */
export function checkPlaylistDesired(
  m: Model,
  desired: readonly string[],
  rows: readonly Row[],
  claim: Claim,
): Found[] {
  if (!claimsConverged(claim)) return [];
  const out: Found[] = [];
  const spec = m.spec;
  const skipped = skippedKeys(m, claim);
  const want = desired.filter((v) => !skipped.has(v));
  const present = new Set(rows.map((r) => r.videoId));
  const missing = want.filter((v) => !present.has(v));
  if (missing.length > 0)
    out.push({
      invariant: "converged-matches-desired",
      detail: `${claim.outcome} but desired ${fmt(missing)} missing from ${spec.target.type} (mode ${spec.mode})`,
    });
  if (spec.mode === "append" || blocksRemovals(claim)) return out;
  const wanted = new Set(desired);
  const engineRows = rows.filter((r) =>
    spec.mode === "mirror" ? true : !m.personRows.has(r.setVideoId) && !m.orphans.has(r.setVideoId),
  );
  const extra = engineRows.filter((r) => !wanted.has(r.videoId) && !m.ambiguous.has(r.videoId));
  if (extra.length > 0)
    out.push({
      invariant: "converged-matches-desired",
      detail: `${claim.outcome} but ${fmt(extra.map((r) => r.videoId))} not desired still there (mode ${spec.mode})`,
    });
  if (spec.policy.order === "source" && missing.length === 0 && extra.length === 0) {
    // Every desired row counts, whoever added it: a row of unknown owner that is desired is ordered too.
    const order = rows.map((r) => r.videoId).filter((v) => want.includes(v));
    const first = order.filter((v, i) => order.indexOf(v) === i);
    if (first.join() !== want.join())
      out.push({
        invariant: "converged-matches-desired",
        detail: `${claim.outcome} but order ${fmt(first)} is not desired ${fmt(want)}`,
      });
  }
  return out;
}

/**
 * A dislike the engine cannot know of. The service lists no disliked songs, so a DISLIKE target is
 * what the engine's state remembers having disliked (engine/run/runner.ts `withRemembered`); a
 * dislike already there when the state database was lost is, from then on, as unknown to it as one
 * the person set by hand. Even a mirror cannot take it back, and a run may rightly say converged
 * with it there (recipes/README.md, likes targets). Seed 390.
 */
function unseenDislike(m: Model, key: string): boolean {
  const t = m.spec.target;
  return t.type === "likes" && t.rating === "DISLIKE" && m.orphans.has(key);
}

/** A set-like target (likes, dislikes, saved episodes) against desired. */
export function checkSetDesired(
  m: Model,
  desired: readonly string[],
  keys: ReadonlySet<string>,
  claim: Claim,
): Found[] {
  if (!claimsConverged(claim)) return [];
  const spec = m.spec;
  const skipped = skippedKeys(m, claim);
  const want = desired.filter((v) => !skipped.has(v));
  const out: Found[] = [];
  const missing = want.filter((v) => !keys.has(v));
  if (missing.length > 0)
    out.push({
      invariant: "converged-matches-desired",
      detail: `${claim.outcome} but desired ${fmt(missing)} missing (mode ${spec.mode})`,
    });
  if (spec.mode === "append" || blocksRemovals(claim)) return out;
  const wanted = new Set(desired);
  const extra = [...keys].filter(
    (k) =>
      !wanted.has(k) &&
      !m.ambiguous.has(k) &&
      !unseenDislike(m, k) &&
      (spec.mode === "mirror" || (!m.personKeys.has(k) && !m.orphans.has(k))),
  );
  // Mirror over likes removes the person's likes too; only keys the soak has seen anywhere are judged.
  const judged = spec.mode === "mirror" ? extra : extra.filter((k) => m.everDesired.has(k));
  if (judged.length > 0)
    out.push({
      invariant: "converged-matches-desired",
      detail: `${claim.outcome} but ${fmt(judged)} not desired still there (mode ${spec.mode})`,
    });
  return out;
}

/** No videoId more often than the person put it there plus the one copy the engine may add. */
export function checkDuplicates(m: Model, rows: readonly Row[]): Found[] {
  const count = new Map<string, number>();
  for (const r of rows) count.set(r.videoId, (count.get(r.videoId) ?? 0) + 1);
  const dups = [...count]
    .filter(([v, n]) => n > (m.personCopies.get(v) ?? 0) + 1)
    .map(([v, n]) => `${v}×${n}`);
  return dups.length > 0 ? [{ invariant: "no-duplicate-rows", detail: `duplicates ${fmt(dups)}` }] : [];
}

/** Sync and append keep every row the person added; clean keeps one copy of each. */
export function checkPersonKept(
  m: Model,
  rows: readonly Row[] | null,
  keys: ReadonlySet<string> | null,
): Found[] {
  const spec = m.spec;
  if (spec.mode === "mirror") return [];
  if (rows && spec.mode !== "clean") {
    const here = new Set(rows.map((r) => r.setVideoId));
    const gone = [...m.personRows].filter(([s]) => !here.has(s)).map(([, v]) => v);
    if (gone.length > 0)
      return [
        {
          invariant: "person-rows-kept",
          detail: `the person's rows ${fmt(gone)} removed in mode ${spec.mode}`,
        },
      ];
  }
  if (keys) {
    const gone = [...m.personKeys].filter((k) => !keys.has(k) && !m.ambiguous.has(k));
    if (gone.length > 0)
      return [
        { invariant: "person-rows-kept", detail: `the person's ${fmt(gone)} removed in mode ${spec.mode}` },
      ];
  }
  return [];
}

/** Append never removes: every row of the last check is still there unless the person removed it. */
export function checkAppendKeeps(m: Model, present: ReadonlySet<string>): Found[] {
  if (m.spec.mode !== "append") return [];
  const gone = [...m.mustStay].filter((s) => !present.has(s));
  return gone.length > 0
    ? [{ invariant: "append-never-removes", detail: `rows ${fmt(gone)} removed by an append recipe` }]
    : [];
}

/** Exactly one playlist carries the recipe's marker, and no other playlist has its title. */
export function checkOnePlaylist(
  recipeId: string,
  title: string | null,
  library: readonly { id: string; title: string; marker: string | null }[],
): Found[] {
  const marked = library.filter((p) => p.marker === recipeId);
  const titled = title === null ? [] : library.filter((p) => p.title.trim() === title.trim());
  const out: Found[] = [];
  if (marked.length > 1)
    out.push({
      invariant: "one-playlist-per-recipe",
      detail: `${marked.length} playlists carry the marker: ${fmt(marked.map((p) => p.id))}`,
    });
  if (titled.length > 1)
    out.push({
      invariant: "one-playlist-per-recipe",
      detail: `${titled.length} playlists titled ${JSON.stringify(title)}`,
    });
  return out;
}

/** Each write the run reported confirmed shows in the read-back. */
export function checkConfirmed(
  actions: readonly PlanAction[],
  outcomes: readonly { seq: number; status: string }[],
  quarantined: ReadonlySet<string>,
  read: { rows: readonly Row[] | null; keys: ReadonlySet<string> | null; title: string | null },
): Found[] {
  const out: Found[] = [];
  const videos = new Set((read.rows ?? []).map((r) => r.videoId));
  const sets = new Set((read.rows ?? []).map((r) => r.setVideoId));
  const keys = read.keys ?? videos;
  const bad = (a: PlanAction, why: string) =>
    out.push({ invariant: "reported-equals-readback", detail: `${a.kind} reported confirmed but ${why}` });
  for (const o of outcomes) {
    const a = actions[o.seq - 1];
    if (!a || o.status !== "confirmed") continue;
    switch (a.kind) {
      case "create_playlist":
      case "add_playlist_items": {
        const missing = a.videoIds.filter((v) => !quarantined.has(v) && !keys.has(v));
        if (read.rows && missing.length > 0) bad(a, `${fmt(missing)} not in the playlist`);
        break;
      }
      case "remove_playlist_items": {
        const still = a.videos.filter((v) => v.setVideoId && sets.has(v.setVideoId)).map((v) => v.videoId);
        if (read.rows && still.length > 0) bad(a, `${fmt(still)} still in the playlist`);
        break;
      }
      case "rate_song":
        if (read.keys && a.rating !== "INDIFFERENT" && !keys.has(a.videoId))
          bad(a, `${a.videoId} is not rated ${a.rating}`);
        if (read.keys && a.rating === "INDIFFERENT" && keys.has(a.videoId))
          bad(a, `${a.videoId} is still rated`);
        break;
      case "subscribe_artists":
      case "unsubscribe_artists": {
        const wrong = a.channelIds.filter((c) => keys.has(c) !== (a.kind === "subscribe_artists"));
        if (read.keys && wrong.length > 0) bad(a, `${fmt(wrong)} not so`);
        break;
      }
      case "rate_playlist":
        if (read.keys && keys.has(a.playlistId) !== (a.rating === "LIKE")) bad(a, `${a.playlistId} not so`);
        break;
      case "edit_playlist":
        if (a.title !== undefined && read.title !== null && read.title.trim() !== a.title.trim())
          bad(a, `the title reads ${JSON.stringify(read.title)}`);
        break;
      default:
        break;
    }
  }
  return out;
}

/** A run a finished process left `running`, or a killed one that a later open did not close. */
export function checkNoRunning(runs: readonly { id: number; recipe: string; result: string }[]): Found[] {
  return runs
    .filter((r) => r.result === "running")
    .map((r) => ({
      invariant: "no-run-left-running",
      detail: `run ${r.id} of ${r.recipe} is still "running"`,
    }));
}

/**
 * The soak's recipes name only available songs and episodes, so every quarantine is of a good id:
 * a transient failure (a `failed-status` answer) was taken for the service refusing the id.
 */
export function checkQuarantine(quarantined: ReadonlySet<string>, good: ReadonlySet<string>): Found[] {
  const wrong = [...quarantined].filter((k) => good.has(k));
  return wrong.length > 0
    ? [
        {
          invariant: "no-false-quarantine",
          detail: `available ${fmt(wrong)} quarantined (skipped for 7 days)`,
        },
      ]
    : [];
}

/**
 * A run through the echo proxy: every write is refused (HTTP 200 with STATUS_FAILED, its body full
 * of credentials) and never reaches the service, so a run that sent one has not converged: it must
 * say partial or failed. A run with nothing to write may say `no_changes` (judged by the read-back).
 */
export function checkRefusedWrites(claim: Claim, writesSent: number | null): Found[] {
  if (claim.outcome !== "converged" || !writesSent) return [];
  return [
    {
      invariant: "no-false-converged",
      detail: `every write was refused (STATUS_FAILED), yet the run claims converged after ${writesSent} write requests`,
    },
  ];
}
