/** Lyrics, related, credits, user channels and the taste profile. */
import type { ApiContext } from "../context.js";
import { invalidArgument, notFound } from "../errors.js";
import { hash32, Rng } from "../random.js";
import {
  creditsPage,
  lyricsPage,
  noLyricsPage,
  relatedPage,
  tasteProfilePage,
  timedLyricsPage,
  USER_PLAYLISTS_PARAMS,
  USER_VIDEOS_PARAMS,
  userPage,
  userPlaylistsPage,
  userVideosPage,
} from "../render/track.js";
import { ADJECTIVES, LYRIC_LINES, NOUNS } from "../words.js";
import { marks, requireAccount } from "./viewer.js";

/** Lyrics and related pages are keyed by the video id: `MPLYt_<videoId>`, `MPTRt_<videoId>`. */
export const lyricsBrowseId = (videoId: string) => `MPLYt_${videoId}`;
export const relatedBrowseId = (videoId: string) => `MPTRt_${videoId}`;

/** Generated lyrics: the same text for a video id every time. */
export function lyricsText(videoId: string): string {
  const r = new Rng(hash32(`lyrics:${videoId}`));
  const verses: string[] = [];
  for (let v = 0; v < 3; v++) {
    const lines: string[] = [];
    for (let l = 0; l < 4; l++) {
      lines.push(r.pick(LYRIC_LINES).replace("{n}", r.pick(NOUNS)).replace("{a}", r.pick(ADJECTIVES)));
    }
    verses.push(lines.join("\r\n"));
  }
  return verses.join("\r\n\r\n");
}

export function lyricsBrowse(ctx: ApiContext, browseId: string): unknown {
  const song = ctx.state.store.catalogue.song(browseId.slice(6));
  if (!song) throw notFound();
  if (!song.lyricsSource) return noLyricsPage();
  const text = lyricsText(song.videoId);
  if (ctx.clientName === "ANDROID_MUSIC") {
    return timedLyricsPage(
      text.split("\r\n").filter((l) => l !== ""),
      song.lyricsSource,
      song.durationSeconds,
    );
  }
  return lyricsPage(text, song.lyricsSource);
}

export function relatedBrowse(ctx: ApiContext, browseId: string): unknown {
  const store = ctx.state.store;
  const song = store.catalogue.song(browseId.slice(6));
  if (!song) throw notFound();
  const artist = store.catalogue.artistById(song.artistId)!;
  return relatedPage(
    store.catalogue.randomSongs(hash32(song.videoId), 10),
    store.catalogue.relatedArtists(artist.id, 5, 8),
    artist.description,
  );
}

export function creditsBrowse(ctx: ApiContext, videoId: string): unknown {
  const song = ctx.state.store.catalogue.song(videoId);
  if (!song) throw notFound();
  return creditsPage(song);
}

export function userBrowse(ctx: ApiContext, channelId: string, params: string | null): unknown | null {
  const store = ctx.state.store;
  const account = store.accounts.byChannel(channelId);
  // A community playlist's author links to its channel (capture yt_search_playlists_20231228); the
  // catalogue's authors have no account, so their page holds their playlists and no videos.
  const authored = account ? [] : store.playlists.playlistsByAuthor(channelId);
  if (!account && !authored.length) return null;
  const lists = account
    ? store.playlists.playlistsOf(account.id).filter((p) => p.privacy === "PUBLIC")
    : authored;
  const user = { name: account?.name ?? authored[0]!.authorName, channelId, marks: marks(ctx) };
  const videos = (limit: number) => (account ? store.catalogue.userVideos(account.id, limit) : []);
  if (params) {
    const p = decodeURIComponent(params);
    if (p === USER_VIDEOS_PARAMS) return userVideosPage(user, videos(100));
    if (p !== USER_PLAYLISTS_PARAMS) throw invalidArgument();
    return userPlaylistsPage(lists);
  }
  // The page's carousel shows the first few; "More" lists them all.
  return userPage(user, videos(10), lists);
}

export function tasteProfileBrowse(ctx: ApiContext): unknown {
  requireAccount(ctx);
  return tasteProfilePage(ctx.state.store.libraryEdits.tasteArtists());
}

/** `browse FEmusic_home` with `formData.selectedValues`: remembers the chosen artists. */
export function saveTasteProfile(ctx: ApiContext): void {
  const account = requireAccount(ctx);
  const form = ctx.body.formData as { selectedValues?: unknown; impressionValues?: unknown } | null;
  if (!form || typeof form !== "object" || !Array.isArray(form.selectedValues)) throw invalidArgument();
  const store = ctx.state.store;
  const byValue = new Map(
    store.libraryEdits
      .tasteArtists()
      .map((a) => [`tastebuilder_selection=/m/${a.channelId.slice(2, 12)}`, a]),
  );
  // A write inside a browse, outside the route table's transactions: it opens its own.
  store.tx(() => {
    for (const v of form.selectedValues as unknown[]) {
      const artist = typeof v === "string" ? byValue.get(v) : undefined;
      if (!artist) throw invalidArgument();
      store.libraryEdits.addTasteArtist(account.id, artist.id);
    }
  });
}
