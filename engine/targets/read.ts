/**
 * Reads a target's actual state through the same client interface as the sources. A playlist the
 * engine created is found by the id it remembers, else among the library playlists by the recipe's
 * marker in its description (those of the recipe's title looked at first, then the person's others,
 * in case it was renamed) — so a lost database never leads to a second copy.
 */

import { markerRecipe } from "../plan/ownership.js";
import type { ActualTarget } from "../plan/types.js";
import { sameTitle } from "../recipe/service-text.js";
import type { Privacy, TargetSpec } from "../recipe/types.js";
import type { Item } from "../sources/item.js";
import {
  fromAlbumCard,
  fromArtistRow,
  fromPlaylistCard,
  fromPodcastCard,
  fromTrack,
} from "../sources/normalise.js";
import type { PlaylistCardResult, PlaylistResult, SourceClient } from "../sources/reader.js";

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
 * (docs/PROTOCOL.md#library). They are not the person's items, so a library target never rates them away.
 */
const AUTO_PLAYLISTS = new Set(["LM", "SE", "RDPN"]);

function notAuto(item: Item): boolean {
  return !(item.playlistId !== null && AUTO_PLAYLISTS.has(item.playlistId));
}

function rowsOf(tracks: PlaylistResult["tracks"]): Item[] {
  return tracks.map((t, i) => fromTrack(t, "target", i + 1));
}

/** Fewer rows than the page says it holds: the read was cut short. */
export function cutShort(count: number | null | undefined, got: number): boolean {
  return typeof count === "number" && got < count;
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
    truncated: cutShort(count, rows.length),
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

/**
 * The library could not be read in full while looking for the recipe's own playlist: not finding
 * it then proves nothing, and creating one could make a second.
 */
export class IncompleteLibraryError extends Error {
  constructor(recipeId: string, detail: string) {
    super(
      `could not read the whole library to look for the playlist of recipe "${recipeId}" (${detail}); not creating one so as not to make a second`,
    );
    this.name = "IncompleteLibraryError";
  }
}

/**
 * Ids nobody's account can own: the auto playlists and the service's mixes, radios and charts
 * (`RD…`). The engine only ever creates playlists, so its own is never one of these.
 */
function serviceMade(id: string): boolean {
  return AUTO_PLAYLISTS.has(id) || id.startsWith("RD");
}

/**
 * The library playlists worth opening to look for the recipe's marker, in the order to open them:
 * those titled like the recipe (as the service compares titles) first, then the rest the person
 * may own: a playlist the person renamed by hand still carries the marker. A card saying
 * `owned: false` is passed over only when another card of the same listing says `owned: true`,
 * i.e. when the rows carry ownership at all; rows without it (no menus) are all opened, because
 * opening one too many costs a read and passing ours over would make a second playlist.
 */
export function markerCandidates(
  cards: readonly PlaylistCardResult[],
  title: string | null,
): { id: string; titled: boolean }[] {
  const ownership = cards.some((c) => c.owned === true);
  const open = cards.filter(
    (c): c is PlaylistCardResult & { playlistId: string } =>
      !!c.playlistId && !serviceMade(c.playlistId) && !(ownership && c.owned === false),
  );
  const titled = open.filter((c) => sameTitle(c.title ?? null, title));
  const rest = open.filter((c) => !sameTitle(c.title ?? null, title));
  return [
    ...titled.map((c) => ({ id: c.playlistId, titled: true })),
    ...rest.map((c) => ({ id: c.playlistId, titled: false })),
  ];
}

/**
 * The first library playlist whose marker names the recipe. A titled candidate is likely the one,
 * so it is read whole at once; any other is read one page (its description is in the header) and
 * read whole only when the marker is there.
 */
async function markedAmong(
  cards: readonly PlaylistCardResult[],
  title: string | null,
  recipeId: string,
  client: SourceClient,
  checked: Set<string>,
): Promise<TargetRead | null> {
  for (const { id, titled } of markerCandidates(cards, title)) {
    if (checked.has(id)) continue;
    checked.add(id);
    const head = await client.getPlaylist(id, { limit: titled ? null : 1 });
    if (markerRecipe(head.description ?? null) !== recipeId) continue;
    const p = titled ? head : await client.getPlaylist(id, { limit: null });
    return { actual: fromPlaylist(id, p), foundBy: "marker" };
  }
  return null;
}

function listing(cards: readonly PlaylistCardResult[]): string {
  return cards
    .map((c) => c.playlistId ?? "")
    .sort()
    .join(" ");
}

/**
 * No remembered id: look through the whole library for a playlist carrying the recipe's marker,
 * under its title or, renamed by hand, under any other (docs/ENGINE.md#ownership: a lost database
 * never makes a second playlist). That costs one read per playlist the person owns, but only on
 * this path, the one that would create a playlist: the state has no record of it and no playlist
 * of that title carries the marker. Library lists carry no count, so a list cut short (a lost
 * continuation, a half page) looks complete; before answering "not there" (which makes the plan
 * create one), a second full read must list the same playlists. Finding the marker needs no such
 * proof.
 */
async function findByMarker(
  client: SourceClient,
  title: string | null,
  recipeId: string,
): Promise<TargetRead> {
  const checked = new Set<string>();
  const first = await client.getLibraryPlaylists({ limit: null });
  const found = await markedAmong(first, title, recipeId, client, checked);
  if (found) return found;
  const second = await client.getLibraryPlaylists({ limit: null });
  const again = await markedAmong(second, title, recipeId, client, checked);
  if (again) return again;
  if (listing(first) !== listing(second)) {
    throw new IncompleteLibraryError(
      recipeId,
      `two reads of it listed ${first.length} and ${second.length} playlists`,
    );
  }
  return { actual: MISSING, foundBy: "none" };
}

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
      return findByMarker(client, target.playlist.title, ctx.recipeId);
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
