/**
 * Search result rows (`musicResponsiveListItemRenderer`), one builder per kind of result, for the
 * shelves of both the unfiltered and the filtered search page (docs/PROTOCOL.md#search, captures yt_search_*).
 */
import type { AlbumRow, ArtistRow, EpisodeRow, PlaylistRow, PodcastRow } from "../store/rows.js";
import { artistMixIds } from "./artist.js";
import {
  addToPlaylistItem,
  albumPlay,
  browse,
  dotted,
  downloadPlaylistItem,
  explicitBadge,
  flex,
  imageSizes,
  type Json,
  libraryToggle,
  musicThumbnail,
  navItem,
  overlay,
  PAGE,
  queueItems,
  run,
  saveCollectionItem,
  shareItem,
  watch,
  watchPlaylist,
} from "./common.js";
import { abbreviate, shortDate } from "./format.js";
import { type Marks, pinToggle, songRow } from "./items.js";
import type { ProfileRow, SearchItem } from "./search-items.js";

/** The row renderer around a kind's fields, with the two-line layout every result row shares. */
function listRow(fields: Json): Json {
  return {
    musicResponsiveListItemRenderer: {
      ...fields,
      flexColumnDisplayStyle: "MUSIC_RESPONSIVE_LIST_ITEM_FLEX_COLUMN_DISPLAY_STYLE_TWO_LINE_STACK",
      itemHeight: "MUSIC_RESPONSIVE_LIST_ITEM_HEIGHT_TALL",
    },
  };
}

/** The type word that starts the second column of an unfiltered (`typed`) page's rows. */
const lead = (typed: boolean, word: string): Json[] => (typed ? [run(word)] : []);

/** One result row; `typed` rows (unfiltered search) start their second column with the type word. */
export function searchRow(item: SearchItem, marks: Marks, typed: boolean): Json {
  switch (item.type) {
    case "song":
      return songRow(item.row, { style: "search", marks });
    case "video":
      return songRow(item.row, { style: typed ? "search-typed" : "search", marks });
    case "album":
      return albumResult(item.row, marks);
    case "artist":
      return artistResult(item.row);
    case "playlist":
      return playlistResult(item.row, item.count, marks, typed);
    case "podcast":
      return podcastResult(item.row, marks, typed, item.pin === true);
    case "episode":
      return episodeResult(item.row, typed);
    case "profile":
      return profileResult(item.row);
  }
}

/** An album row: `Album • Artist • 2021`, its play overlay and the album menu (yt_search_albums_20231226). */
function albumResult(a: AlbumRow, marks: Marks): Json {
  const row: Json = {
    thumbnail: musicThumbnail(imageSizes(a.browseId, [60, 120])),
    overlay: overlay(albumPlay(a)),
    flexColumns: [
      flex([run(a.title)]),
      flex(dotted([run(a.type), run(a.artistName, browse(a.channelId, PAGE.artist)), run(String(a.year))])),
    ],
    menu: { menuRenderer: { items: albumMenuItems(a, marks) } },
    navigationEndpoint: browse(a.browseId, PAGE.album),
  };
  if (a.explicit) row.badges = [explicitBadge()];
  return listRow(row);
}

/** The album row's menu: play, queue, save, download, add to a playlist, its artist, share. */
function albumMenuItems(a: AlbumRow, marks: Marks): Json[] {
  return [
    navItem("Shuffle play", "MUSIC_SHUFFLE", watchPlaylist(a.audioPlaylistId, "wAEB8gECKAE%3D")),
    navItem("Start radio", "MIX", watchPlaylist(`RDAMPL${a.audioPlaylistId}`, "wAEB")),
    ...queueItems({ playlistId: a.audioPlaylistId }, "Album"),
    saveCollectionItem(a.audioPlaylistId, marks.saved(a.audioPlaylistId), "album"),
    downloadPlaylistItem(a.audioPlaylistId),
    navItem("Save to playlist", "ADD_TO_PLAYLIST", {
      addToPlaylistEndpoint: { playlistId: a.audioPlaylistId },
    }),
    navItem("Go to artist", "ARTIST", browse(a.channelId, PAGE.artist)),
    shareItem(a.browseId),
  ];
}

/** An artist row: `Artist • 1.2M subscribers`, its mixes in the menu (yt_search_artists_20231226). */
function artistResult(a: ArtistRow): Json {
  const mix = artistMixIds(a.channelId);
  return listRow({
    thumbnail: musicThumbnail(imageSizes(a.channelId, [60, 120])),
    flexColumns: [
      flex([run(a.name)]),
      flex(dotted([run("Artist"), run(`${abbreviate(a.subscribers)} subscribers`)])),
    ],
    menu: {
      menuRenderer: {
        items: [
          navItem("Shuffle play", "MUSIC_SHUFFLE", watchPlaylist(mix.shuffle, "wAEB8gECGAE%3D")),
          navItem("Start radio", "MIX", watchPlaylist(mix.radio, "wAEB")),
          shareItem(a.channelId),
        ],
      },
    },
    navigationEndpoint: browse(a.channelId, PAGE.artist),
  });
}

/**
 * A playlist row: its author, then its song count (editorial and mood playlists) or its views
 * (yt_search_community_playlists_20231226, yt_search_featured_playlists_20231226).
 */
function playlistResult(p: PlaylistRow, count: number, marks: Marks, typed: boolean): Json {
  const author = run(p.authorName, p.authorChannelId ? browse(p.authorChannelId, PAGE.channel) : undefined);
  const second =
    p.kind === "editorial" || p.kind === "mood" ? run(`${count} songs`) : run(`${abbreviate(p.views)} views`);
  return listRow({
    thumbnail: musicThumbnail(imageSizes(p.playlistId, [60, 120])),
    overlay: overlay(watchPlaylist(p.playlistId)),
    flexColumns: [flex([run(p.title)]), flex(dotted([...lead(typed, "Playlist"), author, second]))],
    menu: {
      menuRenderer: {
        items: [
          navItem("Shuffle play", "MUSIC_SHUFFLE", watchPlaylist(p.playlistId, "wAEB8gECKAE%3D")),
          navItem("Start radio", "MIX", watchPlaylist(`RDAMPL${p.playlistId}`, "wAEB")),
          ...queueItems({ playlistId: p.playlistId }, "Playlist"),
          // Signed out, both save items open sign-in modals (capture yt_search_playlists_20231228).
          saveCollectionItem(p.playlistId, marks.saved(p.playlistId), "playlist", marks.signedIn),
          addToPlaylistItem({ playlistId: p.playlistId }, marks.signedIn),
          shareItem(p.playlistId),
        ],
      },
    },
    navigationEndpoint: browse(`VL${p.playlistId}`, PAGE.playlist),
  });
}

/** A podcast row: its channel under the title, save and share in the menu (yt_search_podcasts_20231226). */
function podcastResult(p: PodcastRow, marks: Marks, typed: boolean, pin: boolean): Json {
  // A podcast among playlist results (`pin`) saves through a likeEndpoint and pins to Listen
  // again through feedbackEndpoints, signed out too (capture yt_search_playlists_20231228).
  const items = pin
    ? [
        saveCollectionItem(p.playlistId, marks.saved(p.playlistId)),
        shareItem(p.playlistId),
        pinToggle("podcast", p.playlistId, marks.inLibrary("pin", p.playlistId)),
      ]
    : [saveCollectionItem(p.playlistId, marks.saved(p.playlistId), "podcast"), shareItem(p.playlistId)];
  return listRow({
    thumbnail: musicThumbnail(imageSizes(p.playlistId, [60, 120])),
    overlay: overlay(watchPlaylist(p.playlistId)),
    flexColumns: [
      flex([run(p.title)]),
      flex(dotted([...lead(typed, "Podcast"), run(p.channelName, browse(p.channelId, PAGE.channel))])),
    ],
    menu: { menuRenderer: { items } },
    navigationEndpoint: browse(`MPSP${p.playlistId}`, PAGE.podcast),
  });
}

/** An episode row: its title links to the episode page, then `date • channel`; no row endpoint. */
function episodeResult(e: EpisodeRow, typed: boolean): Json {
  const we = watch(e.videoId, { videoType: "MUSIC_VIDEO_TYPE_PODCAST_EPISODE" });
  return listRow({
    thumbnail: musicThumbnail(imageSizes(e.videoId, [], true)),
    overlay: overlay(we),
    flexColumns: [
      flex([run(e.title, browse(`MPED${e.videoId}`, PAGE.episode))]),
      flex(
        dotted([
          ...lead(typed, "Episode"),
          run(shortDate(e.publishedDay * 86_400_000)),
          run(e.channelName, browse(e.channelId, PAGE.channel)),
        ]),
      ),
    ],
    menu: {
      menuRenderer: {
        items: [
          libraryToggle("episode", e.videoId, false),
          ...queueItems({ videoId: e.videoId }, "Episode"),
          shareItem(e.videoId),
        ],
      },
    },
    playlistItemData: { videoId: e.videoId },
  });
}

/** A user's profile row: `Profile • @handle`, share only (yt_search_profiles_20231226). */
function profileResult(p: ProfileRow): Json {
  return listRow({
    thumbnail: musicThumbnail(imageSizes(p.channelId, [60, 120])),
    flexColumns: [flex([run(p.name)]), flex(dotted([run("Profile"), run(p.handle)]))],
    menu: { menuRenderer: { items: [shareItem(p.channelId)] } },
    navigationEndpoint: browse(p.channelId, PAGE.channel),
  });
}
