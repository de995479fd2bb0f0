/**
 * The undo soak's person: edits by hand through the client (a row added, removed or moved; the
 * playlist renamed, described or made public; songs liked, unliked or disliked), each noting the
 * videoIds it touched so the oracle leaves their places unjudged.
 */
import type { Privacy } from "../../engine/recipe/types.js";
import type { Harness } from "../support/sync-harness.js";
import { pick, type Random } from "./generate.js";
import { playlistState } from "./readback.js";

export interface PersonEdit {
  /** What was done, for the seed's story. */
  what: string;
  /** VideoIds added, removed, moved or rated. */
  touched: string[];
}

export interface PersonContext {
  h: Harness;
  r: Random;
  seed: number;
  /** Songs only the person uses (no recipe wants them). */
  personPool: readonly string[];
  /** Songs the recipes want. */
  recipePool: readonly string[];
}

const PLAYLIST_EDITS = [
  "add",
  "add",
  "remove",
  "remove",
  "move",
  "move",
  "rename",
  "describe",
  "privacy",
] as const;
const RATING_EDITS = ["like", "like", "unlike", "unlike", "dislike"] as const;

/** Every rating account 1 holds (the service lists no dislikes, so the emulator's table says). */
export function accountRatings(h: Harness): Map<string, string> {
  const rows = h.emulator.state.store.sqlite
    .prepare("SELECT target_id AS id, rating FROM ratings WHERE account_id = 1 AND rating != 'INDIFFERENT'")
    .all() as { id: string; rating: string }[];
  return new Map(rows.map((x) => [x.id, x.rating]));
}

async function editRows(
  c: PersonContext,
  pid: string,
  kind: "add" | "remove" | "move",
): Promise<PersonEdit | null> {
  const rows = (await playlistState(c.h, pid)).rows ?? [];
  const p = c.h.person;
  if (kind === "add") {
    const here = new Set(rows.map((x) => x.videoId));
    // Now and then a song a recipe wants: the person's row then shares its videoId with the engine's.
    const pool = c.r() < 0.2 ? c.recipePool : c.personPool;
    const fresh = pool.filter((v) => !here.has(v));
    if (fresh.length === 0) return null;
    const id = pick(c.r, fresh);
    await p.addPlaylistItems(pid, [id]);
    return { what: `add ${id}`, touched: [id] };
  }
  if (rows.length === 0 || (kind === "move" && rows.length < 2)) return null;
  const row = pick(c.r, rows);
  if (kind === "remove") {
    await p.removePlaylistItems(pid, [{ ...row }]);
    return { what: `remove ${row.videoId}`, touched: [row.videoId] };
  }
  const other = pick(c.r, rows);
  await p.editPlaylist(pid, {
    moveItem: other === row ? row.setVideoId : [row.setVideoId, other.setVideoId],
  });
  return {
    what: `move ${row.videoId}${other === row ? " to the end" : ` before ${other.videoId}`}`,
    touched: [row.videoId],
  };
}

async function editFields(c: PersonContext, pid: string, kind: "rename" | "describe" | "privacy", n: number) {
  const p = c.h.person;
  if (kind === "rename") {
    const title = `Renamed ${c.seed}-${n}`;
    await p.editPlaylist(pid, { title });
    return { what: `rename to ${title}`, touched: [] };
  }
  const now = await p.getPlaylist(pid, { limit: 1 });
  if (kind === "describe") {
    // Written in front, so the engine's ownership marker at the end stays.
    const description = `Notes ${n}. ${now.description ?? ""}`.slice(0, 4900);
    await p.editPlaylist(pid, { description });
    return { what: `describe as ${JSON.stringify(description)}`, touched: [] };
  }
  const privacy = pick(
    c.r,
    (["PRIVATE", "UNLISTED", "PUBLIC"] as Privacy[]).filter((x) => x !== now.privacy),
  );
  await p.editPlaylist(pid, { privacyStatus: privacy });
  return { what: `privacy ${privacy}`, touched: [] };
}

/** One edit of a playlist the engine writes; null when it did not apply. */
export async function editPlaylistByHand(
  c: PersonContext,
  pid: string,
  n: number,
): Promise<PersonEdit | null> {
  const kind = pick(c.r, PLAYLIST_EDITS);
  if (kind === "add" || kind === "remove" || kind === "move") return editRows(c, pid, kind);
  return editFields(c, pid, kind, n);
}

/** One rating by hand: a song liked, a rating taken back, a song disliked. */
export async function editRatingsByHand(c: PersonContext): Promise<PersonEdit | null> {
  const kind = pick(c.r, RATING_EDITS);
  const rated = [...accountRatings(c.h).keys()].filter(
    (v) => c.personPool.includes(v) || c.recipePool.includes(v),
  );
  const p = c.h.person;
  if (kind === "unlike") {
    if (rated.length === 0) return null;
    const id = pick(c.r, rated);
    await p.rateSong(id, "INDIFFERENT");
    return { what: `rate ${id} INDIFFERENT`, touched: [id] };
  }
  const id = pick(c.r, c.r() < 0.5 ? c.personPool : c.recipePool);
  const rating = kind === "like" ? "LIKE" : "DISLIKE";
  await p.rateSong(id, rating);
  return { what: `rate ${id} ${rating}`, touched: [id] };
}
