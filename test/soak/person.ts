/**
 * "The person": edits by hand between runs, through the client against the emulator account,
 * with the soak's model of what the engine may and may not do about each edit kept up to date.
 */
import type { TargetSpec } from "../../engine/recipe/types.js";
import type { Harness } from "../support/sync-harness.js";
import { type EditKind, pick, type Random, staticIds } from "./generate.js";
import { keepsTombstones, type Model } from "./invariants.js";
import { disliked, liked, playlistState, setTargetState, type TargetState } from "./readback.js";

export interface EditContext {
  h: Harness;
  r: Random;
  seed: number;
  /** Songs only the person uses (never in a recipe), so the person's rows are told apart. */
  personPool: readonly string[];
  recipePool: readonly string[];
  episodes: readonly string[];
  /** Loses the engine's state: its file removed, or its PostgreSQL database dropped and made again (state.ts). */
  loseState(): Promise<void>;
  /** The loaded recipe's target, for reading back non-playlist targets. */
  targetOf(m: Model): TargetSpec;
  /** The playlist the recipe's target is now (owned: found by marker; adopted: its id). */
  playlistOf(m: Model): Promise<string | null>;
  /** Whether the recipe's last run finished with every write confirmed (ownership all recorded). */
  settled(m: Model): boolean;
  models: readonly Model[];
}

/**
 * A row the engine may have added was removed by hand: tombstone, re-add, or not knowable.
 * `settled`: whether the recipe's last run confirmed every write (its ownership all recorded).
 * A row of unknown owner (there when the state was lost) is gone once removed: it leaves the
 * orphans, so a copy the engine adds later is the engine's, and removing that one is a removal of
 * a row the engine added (docs/ENGINE.md#ownership). A set-like target's orphan is its key, which
 * the engine's copy shares (seed 2704: a saved episode unsaved twice around the engine's re-add).
 */
export function removedByHand(m: Model, key: string, setVideoId: string | null, settled: boolean) {
  if (setVideoId !== null) m.mustStay.delete(setVideoId);
  if (setVideoId !== null && m.personRows.delete(setVideoId)) return;
  if (m.personKeys.delete(key)) return;
  if (setVideoId !== null && m.orphans.delete(setVideoId)) return;
  if (m.orphans.delete(key)) return;
  if (!m.everDesired.has(key)) return;
  if (settled && keepsTombstones(m.spec)) m.tombstones.add(key);
  else if (!settled) m.ambiguous.add(key);
}

/**
 * A playlist the person deleted also leaves the library (every playlist of the account is listed
 * there, the engine's own included): a `library: playlists` recipe of the same seed did not remove
 * it, so it is no longer expected there (seed 313: an append recipe's key "removed" by the deletion
 * of another recipe's playlist).
 */
function leavesLibraries(c: EditContext, pid: string) {
  for (const other of c.models) {
    other.mustStay.delete(pid);
    other.personKeys.delete(pid);
  }
}

async function editPlaylist(c: EditContext, m: Model, kind: EditKind, n: number): Promise<string | null> {
  const pid = await c.playlistOf(m);
  if (!pid) return null;
  const { rows } = await playlistState(c.h, pid);
  const list = rows ?? [];
  const p = c.h.person;
  switch (kind) {
    case "add": {
      const here = new Set(list.map((r) => r.videoId));
      const fresh = c.personPool.filter((v) => !here.has(v));
      // In a playlist the clean recipe adopted, the person sometimes adds a second copy on purpose.
      const dup = m.spec.mode === "clean" && list.length > 0 && c.r() < 0.5;
      const id = dup ? pick(c.r, list).videoId : pick(c.r, fresh);
      const before = new Set(list.map((r) => r.setVideoId));
      await p.addPlaylistItems(pid, [id], dup ? { duplicates: true } : {});
      for (const r of (await playlistState(c.h, pid)).rows ?? []) {
        if (before.has(r.setVideoId)) continue;
        m.personRows.set(r.setVideoId, r.videoId);
        m.personCopies.set(r.videoId, (m.personCopies.get(r.videoId) ?? 0) + 1);
      }
      return `add ${id}${dup ? " (second copy)" : ""}`;
    }
    case "remove": {
      if (list.length === 0) return null;
      const row = pick(c.r, list);
      await p.removePlaylistItems(pid, [{ ...row }]);
      if (m.personCopies.has(row.videoId) && m.personRows.has(row.setVideoId))
        m.personCopies.set(row.videoId, m.personCopies.get(row.videoId)! - 1);
      removedByHand(m, row.videoId, row.setVideoId, c.settled(m));
      return `remove ${row.videoId}`;
    }
    case "move": {
      if (list.length < 2) return null;
      const row = pick(c.r, list);
      const other = pick(c.r, list);
      await p.editPlaylist(pid, {
        moveItem: other === row ? row.setVideoId : [row.setVideoId, other.setVideoId],
      });
      return `move ${row.videoId}`;
    }
    case "rename": {
      const title = `Renamed ${c.seed}-${n}`;
      await p.editPlaylist(pid, { title });
      return `rename to ${title}`;
    }
    case "delete-playlist": {
      await p.deletePlaylist(pid);
      // A new playlist: nothing of the old one's rows, tombstones or ownership carries over.
      m.personRows.clear();
      m.tombstones.clear();
      m.orphans.clear();
      m.mustStay.clear();
      m.personCopies.clear();
      leavesLibraries(c, pid);
      return `delete playlist ${pid}`;
    }
    default:
      return null;
  }
}

/** Likes or dislikes: `like` rates a person's song the target's way, `dislike` the other way. */
async function editRatings(c: EditContext, m: Model, kind: EditKind): Promise<string | null> {
  const target = m.spec.target;
  if (target.type !== "likes") return null;
  const same = target.rating;
  const other = same === "LIKE" ? "DISLIKE" : "LIKE";
  const p = c.h.person;
  const rated = same === "LIKE" ? await liked(c.h) : disliked(c.h);
  if (kind === "like") {
    const id = pick(c.r, c.personPool);
    await p.rateSong(id, same);
    m.personKeys.add(id);
    m.mustStay.add(id);
    // The service lists no dislikes, so a DISLIKE mirror cannot see (or take back) one the person set
    // by hand; it is the person's rating, kept as docs/ENGINE.md#ratings says (seed 178).
    if (same === "DISLIKE") m.ambiguous.add(id);
    return `rate ${id} ${same}`;
  }
  if (kind === "unlike") {
    const mine = [...rated].filter((v) => m.everDesired.has(v));
    if (mine.length === 0) return null;
    const id = pick(c.r, mine);
    await p.rateSong(id, "INDIFFERENT");
    m.mustStay.delete(id);
    // The engine cannot read dislikes: one taken back by hand stays unknown to it.
    if (same === "DISLIKE") m.ambiguous.add(id);
    else removedByHand(m, id, null, c.settled(m));
    return `rate ${id} INDIFFERENT`;
  }
  if (kind === "dislike" && m.spec.source.type === "static") {
    const id = pick(c.r, m.spec.source.ids);
    await p.rateSong(id, other);
    m.personRatedOther.add(id);
    m.mustStay.delete(id);
    m.personKeys.delete(id);
    return `rate ${id} ${other} (the person's own rating)`;
  }
  return null;
}

async function editSaved(c: EditContext, m: Model, kind: EditKind): Promise<string | null> {
  const p = c.h.person;
  const { rows } = await setTargetState(c.h, c.targetOf(m));
  const list = rows ?? [];
  if (kind === "add") {
    const here = new Set(list.map((r) => r.videoId));
    const wanted = new Set(m.spec.source.type === "static" ? m.spec.source.ids : []);
    const fresh = c.episodes.filter((e) => !here.has(e) && !wanted.has(e) && !m.everDesired.has(e));
    if (fresh.length === 0) return null;
    const id = pick(c.r, fresh);
    await p.addPlaylistItems("SE", [id]);
    m.personKeys.add(id);
    return `save episode ${id}`;
  }
  if (kind === "remove" && list.length > 0) {
    const row = pick(c.r, list);
    await p.removePlaylistItems("SE", [{ ...row }]);
    m.mustStay.delete(row.videoId);
    removedByHand(m, row.videoId, row.setVideoId, c.settled(m));
    return `unsave episode ${row.videoId}`;
  }
  return null;
}

async function editLibrary(c: EditContext, m: Model): Promise<string | null> {
  const target = c.targetOf(m);
  if (target.type !== "subscriptions" && target.type !== "library") return null;
  if (target.type === "library" && target.kind === "songs") return null;
  const { keys } = await setTargetState(c.h, target);
  if (keys.size === 0) return null;
  const key = pick(c.r, [...keys]);
  if (target.type === "subscriptions") await c.h.person.unsubscribeArtists([key]);
  else await c.h.person.ratePlaylist(key, "INDIFFERENT");
  // Ownership of these is not modelled (weak checks only): whatever it was, it is not judged now.
  m.personKeys.delete(key);
  m.mustStay.delete(key);
  m.ambiguous.add(key);
  return `remove ${key} from ${target.type}`;
}

async function editSource(c: EditContext, m: Model, kind: EditKind): Promise<string | null> {
  if (m.spec.source.type !== "playlist" || !m.spec.source.playlistId) return null;
  const pid = m.spec.source.playlistId;
  const { rows } = await playlistState(c.h, pid);
  const list = rows ?? [];
  const p = c.h.person;
  if (kind === "source-add") {
    const here = new Set(list.map((r) => r.videoId));
    const id = pick(
      c.r,
      c.recipePool.filter((v) => !here.has(v)),
    );
    await p.addPlaylistItems(pid, [id]);
    return `source add ${id}`;
  }
  if (list.length === 0) return null;
  const row = pick(c.r, list);
  if (kind === "source-remove") {
    await p.removePlaylistItems(pid, [{ ...row }]);
    return `source remove ${row.videoId}`;
  }
  await p.editPlaylist(pid, { moveItem: row.setVideoId });
  return `source move ${row.videoId}`;
}

/** Lost state: tombstones and ownership are gone; what is there now has no known owner. */
async function loseState(c: EditContext): Promise<string> {
  await c.loseState();
  for (const m of c.models) {
    m.tombstones.clear();
    const t = m.spec.target;
    if (t.type === "playlist" || t.type === "adopted") {
      const pid = await c.playlistOf(m);
      const rows = pid ? ((await playlistState(c.h, pid)).rows ?? []) : [];
      for (const r of rows) m.orphans.add(r.setVideoId);
    } else {
      for (const k of (await setTargetState(c.h, c.targetOf(m))).keys) m.orphans.add(k);
    }
  }
  return "state database lost";
}

/** One edit; returns what was done (null when it did not apply), for the seed's story. */
export async function edit(c: EditContext, m: Model, kind: EditKind, n: number): Promise<string | null> {
  switch (kind) {
    case "lose-state":
      return loseState(c);
    case "change-recipe":
      if (m.spec.source.type !== "static") return null;
      m.spec.source.ids = staticIds(
        c.r,
        m.spec.target.type === "saved_episodes" ? c.episodes : c.recipePool,
        2,
        14,
      );
      return `recipe now wants ${m.spec.source.ids.length} ids`;
    case "source-add":
    case "source-remove":
    case "source-move":
      return editSource(c, m, kind);
    case "like":
    case "unlike":
    case "dislike":
      return editRatings(c, m, kind);
    default:
      break;
  }
  const t = m.spec.target.type;
  if (t === "playlist" || t === "adopted") return editPlaylist(c, m, kind, n);
  if (t === "saved_episodes") return editSaved(c, m, kind);
  return editLibrary(c, m);
}

/**
 * The person undid an earlier run through the status page: what the undo moved (rows or keys now
 * there that were not, or gone that were) has no owner the soak can know any more, and rows an
 * append recipe added may be gone.
 */
export function undoneByHand(m: Model, before: TargetState | null, after: TargetState | null): void {
  const keys = (t: TargetState | null) => new Set(t?.rows ? t.rows.map((r) => r.videoId) : (t?.keys ?? []));
  const [was, now] = [keys(before), keys(after)];
  for (const k of [...was, ...now]) if (was.has(k) !== now.has(k)) m.ambiguous.add(k);
  m.mustStay.clear();
}
