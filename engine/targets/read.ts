/**
 * Reads a target's actual state through the same client interface as the sources. A playlist the
 * engine created is found by the id it remembers, else by its title among the library playlists
 * whose description carries the recipe's marker — so a lost database never leads to a second copy.
 */

import { markerRecipe } from "../plan/ownership.js";
import type { ActualTarget } from "../plan/types.js";
import type { Privacy, TargetSpec } from "../recipe/types.js";
import type { Item } from "../sources/item.js";
import {
  fromAlbumCard,
  fromArtistRow,
  fromPlaylistCard,
  fromPodcastCard,
  fromTrack,
} from "../sources/normalise.js";
import type { PlaylistResult, SourceClient } from "../sources/reader.js";

export interface TargetReadContext {
  recipeId: string;
  /** The playlist id the state remembers for this recipe, if any. */
  ownedPlaylistId: string | null;
}

export interface TargetRead {
  actual: ActualTarget;
  /** How the playlist was found: by the recipe's id, the remembered id, the marker, or not at all. */
  foundBy: "id" | "state" | "marker" | "none" | "list";
}

const PRIVACY = new Set(["PUBLIC", "PRIVATE", "UNLISTED"]);

/**
 * Lists the library shows first but nobody saved: Liked Music, Episodes for Later and New Episodes
 * (PROTOCOL §4.5). They are not the person's items, so a library target never rates them away.
 */
const AUTO_PLAYLISTS = new Set(["LM", "SE", "RDPN"]);

function notAuto(item: Item): boolean {
  return !(item.playlistId !== null && AUTO_PLAYLISTS.has(item.playlistId));
}

function rowsOf(tracks: PlaylistResult["tracks"]): Item[] {
  return tracks.map((t, i) => fromTrack(t, "target", i + 1));
}

function fromPlaylist(playlistId: string, p: PlaylistResult): ActualTarget {
  const rows = rowsOf(p.tracks);
  const count = p.trackCount ?? null;
  return {
    exists: true,
    playlistId,
    title: p.title ?? null,
    description: p.description ?? null,
    privacy: p.privacy && PRIVACY.has(p.privacy) ? (p.privacy as Privacy) : null,
    rows,
    truncated: count !== null && rows.length < count,
  };
}

function list(rows: Item[], playlistId: string | null = null): ActualTarget {
  return { exists: true, playlistId, title: null, description: null, privacy: null, rows, truncated: false };
}

const MISSING: ActualTarget = {
  exists: false,
  playlistId: null,
  title: null,
  description: null,
  privacy: null,
  rows: [],
  truncated: false,
};

export async function readTarget(
  target: TargetSpec,
  client: SourceClient,
  ctx: TargetReadContext,
): Promise<TargetRead> {
  const all = { limit: null };
  switch (target.type) {
    case "playlist": {
      if (target.playlist.id !== null) {
        const id = target.playlist.id;
        return { actual: fromPlaylist(id, await client.getPlaylist(id, all)), foundBy: "id" };
      }
      if (ctx.ownedPlaylistId !== null) {
        const p = await client.getPlaylist(ctx.ownedPlaylistId, all);
        return { actual: fromPlaylist(ctx.ownedPlaylistId, p), foundBy: "state" };
      }
      // No remembered id: look for a playlist of that title carrying this recipe's marker.
      const title = target.playlist.title;
      const candidates = (await client.getLibraryPlaylists(all)).filter(
        (c) => c.title === title && c.playlistId,
      );
      for (const c of candidates) {
        const p = await client.getPlaylist(c.playlistId!, all);
        if (markerRecipe(p.description ?? null) === ctx.recipeId) {
          return { actual: fromPlaylist(c.playlistId!, p), foundBy: "marker" };
        }
      }
      return { actual: MISSING, foundBy: "none" };
    }
    case "likes": {
      // Only liked songs can be read back; a DISLIKE target starts from nothing known.
      if (target.rating === "DISLIKE") return { actual: list([]), foundBy: "list" };
      const p = await client.getLikedSongs(all);
      return {
        actual: { ...fromPlaylist("LM", p), title: null, description: null, privacy: null },
        foundBy: "list",
      };
    }
    case "saved_episodes": {
      const p = await client.getSavedEpisodes(all);
      return {
        actual: { ...fromPlaylist("SE", p), title: null, description: null, privacy: null },
        foundBy: "list",
      };
    }
    case "subscriptions": {
      const rows = (await client.getLibrarySubscriptions(all)).map((a, i) =>
        fromArtistRow(a, "target", i + 1),
      );
      return { actual: list(rows), foundBy: "list" };
    }
    case "library": {
      switch (target.kind) {
        case "songs":
          return {
            actual: list((await client.getLibrarySongs(all)).map((t, i) => fromTrack(t, "target", i + 1))),
            foundBy: "list",
          };
        case "albums":
          return {
            actual: list(
              (await client.getLibraryAlbums(all)).map((a, i) => fromAlbumCard(a, "target", i + 1)),
            ),
            foundBy: "list",
          };
        case "playlists":
          return {
            actual: list(
              (await client.getLibraryPlaylists(all))
                .map((p, i) => fromPlaylistCard(p, "target", i + 1))
                .filter(notAuto),
            ),
            foundBy: "list",
          };
        case "podcasts":
          return {
            actual: list(
              (await client.getLibraryPodcasts(all))
                .map((p, i) => fromPodcastCard(p, "target", i + 1))
                .filter(notAuto),
            ),
            foundBy: "list",
          };
      }
    }
  }
}
