/**
 * `search` responses (PROTOCOL §4.1): `tabbedSearchResultsRenderer` with one tab per scope; the
 * unfiltered page holds a top-result card and one shelf per category, a filtered page one shelf with
 * shape-A continuations (captures yt_search_*).
 */
import { encodeSearchParams, type SearchScope } from "../search-params.js";
import type { AlbumRow, ArtistRow, EpisodeRow, PlaylistRow, PodcastRow, SongRow } from "../store/rows.js";
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
  nextContinuation,
  overlay,
  PAGE,
  queueItems,
  run,
  saveCollectionItem,
  shareItem,
  text,
  watch,
  watchPlaylist,
} from "./common.js";
import { typeWord } from "./display.js";
import { abbreviate, shortDate } from "./format.js";
import { artistRun, type Marks, pinToggle, songRow } from "./items.js";

export type SearchFilter =
  | "songs"
  | "videos"
  | "albums"
  | "artists"
  | "playlists"
  | "community_playlists"
  | "featured_playlists"
  | "profiles"
  | "podcasts"
  | "episodes";

export const SHELF_TITLES: Record<SearchFilter, string> = {
  songs: "Songs",
  videos: "Videos",
  albums: "Albums",
  artists: "Artists",
  playlists: "Playlists",
  community_playlists: "Community playlists",
  featured_playlists: "Featured playlists",
  profiles: "Profiles",
  podcasts: "Podcasts",
  episodes: "Episodes",
};

export interface ProfileRow {
  name: string;
  handle: string;
  channelId: string;
}

export type SearchItem =
  | { type: "song" | "video"; row: SongRow }
  | { type: "album"; row: AlbumRow }
  | { type: "artist"; row: ArtistRow }
  | { type: "playlist"; row: PlaylistRow; count: number }
  | { type: "podcast"; row: PodcastRow; pin?: boolean }
  | { type: "episode"; row: EpisodeRow }
  | { type: "profile"; row: ProfileRow };

function listRow(fields: Json): Json {
  return {
    musicResponsiveListItemRenderer: {
      ...fields,
      flexColumnDisplayStyle: "MUSIC_RESPONSIVE_LIST_ITEM_FLEX_COLUMN_DISPLAY_STYLE_TWO_LINE_STACK",
      itemHeight: "MUSIC_RESPONSIVE_LIST_ITEM_HEIGHT_TALL",
    },
  };
}

/** One result row; `typed` rows (unfiltered search) start their second column with the type word. */
export function searchRow(item: SearchItem, marks: Marks, typed: boolean): Json {
  const lead = (word: string) => (typed ? [run(word)] : []);
  switch (item.type) {
    case "song":
      return songRow(item.row, { style: "search", marks });
    case "video":
      return songRow(item.row, { style: typed ? "search-typed" : "search", marks });
    case "album": {
      const a = item.row;
      const nav = browse(a.browseId, PAGE.album);
      const row: Json = {
        thumbnail: musicThumbnail(imageSizes(a.browseId, [60, 120])),
        overlay: overlay(albumPlay(a)),
        flexColumns: [
          flex([run(a.title)]),
          flex(
            dotted([run(a.type), run(a.artistName, browse(a.channelId, PAGE.artist)), run(String(a.year))]),
          ),
        ],
        menu: {
          menuRenderer: {
            items: [
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
            ],
          },
        },
        navigationEndpoint: nav,
      };
      if (a.explicit) row.badges = [explicitBadge()];
      return listRow(row);
    }
    case "artist": {
      const a = item.row;
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
    case "playlist": {
      const p = item.row;
      const author = run(
        p.authorName,
        p.authorChannelId ? browse(p.authorChannelId, PAGE.channel) : undefined,
      );
      const second =
        p.kind === "editorial" || p.kind === "mood"
          ? run(`${item.count} songs`)
          : run(`${abbreviate(p.views)} views`);
      return listRow({
        thumbnail: musicThumbnail(imageSizes(p.playlistId, [60, 120])),
        overlay: overlay(watchPlaylist(p.playlistId)),
        flexColumns: [flex([run(p.title)]), flex(dotted([...lead("Playlist"), author, second]))],
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
    case "podcast": {
      const p = item.row;
      // A podcast among playlist results (`pin`) saves through a likeEndpoint and pins to Listen
      // again through feedbackEndpoints, signed out too (capture yt_search_playlists_20231228).
      const items = item.pin
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
          flex(dotted([...lead("Podcast"), run(p.channelName, browse(p.channelId, PAGE.channel))])),
        ],
        menu: { menuRenderer: { items } },
        navigationEndpoint: browse(`MPSP${p.playlistId}`, PAGE.podcast),
      });
    }
    case "episode": {
      const e = item.row;
      const we = watch(e.videoId, { videoType: "MUSIC_VIDEO_TYPE_PODCAST_EPISODE" });
      return listRow({
        thumbnail: musicThumbnail(imageSizes(e.videoId, [], true)),
        overlay: overlay(we),
        flexColumns: [
          flex([run(e.title, browse(`MPED${e.videoId}`, PAGE.episode))]),
          flex(
            dotted([
              ...lead("Episode"),
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
    case "profile": {
      const p = item.row;
      return listRow({
        thumbnail: musicThumbnail(imageSizes(p.channelId, [60, 120])),
        flexColumns: [flex([run(p.name)]), flex(dotted([run("Profile"), run(p.handle)]))],
        menu: { menuRenderer: { items: [shareItem(p.channelId)] } },
        navigationEndpoint: browse(p.channelId, PAGE.channel),
      });
    }
  }
}

/** The "Top result" card of an unfiltered search: a song, video, album, artist, playlist or podcast. */
export function topResultCard(item: SearchItem, marks: Marks, language = "en"): Json {
  const base: Json = { header: { musicCardShelfHeaderBasicRenderer: { title: text("Top result") } } };
  if (item.type === "artist") {
    const a = item.row;
    const nav = browse(a.channelId, PAGE.artist);
    return {
      musicCardShelfRenderer: {
        ...base,
        thumbnail: musicThumbnail(imageSizes(a.channelId, [120, 226])),
        title: { runs: [run(a.name, nav)] },
        subtitle: {
          runs: dotted([run(typeWord("artist", language)), run(`${abbreviate(a.subscribers)} subscribers`)]),
        },
        onTap: nav,
        contents: [],
      },
    };
  }
  if (item.type === "song" || item.type === "video") {
    const s = item.row;
    const we = watch(s.videoId, { videoType: s.videoType });
    const sub = [run(typeWord(item.type, language)), artistRun(s)];
    if (s.albumBrowseId) sub.push(run(s.albumTitle ?? "", browse(s.albumBrowseId, PAGE.album)));
    return {
      musicCardShelfRenderer: {
        ...base,
        thumbnail: musicThumbnail(imageSizes(s.videoId, [120, 226])),
        title: { runs: [run(s.title, we)] },
        subtitle: { runs: dotted(sub) },
        onTap: we,
        buttons: [{ buttonRenderer: { text: text("Play"), command: we } }],
        menu: {
          menuRenderer: { items: [libraryToggle("song", s.videoId, marks.inLibrary("song", s.videoId))] },
        },
        contents: [],
      },
    };
  }
  if (item.type === "playlist") {
    // A playlist named like the query (capture yt_search_basic_with_podcast_community_playlists_20250605):
    // the title links to the playlist page, "Play" plays it, and the menu starts with shuffle.
    const p = item.row;
    const nav = browse(`VL${p.playlistId}`, PAGE.playlist);
    const author = run(p.authorName, p.authorChannelId ? browse(p.authorChannelId, PAGE.channel) : undefined);
    return {
      musicCardShelfRenderer: {
        ...base,
        thumbnail: musicThumbnail(imageSizes(p.playlistId, [120, 226])),
        title: { runs: [run(p.title, nav)] },
        subtitle: {
          runs: dotted([run(typeWord("playlist", language)), author, run(`${abbreviate(p.views)} views`)]),
        },
        onTap: nav,
        buttons: [
          { buttonRenderer: { text: text("Play"), command: watchPlaylist(p.playlistId) } },
          {
            buttonRenderer: { text: text("Shuffle"), command: watchPlaylist(p.playlistId, "wAEB8gECKAE%3D") },
          },
        ],
        menu: {
          menuRenderer: {
            items: [
              navItem("Shuffle play", "MUSIC_SHUFFLE", watchPlaylist(p.playlistId, "wAEB8gECKAE%3D")),
              navItem("Start radio", "MIX", watchPlaylist(`RDAMPL${p.playlistId}`, "wAEB")),
              saveCollectionItem(p.playlistId, marks.saved(p.playlistId)),
              shareItem(p.playlistId),
            ],
          },
        },
        contents: [],
      },
    };
  }
  if (item.type === "podcast") {
    const p = item.row;
    const nav = browse(`MPSP${p.playlistId}`, PAGE.podcast);
    return {
      musicCardShelfRenderer: {
        ...base,
        thumbnail: musicThumbnail(imageSizes(p.playlistId, [120, 226])),
        title: { runs: [run(p.title, nav)] },
        subtitle: {
          runs: dotted([
            run(typeWord("podcast", language)),
            run(p.channelName, browse(p.channelId, PAGE.channel)),
          ]),
        },
        onTap: nav,
        buttons: [{ buttonRenderer: { text: text("Play"), command: watchPlaylist(p.playlistId) } }],
        menu: {
          menuRenderer: {
            items: [
              saveCollectionItem(p.playlistId, marks.saved(p.playlistId), "podcast"),
              shareItem(p.playlistId),
            ],
          },
        },
        contents: [],
      },
    };
  }
  const a = item.row as AlbumRow;
  const nav = browse(a.browseId, PAGE.album);
  return {
    musicCardShelfRenderer: {
      ...base,
      thumbnail: musicThumbnail(imageSizes(a.browseId, [120, 226])),
      title: { runs: [run(a.title, nav)] },
      subtitle: {
        runs: dotted([
          run(a.type === "Album" ? typeWord("album", language) : a.type),
          run(a.artistName, browse(a.channelId, PAGE.artist)),
          run(String(a.year)),
        ]),
      },
      onTap: nav,
      buttons: [{ buttonRenderer: { text: text("Play"), command: watchPlaylist(a.audioPlaylistId) } }],
      contents: [],
    },
  };
}

export function shelf(title: string, rows: Json[], token: string | null, more?: Json): Json {
  const body: Json = { title: text(title), contents: rows };
  if (token) body.continuations = nextContinuation(token);
  if (more) {
    body.bottomText = text("Show all");
    body.bottomEndpoint = more;
  }
  body.shelfDivider = { musicShelfDividerRenderer: { hidden: true } };
  return { musicShelfRenderer: body };
}

/** What a search page shows around its sections: the tab it fills, and its chip row. */
export interface SearchView {
  query: string;
  /** The tab that holds the sections. */
  scope: SearchScope;
  /** A filtered page is its scope's only tab (captures yt_search_songs_20231226, yt_search_library_albums_20231228). */
  filtered: boolean;
  /** The chips, in order; none on pages without results. */
  chips: SearchFilter[];
  /** The chip of the page's filter, drawn selected. */
  selected: SearchFilter | null;
}

const TABS: { scope: SearchScope; title: string; id: string }[] = [
  { scope: "catalogue", title: "YT Music", id: "music_search_catalog" },
  { scope: "library", title: "Library", id: "music_search_library" },
  { scope: "uploads", title: "Uploads", id: "music_search_upload" },
];

/**
 * The endpoint of a link to a category or scope: the web client's params for it (chips, "Show all"
 * links and tabs all carry them in the captures), none for the plain catalogue search.
 */
export function searchLink(query: string, filter: SearchFilter | null, scope: SearchScope): Json {
  if (!filter && scope === "catalogue") return { searchEndpoint: { query } };
  return { searchEndpoint: { query, params: encodeSearchParams(filter, scope) } };
}

/** A tab names its scope even for YT Music (`agIYAQ%3D%3D`, capture yt_search_uploads_20231228). */
function tabLink(query: string, scope: SearchScope): Json {
  return { searchEndpoint: { query, params: encodeSearchParams(null, scope) } };
}

/** Chip labels for screen readers, as the captures word them ("Show album results"). */
const CHIP_NOUNS: Record<SearchFilter, string> = {
  songs: "song",
  videos: "video",
  albums: "album",
  artists: "artist",
  playlists: "playlist",
  community_playlists: "community playlist",
  featured_playlists: "featured playlist",
  profiles: "profile",
  podcasts: "podcast",
  episodes: "podcast episode",
};

function chipLabel(filter: SearchFilter, selected: boolean): string {
  if (!selected) return `Show ${CHIP_NOUNS[filter]} results`;
  // The selected featured chip says "first-party" (capture yt_search_featured_playlists_20231226).
  const noun = filter === "featured_playlists" ? "first-party playlist" : CHIP_NOUNS[filter];
  return `Show ${noun} results selected`;
}

function filterChip(query: string, filter: SearchFilter, scope: SearchScope, selected: boolean): Json {
  return {
    chipCloudChipRenderer: {
      style: { styleType: selected ? "STYLE_PRIMARY" : "STYLE_DEFAULT" },
      text: text(SHELF_TITLES[filter]),
      navigationEndpoint: searchLink(query, filter, scope),
      accessibilityData: { accessibilityData: { label: chipLabel(filter, selected) } },
      isSelected: selected,
      uniqueId: SHELF_TITLES[filter],
    },
  };
}

/** The "Clear filters" chip leading a filtered page's row: back to the scope's unfiltered page. */
function clearChip(query: string, scope: SearchScope): Json {
  return {
    chipCloudChipRenderer: {
      style: { styleType: "STYLE_SECONDARY" },
      navigationEndpoint: searchLink(query, null, scope),
      icon: { iconType: "CLOSE" },
      accessibilityData: { accessibilityData: { label: "Clear filters" } },
      isSelected: false,
    },
  };
}

function chipCloud(view: SearchView): Json {
  const chips = view.chips.map((f) => filterChip(view.query, f, view.scope, f === view.selected));
  if (view.filtered) chips.unshift(clearChip(view.query, view.scope));
  return { chipCloudRenderer: { chips, collapsedRowCount: 1, horizontalScrollable: true } };
}

/** The tabbed page: the view's tab holds `sections`, the others link to their scope. */
export function searchPage(view: SearchView, sections: Json[]): Json {
  const content: Json = { sectionListRenderer: { contents: sections } };
  if (view.chips.length) (content.sectionListRenderer as Json).header = chipCloud(view);
  const shown = view.filtered
    ? TABS.filter((t) => t.scope === view.scope)
    : TABS.slice(0, view.scope === "uploads" ? 3 : 2);
  const tabs = shown.map((t) =>
    t.scope === view.scope
      ? { tabRenderer: { title: t.title, selected: true, content, tabIdentifier: t.id } }
      : { tabRenderer: { title: t.title, endpoint: tabLink(view.query, t.scope), tabIdentifier: t.id } },
  );
  return { contents: { tabbedSearchResultsRenderer: { tabs } } };
}

export function noResults(query: string): Json {
  return {
    itemSectionRenderer: {
      contents: [
        {
          messageRenderer: {
            text: text("No results found"),
            subtext: { messageSubtextRenderer: { text: text(`Try different keywords than "${query}"`) } },
          },
        },
      ],
    },
  };
}

export function searchContinuation(rows: Json[], token: string | null): Json {
  const body: Json = { contents: rows, shelfDivider: { musicShelfDividerRenderer: { hidden: true } } };
  if (token) body.continuations = nextContinuation(token);
  return { continuationContents: { musicShelfContinuation: body } };
}
