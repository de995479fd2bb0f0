/**
 * Library pages (docs/PROTOCOL.md#library, docs/PROTOCOL.md#uploads): `SC_TAB.SL0` holding a `gridRenderer` (playlists, albums,
 * podcasts) or a `musicShelfRenderer` (songs, artists, subscriptions, channels), 25 items a page with
 * shape-A continuations; upload lists sit in the second tab (capture
 * yt_get_library_upload_songs_20240712). History: one shelf per period.
 */

import type { LibraryOrder } from "../library-sort.js";
import type { ArtistRow, UploadRow } from "../store/rows.js";
import { continuationToken } from "../tokens.js";
import { artistMixIds } from "./artist.js";
import {
  browse,
  dotted,
  fixed,
  flex,
  imageSizes,
  type Json,
  likeButton,
  musicThumbnail,
  navItem,
  nextContinuation,
  overlay,
  PAGE,
  queueItems,
  run,
  shareItem,
  text,
  watch,
  watchPlaylist,
} from "./common.js";
import { abbreviate, clock } from "./format.js";
import { libraryHeader } from "./library-header.js";

export const LIBRARY_PAGE_SIZE = 25;

export type ListContainer = "grid" | "shelf";

export function containerOf(kind: ListContainer, items: Json[], token: string | null): Json {
  const body: Json =
    kind === "grid" ? { itemSize: "COLLECTION_STYLE_ITEM_SIZE_SMALL", items } : { contents: items };
  if (token) body.continuations = nextContinuation(token);
  if (kind === "shelf") body.shelfDivider = { musicShelfDividerRenderer: { hidden: true } };
  return kind === "grid" ? { gridRenderer: body } : { musicShelfRenderer: body };
}

/**
 * A library page. Library lists fill the first of three tabs (Library, Downloads, Uploads); upload
 * lists fill the second of two (Library, Uploads) while the first holds only a reload token — the
 * layouts of the captures (yt_get_library_songs_20240701, yt_get_library_upload_songs_20240712),
 * which clients tell apart by the tab count (docs/PROTOCOL.md#library).
 */
export function libraryPage(
  kind: ListContainer,
  items: Json[],
  token: string | null,
  view: { browseId: string; order: LibraryOrder; tab?: number },
): Json {
  const tab = view.tab ?? 0;
  const sort = libraryHeader(view.browseId, view.order);
  const content = {
    sectionListRenderer: { contents: [containerOf(kind, items, token)], header: sort.header },
  };
  const empty = (browseId: string) => ({
    sectionListRenderer: {
      continuations: [
        {
          reloadContinuationData: {
            continuation: continuationToken({ k: "lib-landing", id: browseId, o: 0 }),
          },
        },
      ],
    },
  });
  const names = tab === 0 ? ["Library", "Downloads", "Uploads"] : ["Library", "Uploads"];
  const landing = ["FEmusic_library_landing", "FEmusic_offline", "FEmusic_library_privately_owned_landing"];
  const tabs = names.map((title, i) => ({
    tabRenderer: {
      title,
      selected: i === tab,
      content: i === tab ? content : empty(title === "Uploads" ? landing[2]! : landing[i]!),
      tabIdentifier: landing[title === "Uploads" ? 2 : i],
    },
  }));
  return {
    contents: { singleColumnBrowseResultsRenderer: { tabs } },
    frameworkUpdates: { entityBatchUpdate: { mutations: sort.mutations } },
  };
}

/**
 * A list reloaded by a sort choice: the section list's continuation holding the sorted list (where
 * the sort-menu row of docs/PROTOCOL.md#library and youtubei.js's `Library.applySort` read it).
 */
export function librarySortedPage(kind: ListContainer, items: Json[], token: string | null): Json {
  return {
    continuationContents: { sectionListContinuation: { contents: [containerOf(kind, items, token)] } },
  };
}

export function libraryContinuationPage(kind: ListContainer, items: Json[], token: string | null): Json {
  const body: Json =
    kind === "grid" ? { itemSize: "COLLECTION_STYLE_ITEM_SIZE_SMALL", items } : { contents: items };
  if (token) body.continuations = nextContinuation(token);
  return {
    continuationContents: kind === "grid" ? { gridContinuation: body } : { musicShelfContinuation: body },
  };
}

export function newPlaylistCard(): Json {
  const dialog = {
    createPlaylistEndpoint: {
      createPlaylistDialog: {
        createPlaylistDialogRenderer: {
          dialogTitle: text("New playlist"),
          titlePlaceholder: "Title",
          privacyOption: {
            dropdownRenderer: {
              entries: [
                ["Public", "PRIVACY_PUBLIC", 1],
                ["Unlisted", "PRIVACY_UNLISTED", 2],
                ["Private", "PRIVACY_PRIVATE", 3],
              ].map(([label, icon, value]) => ({
                dropdownItemRenderer: {
                  label: text(String(label)),
                  icon: { iconType: icon },
                  int32Value: value,
                  isSelected: value === 1,
                },
              })),
              label: "Privacy",
            },
          },
          cancelButton: {
            buttonRenderer: { style: "STYLE_LIGHT_TEXT", isDisabled: false, text: text("Cancel") },
          },
          createButton: {
            buttonRenderer: { style: "STYLE_PRIMARY", isDisabled: false, text: text("Create") },
          },
        },
      },
      params: "CAI%3D",
    },
  };
  return {
    musicTwoRowItemRenderer: {
      aspectRatio: "MUSIC_TWO_ROW_ITEM_THUMBNAIL_ASPECT_RATIO_SQUARE",
      navigationEndpoint: dialog,
      thumbnailRenderer: musicThumbnail([
        {
          url: "https://www.gstatic.com/youtube/media/ytm/images/pbg/create-playlist.png",
          width: 210,
          height: 210,
        },
      ]),
      title: { runs: [{ text: "New playlist", navigationEndpoint: dialog }] },
    },
  };
}

/**
 * The "Liked Music" auto playlist, pinned right after "New playlist" in the library's playlists
 * (capture yt_get_library_playlists: `VLLM`, subtitle "Auto playlist", a `KEEP` "Pinned" badge).
 */
export function likedMusicCard(): Json {
  const nav = browse("VLLM", PAGE.playlist);
  const art = (size: number) => ({
    url: `https://www.gstatic.com/youtube/media/ytm/images/pbg/liked-music-@${size}.png`,
    width: size,
    height: size,
  });
  return {
    musicTwoRowItemRenderer: {
      thumbnailRenderer: musicThumbnail([art(192), art(576)]),
      aspectRatio: "MUSIC_TWO_ROW_ITEM_THUMBNAIL_ASPECT_RATIO_SQUARE",
      title: { runs: [run("Liked Music", nav)] },
      subtitle: { runs: [run("Auto playlist")] },
      subtitleBadges: [
        {
          musicInlineBadgeRenderer: {
            icon: { iconType: "KEEP" },
            accessibilityData: { accessibilityData: { label: "Pinned" } },
          },
        },
      ],
      navigationEndpoint: nav,
      menu: {
        menuRenderer: {
          items: [
            navItem("Shuffle play", "MUSIC_SHUFFLE", watchPlaylist("LM", "wAEB8gECKAE%3D")),
            navItem("Start radio", "MIX", watchPlaylist("RDAMPLLM", "wAEB")),
          ],
        },
      },
      thumbnailOverlay: overlay(watchPlaylist("LM", "wAEB"), "MUSIC_PLAY_BUTTON_SIZE_MEDIUM"),
    },
  };
}

/**
 * The "Add podcast" card that opens the RSS-feed dialog; first in the podcast library (capture
 * yt_get_library_podcasts_20250626).
 */
export function addPodcastCard(): Json {
  return {
    musicTwoRowItemRenderer: {
      thumbnailRenderer: musicThumbnail([
        {
          url: "https://www.gstatic.com/youtube/media/ytm/images/pbg/create-playlist-@210.png",
          width: 210,
          height: 210,
        },
      ]),
      aspectRatio: "MUSIC_TWO_ROW_ITEM_THUMBNAIL_ASPECT_RATIO_SQUARE",
      title: text("Add podcast"),
      subtitle: {},
      navigationEndpoint: {
        openPopupAction: {
          popup: { menuPopupRenderer: { items: [addRssFeedItem()] } },
          popupType: "DROPDOWN",
        },
      },
    },
  };
}

/** The card's dropdown entry "Add RSS feed", which opens the feed dialog. */
function addRssFeedItem(): Json {
  return {
    menuServiceItemRenderer: {
      text: { simpleText: "Add RSS feed" },
      icon: { iconType: "RSS" },
      serviceEndpoint: {
        commandExecutorCommand: {
          commands: [{ openPopupAction: { popup: rssFeedDialog(), popupType: "DIALOG" } }],
        },
      },
    },
  };
}

/** The one-step dialog (`flowRootRenderer`) asking for the feed's URL. */
function rssFeedDialog(): Json {
  return {
    flowRootRenderer: {
      targetId: "add-by-url-target-id",
      steps: [
        {
          flowStepRenderer: {
            stepId: "add_by_url-step1",
            content: {
              musicAddByUrlDialogViewModel: {
                prompt: "Enter an RSS feed URL",
                placeholderText: "https://www.example.org/podcast.xml",
                addButtonViewModel: addFeedButton(),
              },
            },
          },
        },
      ],
    },
  };
}

/** The dialog's "Add" button: it only shows the "Adding podcast…" toast. */
function addFeedButton(): Json {
  const toast = { notificationTextRenderer: { successResponseText: text("Adding podcast…") } };
  return {
    buttonViewModel: {
      title: "Add",
      onTap: {
        innertubeCommand: { commandExecutorCommand: { commands: [{ addToToastAction: { item: toast } }] } },
      },
    },
  };
}

/** The two auto playlists at the head of the podcast library: New Episodes and Episodes for Later. */
export function autoPodcastCards(newEpisodes: number): Json[] {
  const card = (id: string, title: string, subtitle: Json[]) => {
    const nav = browse(`VL${id}`, PAGE.playlist);
    return {
      musicTwoRowItemRenderer: {
        thumbnailRenderer: musicThumbnail(imageSizes(id, [226, 544])),
        aspectRatio: "MUSIC_TWO_ROW_ITEM_THUMBNAIL_ASPECT_RATIO_SQUARE",
        title: { runs: [run(title, nav)] },
        subtitle: { runs: subtitle },
        navigationEndpoint: nav,
        thumbnailOverlay: overlay(watchPlaylist(id), "MUSIC_PLAY_BUTTON_SIZE_MEDIUM"),
      },
    };
  };
  return [
    card("RDPN", "New Episodes", dotted([run("Auto playlist"), run(`${newEpisodes} episodes`)])),
    card("SE", "Episodes for Later", [run("Episodes you save for later")]),
  ];
}

export function shuffleRow(playlistId: string): Json {
  return {
    musicResponsiveListItemRenderer: {
      thumbnail: musicThumbnail(imageSizes("shuffle", [60])),
      flexColumns: [flex([run("Shuffle all")])],
      navigationEndpoint: watchPlaylist(playlistId, "wAEB8gECKAE%3D"),
    },
  };
}

/** An artist row of the library lists; `second` is `16 songs` or `19.2K subscribers`. */
export function artistRow(a: ArtistRow, second: string, libraryLink: boolean): Json {
  const pageType =
    a.kind === "artist" ? (libraryLink ? "MUSIC_PAGE_TYPE_LIBRARY_ARTIST" : PAGE.artist) : PAGE.channel;
  const mix = artistMixIds(a.channelId);
  const items =
    a.kind === "artist"
      ? [
          navItem("Shuffle play", "MUSIC_SHUFFLE", watchPlaylist(mix.shuffle, "wAEB8gECGAE%3D")),
          navItem("Start radio", "MIX", watchPlaylist(mix.radio, "wAEB")),
          shareItem(a.channelId),
        ]
      : [shareItem(a.channelId)];
  return {
    musicResponsiveListItemRenderer: {
      thumbnail: musicThumbnail(imageSizes(a.channelId, [60, 120])),
      flexColumns: [flex([run(a.name)]), flex([run(second)])],
      menu: { menuRenderer: { items } },
      flexColumnDisplayStyle: "MUSIC_RESPONSIVE_LIST_ITEM_FLEX_COLUMN_DISPLAY_STYLE_TWO_LINE_STACK",
      navigationEndpoint: browse(
        libraryLink && a.kind === "artist" ? `MPLA${a.channelId}` : a.channelId,
        pageType,
      ),
      itemHeight: "MUSIC_RESPONSIVE_LIST_ITEM_HEIGHT_TALL",
    },
  };
}

export const subscribersText = (n: number) => `${abbreviate(n)} subscribers`;

// ── uploads ──

const entitySuffix = (s: string) =>
  Buffer.from(s.toLowerCase())
    .toString("base64url")
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 24);
export const uploadArtistId = (name: string) =>
  `FEmusic_library_privately_owned_artist_detaila_po_${entitySuffix(name)}`;
export const uploadAlbumId = (artist: string, album: string) =>
  `FEmusic_library_privately_owned_release_detailb_po_${entitySuffix(`${artist}|${album}`)}`;

/** The confirmation dialog in front of `music/delete_privately_owned_entity`. */
function deleteUploadDialog(entityId: string, title: string): Json {
  return {
    confirmDialogEndpoint: {
      content: {
        confirmDialogRenderer: {
          title: text(title),
          dialogMessages: [text("This will be deleted from your library.")],
          confirmButton: {
            buttonRenderer: {
              text: text("Delete"),
              command: { musicDeletePrivatelyOwnedEntityCommand: { entityId } },
            },
          },
          cancelButton: { buttonRenderer: { text: text("Cancel") } },
        },
      },
    },
  };
}

export function uploadRow(u: UploadRow, likeStatus: string): Json {
  const we = watch(u.videoId, { videoType: "MUSIC_VIDEO_TYPE_PRIVATELY_OWNED_TRACK" });
  const deleteDialog = deleteUploadDialog(u.entityId, "Delete song");
  return {
    musicResponsiveListItemRenderer: {
      thumbnail: musicThumbnail(imageSizes(u.entityId, [60, 120])),
      overlay: overlay(we),
      flexColumns: [
        flex([run(u.title, we)]),
        flex([run(u.artistName, browse(uploadArtistId(u.artistName), PAGE.unknown))]),
        flex([run(u.albumTitle, browse(uploadAlbumId(u.artistName, u.albumTitle), PAGE.album))]),
      ],
      fixedColumns: [fixed(clock(u.durationSeconds))],
      menu: {
        menuRenderer: {
          items: [
            ...queueItems({ videoId: u.videoId }, "Song"),
            navItem("Save to playlist", "ADD_TO_PLAYLIST", { addToPlaylistEndpoint: { videoId: u.videoId } }),
            navItem("Go to album", "ALBUM", browse(uploadAlbumId(u.artistName, u.albumTitle), PAGE.album)),
            navItem("Go to artist", "ARTIST", browse(uploadArtistId(u.artistName), PAGE.unknown)),
            navItem("Delete song", "DELETE", deleteDialog),
          ],
          topLevelButtons: [likeButton(u.videoId, likeStatus)],
        },
      },
      playlistItemData: { videoId: u.videoId },
    },
  };
}

export function uploadAlbumCard(artist: string, album: string, count: number): Json {
  const id = uploadAlbumId(artist, album);
  const audio = `MLPR${id.slice(46)}`;
  const nav = browse(id, PAGE.album);
  return {
    musicTwoRowItemRenderer: {
      thumbnailRenderer: musicThumbnail(imageSizes(id, [226])),
      title: { runs: [run(album, nav)] },
      subtitle: {
        runs: dotted([
          run("Album"),
          run(artist, browse(uploadArtistId(artist), PAGE.unknown)),
          run(`${count} songs`),
        ]),
      },
      navigationEndpoint: nav,
      menu: {
        menuRenderer: {
          items: [
            navItem("Shuffle play", "MUSIC_SHUFFLE", watchPlaylist(audio, "wAEB8gECKAE%3D")),
            ...queueItems({ playlistId: audio }, "Album"),
            navItem("Save to playlist", "ADD_TO_PLAYLIST", { addToPlaylistEndpoint: { playlistId: audio } }),
            navItem("Delete album", "DELETE", deleteUploadDialog(id.slice(46), "Delete album")),
          ],
        },
      },
      thumbnailOverlay: overlay(watchPlaylist(audio), "MUSIC_PLAY_BUTTON_SIZE_MEDIUM"),
    },
  };
}

/**
 * A row of the uploaded artists list. Its menu plays the artist's uploads: shuffled, or as a radio,
 * from the `MLPA` playlist named after the artist's page id, as an uploaded album's `MLPR` one is
 * (capture yt_get_library_upload_artists_20240712).
 */
export function uploadArtistRow(artist: string, count: number): Json {
  const id = uploadArtistId(artist);
  const audio = `MLPA${id.slice("FEmusic_library_privately_owned_artist_detail".length)}`;
  return {
    musicResponsiveListItemRenderer: {
      thumbnail: musicThumbnail(imageSizes(artist, [60])),
      flexColumns: [flex([run(artist)]), flex([run(`${count} ${count === 1 ? "song" : "songs"}`)])],
      menu: {
        menuRenderer: {
          items: [
            navItem("Shuffle play", "MUSIC_SHUFFLE", watchPlaylist(audio, "wAEB8gECKAE%3D")),
            navItem("Start radio", "MIX", watchPlaylist(audio, "wAEB")),
          ],
          accessibility: { accessibilityData: { label: "Action menu" } },
        },
      },
      navigationEndpoint: browse(id, PAGE.unknown),
      flexColumnDisplayStyle: "MUSIC_RESPONSIVE_LIST_ITEM_FLEX_COLUMN_DISPLAY_STYLE_TWO_LINE_STACK",
    },
  };
}

/** Legacy detail header (uploaded albums still use it, docs/PROTOCOL.md#uploads). */
export function uploadAlbumPage(artist: string, album: string, rows: Json[], seconds: number): Json {
  const audio = `MLPR${uploadAlbumId(artist, album).slice(46)}`;
  return {
    header: {
      musicDetailHeaderRenderer: {
        title: text(album),
        subtitle: { runs: dotted([run("Album"), run(artist, browse(uploadArtistId(artist), PAGE.unknown))]) },
        thumbnail: {
          croppedSquareThumbnailRenderer: { thumbnail: { thumbnails: imageSizes(audio, [226, 544]) } },
        },
        secondSubtitle: { runs: dotted([run(`${rows.length} songs`), run(clock(seconds))]) },
        menu: {
          menuRenderer: {
            topLevelButtons: [
              { buttonRenderer: { navigationEndpoint: watchPlaylist(audio), text: text("Shuffle") } },
              {
                buttonRenderer: {
                  defaultServiceEndpoint: { likeEndpoint: { status: "LIKE", target: { playlistId: audio } } },
                },
              },
            ],
          },
        },
      },
    },
    contents: {
      singleColumnBrowseResultsRenderer: {
        tabs: [
          {
            tabRenderer: {
              content: { sectionListRenderer: { contents: [{ musicShelfRenderer: { contents: rows } }] } },
            },
          },
        ],
      },
    },
  };
}
