/**
 * Reading a target back as the person sees it, through a client the faults are switched off for
 * (the emulator's database only where the service offers no read: dislikes).
 */
import { markerRecipe } from "../../engine/plan/ownership.js";
import { targetKey } from "../../engine/plan/plan.js";
import type { TargetSpec } from "../../engine/recipe/types.js";
import { readTarget } from "../../engine/targets/read.js";
import type { Harness } from "../support/sync-harness.js";
import type { Row } from "./invariants.js";

export interface LibraryPlaylist {
  id: string;
  title: string;
  marker: string | null;
}

/**
 * The playlists of the person's library with their titles and the recipe their marker names;
 * those in `known` (there before the seed's first run, none of them the engine's) are not opened.
 */
export async function libraryPlaylists(
  h: Pick<Harness, "person">,
  known: ReadonlySet<string> = new Set(),
): Promise<LibraryPlaylist[]> {
  const out: LibraryPlaylist[] = [];
  for (const p of await h.person.getLibraryPlaylists({ limit: null })) {
    const id = p.playlistId ?? "";
    if (!id || ["LM", "SE", "RDPN"].includes(id)) continue;
    if (known.has(id)) {
      out.push({ id, title: p.title ?? "", marker: null });
      continue;
    }
    const full = await h.person.getPlaylist(id, { limit: 1 });
    out.push({ id, title: full.title ?? p.title ?? "", marker: markerRecipe(full.description ?? null) });
  }
  return out;
}

export interface TargetState {
  /** Playlist-like targets: the rows, in order. */
  rows: Row[] | null;
  /** Set-like targets (and playlists, by videoId): the keys present. */
  keys: Set<string>;
  title: string | null;
  playlistId: string | null;
}

export async function playlistState(h: Pick<Harness, "person">, playlistId: string): Promise<TargetState> {
  const p = await h.person.getPlaylist(playlistId, { limit: null });
  const rows = p.tracks.map((t) => ({ videoId: t.videoId ?? "", setVideoId: t.setVideoId ?? "" }));
  return { rows, keys: new Set(rows.map((r) => r.videoId)), title: p.title ?? null, playlistId };
}

/** Songs account 1 dislikes: no operation lists them, so the emulator's ratings say. */
export function disliked(h: Harness): Set<string> {
  const rows = h.emulator.state.store.sqlite
    .prepare("SELECT target_id AS id FROM ratings WHERE rating = 'DISLIKE' AND account_id = 1")
    .all() as { id: string }[];
  return new Set(rows.map((r) => r.id));
}

export async function liked(h: Harness): Promise<Set<string>> {
  const p = await h.person.getLikedSongs({ limit: null });
  return new Set(p.tracks.map((t) => t.videoId ?? ""));
}

/** A non-playlist target read back; keys as the engine names them (channel ids, playlist ids…). */
export async function setTargetState(h: Harness, target: TargetSpec): Promise<TargetState> {
  if (target.type === "likes") {
    const keys = target.rating === "LIKE" ? await liked(h) : disliked(h);
    return { rows: null, keys, title: null, playlistId: null };
  }
  if (target.type === "saved_episodes") {
    const p = await h.person.getSavedEpisodes({ limit: null });
    const rows = p.tracks.map((t) => ({ videoId: t.videoId ?? "", setVideoId: t.setVideoId ?? "" }));
    return { rows, keys: new Set(rows.map((r) => r.videoId)), title: null, playlistId: "SE" };
  }
  const read = await readTarget(target, h.person, { recipeId: "soak-readback", ownedPlaylistId: null });
  const keys = new Set(read.actual.rows.map((r) => targetKey(target, r)).filter((k): k is string => !!k));
  return { rows: null, keys, title: null, playlistId: null };
}
