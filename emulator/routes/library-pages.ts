/** Library lists, history and uploads (all need a signed-in account). */

import type { ApiContext } from "../context.js";
import { invalidArgument, notFound } from "../errors.js";
import { type LibraryOrder, readLibraryParams } from "../library-sort.js";
import { type Json, text } from "../render/common.js";
import { historyPage } from "../render/history.js";
import { albumCard, historyToken, type Marks, playlistCard, podcastCard, songRow } from "../render/items.js";
import {
  addPodcastCard,
  artistRow,
  autoPodcastCards,
  LIBRARY_PAGE_SIZE,
  type ListContainer,
  libraryContinuationPage,
  libraryPage,
  librarySortedPage,
  likedMusicCard,
  newPlaylistCard,
  shuffleRow,
  subscribersText,
  uploadAlbumCard,
  uploadAlbumId,
  uploadAlbumPage,
  uploadArtistId,
  uploadArtistRow,
  uploadRow,
} from "../render/library.js";
import type { Store } from "../store/store.js";
import { type Continuation, continuationToken } from "../tokens.js";
import { marksFor } from "./marks.js";
import { requireAccount } from "./viewer.js";

type Order = LibraryOrder;

interface Entry {
  /** Sort key for the alphabetical orders. */
  name: string;
  render: () => Json;
}

interface ListSpec {
  container: ListContainer;
  tab: number;
  /** Fixed first items (New playlist card, Shuffle all row), only on the first page. */
  leading?: Json | Json[];
  entries: Entry[];
}

function orderOf(params: string | null): Order {
  const order = readLibraryParams(params);
  if (order === null) throw invalidArgument();
  return order;
}

/** What a list's builder reads: the store, the signed-in account and its like and library marks. */
interface Lister {
  store: Store;
  id: number;
  marks: Marks;
}

/** Owned playlists, then saved and liked ones that are not the account's own, each once. */
function likedPlaylists({ store, id }: Lister): ListSpec {
  const owned = store.playlists.playlistsOf(id).map((p) => ({ p, owned: true }));
  const saved = [
    ...store.library.libraryTargets(id, "playlist").map((t) => t.targetId),
    ...store.library.likedPlaylistIds(id),
  ]
    .map((pid) => store.playlists.playlist(pid))
    .filter((p) => p !== null && p.ownerAccountId !== id)
    .map((p) => ({ p: p!, owned: false }));
  const seen = new Set<string>();
  const all = [...owned, ...saved].filter((x) => !seen.has(x.p.playlistId) && seen.add(x.p.playlistId));
  return {
    container: "grid",
    tab: 0,
    // Liked Music is pinned after New playlist (capture yt_get_library_playlists).
    leading: [newPlaylistCard(), likedMusicCard()],
    entries: all.map(({ p, owned: o }) => ({
      name: p.title,
      render: () => playlistCard(p, store.playlists.playlistStats(p.playlistId).count, o),
    })),
  };
}

function librarySongs({ store, id, marks }: Lister): ListSpec {
  const songs = store.library
    .libraryTargets(id, "song")
    .map((t) => store.catalogue.song(t.targetId))
    .filter((s) => s !== null);
  return {
    container: "shelf",
    tab: 0,
    leading: shuffleRow("MLCT"),
    entries: songs.map((s) => ({
      name: s!.title,
      render: () => songRow(s!, { style: "library", marks }),
    })),
  };
}

function likedAlbums({ store, id, marks }: Lister): ListSpec {
  const albums = store.library
    .likedPlaylistIds(id)
    .map((pid) => store.catalogue.albumByAudioPlaylist(pid))
    .filter((a) => a !== null);
  return {
    container: "grid",
    tab: 0,
    entries: albums.map((a) => ({ name: a!.title, render: () => albumCard(a!, marks) })),
  };
}

/** The artists of the library's songs, each with how many of them it has. */
function songArtists({ store, id }: Lister): ListSpec {
  const counts = new Map<number, number>();
  for (const t of store.library.libraryTargets(id, "song")) {
    const s = store.catalogue.song(t.targetId);
    if (s) counts.set(s.artistId, (counts.get(s.artistId) ?? 0) + 1);
  }
  const artists = [...counts.keys()].map((a) => store.catalogue.artistById(a)).filter((a) => a !== null);
  return {
    container: "shelf",
    tab: 0,
    entries: artists.map((a) => ({
      name: a!.name,
      render: () => artistRow(a!, `${counts.get(a!.id)} ${counts.get(a!.id) === 1 ? "song" : "songs"}`, true),
    })),
  };
}

/** Subscriptions of one kind: artists, or the non-music channels podcasts come from. */
const subscriptions =
  (kind: "artist" | "channel") =>
  ({ store, id }: Lister): ListSpec => {
    const artists = store.library
      .libraryTargets(id, "subscription")
      .map((t) => store.catalogue.artist(t.targetId))
      .filter((a) => a !== null && a.kind === kind);
    return {
      container: "shelf",
      tab: 0,
      entries: artists.map((a) => ({
        name: a!.name,
        render: () => artistRow(a!, subscribersText(a!.subscribers), false),
      })),
    };
  };

function likedPodcasts({ store, id }: Lister): ListSpec {
  const podcasts = store.library
    .likedPlaylistIds(id)
    .map((pid) => store.catalogue.podcast(pid))
    .filter((p) => p !== null);
  const newEpisodes = podcasts.reduce(
    (n, p) => n + Math.min(5, store.catalogue.episodes(p!.id, 0, 5).length),
    0,
  );
  // "Add podcast" comes first (clients skip it), then the two auto playlists, then the shows
  // (capture yt_get_library_podcasts_20250626).
  return {
    container: "grid",
    tab: 0,
    leading: [addPodcastCard(), ...autoPodcastCards(newEpisodes)],
    entries: podcasts.map((p) => ({ name: p!.title, render: () => podcastCard(p!, true) })),
  };
}

function uploadedTracks({ store, id, marks }: Lister): ListSpec {
  const uploads = store.library.uploads(id);
  return {
    container: "shelf",
    tab: 1,
    leading: shuffleRow("MLPT"),
    entries: uploads.map((u) => ({
      name: u.title,
      render: () => uploadRow(u, marks.likeStatus(u.videoId)),
    })),
  };
}

/** The albums the uploads name (artist and album title), with how many tracks each has. */
function uploadedAlbums({ store, id }: Lister): ListSpec {
  const albums = new Map<string, { artist: string; album: string; count: number }>();
  for (const u of store.library.uploads(id)) {
    const key = uploadAlbumId(u.artistName, u.albumTitle);
    const a = albums.get(key) ?? { artist: u.artistName, album: u.albumTitle, count: 0 };
    a.count++;
    albums.set(key, a);
  }
  return {
    container: "grid",
    tab: 1,
    entries: [...albums.values()].map((a) => ({
      name: a.album,
      render: () => uploadAlbumCard(a.artist, a.album, a.count),
    })),
  };
}

function uploadedArtists({ store, id }: Lister): ListSpec {
  const artists = new Map<string, number>();
  for (const u of store.library.uploads(id)) artists.set(u.artistName, (artists.get(u.artistName) ?? 0) + 1);
  return {
    container: "shelf",
    tab: 1,
    entries: [...artists.entries()].map(([name, n]) => ({
      name,
      render: () => uploadArtistRow(name, n),
    })),
  };
}

/** Each library list's builder, by browse id. */
const LISTS: ReadonlyMap<string, (l: Lister) => ListSpec> = new Map([
  ["FEmusic_liked_playlists", likedPlaylists],
  ["FEmusic_liked_videos", librarySongs],
  ["FEmusic_liked_albums", likedAlbums],
  ["FEmusic_library_corpus_track_artists", songArtists],
  ["FEmusic_library_corpus_artists", subscriptions("artist")],
  ["FEmusic_library_non_music_audio_list", likedPodcasts],
  ["FEmusic_library_non_music_audio_channels_list", subscriptions("channel")],
  ["FEmusic_library_privately_owned_tracks", uploadedTracks],
  ["FEmusic_library_privately_owned_releases", uploadedAlbums],
  ["FEmusic_library_privately_owned_artists", uploadedArtists],
]);

function page(ctx: ApiContext, browseId: string, order: Order, offset: number) {
  const account = requireAccount(ctx);
  const store = ctx.state.store;
  const spec = LISTS.get(browseId)!({ store, id: account.id, marks: marksFor(store, account.id) });
  const entries = [...spec.entries];
  if (order !== "recently_added") {
    entries.sort((a, b) => a.name.localeCompare(b.name, "en"));
    if (order === "z_to_a") entries.reverse();
  }
  const slice = entries.slice(offset, offset + LIBRARY_PAGE_SIZE).map((e) => e.render());
  const next = offset + LIBRARY_PAGE_SIZE;
  const token = next < entries.length ? continuationToken({ k: "lib", id: browseId, o: next, order }) : null;
  const leading = offset === 0 && spec.leading ? [spec.leading].flat() : [];
  return { spec, items: [...leading, ...slice], token };
}

export function libraryBrowse(ctx: ApiContext, browseId: string, params: string | null): unknown | null {
  if (browseId === "FEmusic_history") {
    const account = requireAccount(ctx);
    const store = ctx.state.store;
    const marks = marksFor(store, account.id);
    return historyPage(
      store.library
        .history(account.id)
        .map((h) => ({ song: h, playedAt: h.playedAt, token: historyToken(h.historyId) })),
      marks,
      ctx.state.now(),
    );
  }
  if (browseId.startsWith("FEmusic_library_privately_owned_artist_detail")) {
    const account = requireAccount(ctx);
    const store = ctx.state.store;
    const uploads = store.library
      .uploads(account.id)
      .filter((u) => uploadArtistId(u.artistName) === browseId);
    if (!uploads.length) throw notFound();
    const marks = marksFor(store, account.id);
    // An uploaded artist's page names the artist in a plain header (capture
    // yt_get_library_upload_artist_20240712).
    return {
      ...libraryPage(
        "shelf",
        [shuffleRow("MLPT"), ...uploads.map((u) => uploadRow(u, marks.likeStatus(u.videoId)))],
        null,
        { browseId: "FEmusic_library_privately_owned_artists", order: "recently_added" },
      ),
      header: { musicHeaderRenderer: { title: text(uploads[0]!.artistName) } },
    };
  }
  if (browseId.startsWith("FEmusic_library_privately_owned_release_detail")) {
    const account = requireAccount(ctx);
    const store = ctx.state.store;
    const uploads = store.library
      .uploads(account.id)
      .filter((u) => uploadAlbumId(u.artistName, u.albumTitle) === browseId);
    if (!uploads.length) throw notFound();
    const marks = marksFor(store, account.id);
    return uploadAlbumPage(
      uploads[0]!.artistName,
      uploads[0]!.albumTitle,
      uploads.map((u) => uploadRow(u, marks.likeStatus(u.videoId))),
      uploads.reduce((n, u) => n + u.durationSeconds, 0),
    );
  }
  const list = listOf(browseId);
  if (list === null) return null;
  const order = orderOf(params);
  const p = page(ctx, list, order, 0);
  return libraryPage(p.spec.container, p.items, p.token, { browseId, order, tab: p.spec.tab });
}

/** The list a library browse id shows: the landing page shows the playlists, with every filter chip. */
function listOf(browseId: string): string | null {
  if (browseId === "FEmusic_library_landing") return "FEmusic_liked_playlists";
  return LISTS.has(browseId) ? browseId : null;
}

/**
 * A sort choice sent back as the menu's self-contained browse continuation (youtubei.js's
 * `Library.applySort` sends it so): the list re-sorted from its start, in a section-list
 * continuation. Null when the token names no library list.
 */
export function librarySortReload(ctx: ApiContext, browseId: string, params: string | null): unknown | null {
  const list = listOf(browseId);
  if (list === null) return null;
  const p = page(ctx, list, orderOf(params), 0);
  return librarySortedPage(p.spec.container, p.items, p.token);
}

export function libraryContinuation(ctx: ApiContext, c: Continuation): unknown | null {
  if (c.k !== "lib" || typeof c.id !== "string" || !LISTS.has(c.id)) return null;
  const order = (typeof c.order === "string" ? c.order : "recently_added") as Order;
  const p = page(ctx, c.id, order, c.o);
  return libraryContinuationPage(p.spec.container, p.items, p.token);
}
