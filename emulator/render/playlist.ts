/**
 * Playlist pages (`VL…`): the 2024+ two-column layout with the header in `TC_TAB.SL0` (the owner's
 * editable header wrapping `musicResponsiveHeaderRenderer`), rows in `TC_SEC.SL0.
 * musicPlaylistShelfRenderer`, and shape-C continuations every 100 rows (capture
 * yt_get_playlist_20250604 and its continuation).
 */
import type { PlaylistItemRow, PlaylistRow, SongRow } from "../store/rows.js";
import { continuationToken } from "../tokens.js";
import {
  browse,
  carousel,
  continuationItem,
  deletePlaylistItem,
  dotted,
  downloadPlaylistItem,
  imageSizes,
  type Json,
  likeToggleButton,
  musicThumbnail,
  navItem,
  nextContinuation,
  PAGE,
  playButton,
  queueItems,
  run,
  shareItem,
  text,
  watch,
  watchPlaylist,
} from "./common.js";
import { abbreviate, countOf, totalDuration } from "./format.js";
import { type Marks, playlistCard, songRow } from "./items.js";

export const PLAYLIST_PAGE_SIZE = 100;

export interface PlaylistView {
  playlist: PlaylistRow;
  /** Rows of this page, with their setVideoIds. */
  rows: PlaylistItemRow[];
  offset: number;
  /** Whether rows follow this page (a continuation token ends it). */
  more: boolean;
  owned: boolean;
  marks: Marks;
  /** Whether the viewer saved this playlist to the library. */
  saved: boolean;
  ownerName: string | null;
  /** Owner and collaborators when the playlist has collaborators; empty otherwise. */
  collaborators: { name: string; channelId: string }[];
  /** Reuses a serialized row by a key naming all its inputs (the emulator's row cache), if given. */
  memo?: (key: string, render: () => Json) => unknown;
}

/**
 * A first page with the playlist's totals, which its header shows. A continuation page goes
 * without them: counting a long playlist's rows and length on every page of a read made the read
 * quadratic in its length.
 */
export interface PlaylistHead extends PlaylistView {
  total: number;
  totalSeconds: number;
}

export function playlistRows(v: PlaylistView): unknown[] {
  const contributor = v.collaborators[0];
  const chart = v.playlist.kind === "chart";
  const render = (r: PlaylistItemRow, i: number): Json =>
    withRank(
      chart ? v.offset + i + 1 : null,
      songRow(r, {
        style: "playlist",
        marks: v.marks,
        playlistId: v.playlist.playlistId,
        setVideoId: r.setVideoId,
        editable: v.owned,
        index: v.offset + i,
        contributor,
      }),
    );
  const memo = v.memo;
  const rows: unknown[] = v.rows.map((r, i) => {
    if (memo === undefined) return render(r, i);
    // Every input of the row: the song (catalogue rows never change), its place, the page's
    // editability and contributor, and the viewer's marks on it.
    const key = [
      v.playlist.playlistId,
      chart,
      r.setVideoId,
      r.videoId,
      r.title,
      r.available,
      v.offset + i,
      v.owned,
      contributor?.channelId,
      contributor?.name,
      v.marks.signedIn,
      v.marks.likeStatus(r.videoId),
      v.marks.inLibrary("song", r.videoId),
    ].join("\u0001");
    return memo(key, () => render(r, i));
  });
  if (v.more) {
    const next = v.offset + v.rows.length;
    rows.push(continuationItem(continuationToken({ k: "pl", id: v.playlist.playlistId, o: next })));
  }
  return rows;
}

/** Chart playlists number their rows (capture ytm_2025_01_get_playlist_chart). */
function withRank(rank: number | null, row: Json): Json {
  if (rank === null) return row;
  (row.musicResponsiveListItemRenderer as Json).customIndexColumn = {
    musicCustomIndexColumnRenderer: {
      text: text(String(rank)),
      icon: { iconType: "ARROW_CHART_NEUTRAL" },
      iconColorStyle: "CUSTOM_INDEX_COLUMN_ICON_COLOR_STYLE_GREY",
    },
  };
  return row;
}

export function playlistHeader(v: PlaylistHead): Json {
  const p = v.playlist;
  const year = String(new Date(p.createdAt).getUTCFullYear());
  const privacyWord = p.privacy[0] + p.privacy.slice(1).toLowerCase();
  const subtitle = v.owned
    ? dotted([run("Playlist"), run(privacyWord), run(year)])
    : dotted([run("Playlist"), run(year)]);
  const second = [run(countOf(v.total, "track")), run(totalDuration(v.totalSeconds))];
  if (!v.owned) second.unshift(run(`${abbreviate(p.views)} views`));
  const author = v.owned ? (v.ownerName ?? p.authorName) : p.authorName;
  const authorNav = p.authorChannelId
    ? browse(p.authorChannelId, p.kind === "community" ? PAGE.channel : PAGE.artist)
    : undefined;
  const h: Json = {
    thumbnail: musicThumbnail(
      imageSizes(p.playlistId, [192, 576, 1200]),
      "MUSIC_THUMBNAIL_SCALE_UNSPECIFIED",
    ),
    buttons: headerButtons(v),
    title: text(p.title),
    subtitle: { runs: subtitle },
    secondSubtitle: { runs: dotted(second) },
  };
  if (p.description) h.description = descriptionShelf(p.description);
  if (v.owned) {
    if (v.collaborators.length) h.facepile = collaboratorsFacepile(v);
    h.straplineTextOne = { runs: [run(author, authorNav)] };
    h.straplineThumbnail = musicThumbnail(imageSizes(`owner${p.ownerAccountId}`, [48, 96]));
    return ownerHeader(p, h);
  }
  h.facepile = v.collaborators.length ? collaboratorsFacepile(v) : authorFacepile(author, authorNav);
  return { musicResponsiveHeaderRenderer: h };
}

/**
 * The header's buttons in order: download, edit (owner) or save (others), play from the first
 * row, share, and the "…" menu (capture yt_get_playlist_20250604).
 */
function headerButtons(v: PlaylistView): Json[] {
  const p = v.playlist;
  const first = v.rows[0];
  const play = first
    ? watch(first.videoId, { playlistId: p.playlistId, params: "wAEB", videoType: first.videoType })
    : watchPlaylist(p.playlistId);
  return [
    {
      downloadButtonRenderer: {
        style: "STYLE_DEFAULT",
        targetId: "playlist-download-button",
        command: {
          offlinePlaylistEndpoint: {
            playlistId: p.playlistId,
            action: "ACTION_ADD",
            offlineability: { offlineabilityRenderer: { offlineable: true } },
          },
        },
      },
    },
    v.owned
      ? {
          buttonRenderer: {
            style: "STYLE_DARK_ON_WHITE",
            icon: { iconType: "EDIT" },
            navigationEndpoint: { playlistEditorEndpoint: { playlistId: p.playlistId } },
          },
        }
      : likeToggleButton(p.playlistId, v.saved),
    { musicPlayButtonRenderer: playButton(play, "MUSIC_PLAY_BUTTON_SIZE_LARGE").musicPlayButtonRenderer },
    {
      buttonRenderer: {
        style: "STYLE_DARK_ON_WHITE",
        icon: { iconType: "SHARE" },
        command: {
          shareEntityEndpoint: {
            serializedShareEntity: Buffer.from(`\u0012"${p.playlistId}`).toString("base64"),
            sharePanelType: "SHARE_PANEL_TYPE_UNIFIED_SHARE_PANEL",
          },
        },
      },
    },
    { menuRenderer: { items: headerMenuItems(v) } },
  ];
}

/** The header's "…" menu: play, queue, download, delete (owner only), share. */
function headerMenuItems(v: PlaylistView): Json[] {
  const p = v.playlist;
  return [
    navItem("Shuffle play", "MUSIC_SHUFFLE", watchPlaylist(p.playlistId, "wAEB8gECKAE%3D")),
    navItem("Start radio", "MIX", watchPlaylist(`RDAMPL${p.playlistId}`, "wAEB")),
    ...queueItems({ playlistId: p.playlistId }, "Playlist"),
    downloadPlaylistItem(p.playlistId),
    ...(v.owned ? [deletePlaylistItem(p.playlistId)] : []),
    shareItem(`\u0012${p.playlistId}`),
  ];
}

/** The description under the header (`description.musicDescriptionShelfRenderer`), two lines folded. */
function descriptionShelf(description: string): Json {
  return {
    musicDescriptionShelfRenderer: {
      description: text(description),
      maxCollapsedLines: 2,
      maxExpandedLines: 1000,
      moreButton: {
        toggleButtonRenderer: { isToggled: false, defaultText: text("More"), toggledText: text("Less") },
      },
    },
  };
}

/**
 * The owner's header: the same header wrapped in `musicEditablePlaylistDetailHeaderRenderer` with
 * the edit form (title, description, privacy, collaboration) beside it (capture yt_get_playlist_20240624).
 */
function ownerHeader(p: PlaylistRow, header: Json): Json {
  return {
    musicEditablePlaylistDetailHeaderRenderer: {
      header: { musicResponsiveHeaderRenderer: header },
      editHeader: {
        musicPlaylistEditHeaderRenderer: {
          title: text(p.title),
          editTitle: text("Title"),
          editDescription: text("Description"),
          privacy: p.privacy,
          playlistId: p.playlistId,
          collaborationSettingsCommand: {
            playlistEditorEndpoint: { playlistId: p.playlistId, openCollaborationPage: true },
          },
          privacyDropdown: privacyDropdown(p.privacy),
        },
      },
      playlistId: p.playlistId,
    },
  };
}

/** The edit form's privacy choice: public, unlisted, private, the playlist's own selected. */
function privacyDropdown(privacy: string): Json {
  return {
    dropdownRenderer: {
      entries: ["PUBLIC", "UNLISTED", "PRIVATE"].map((value) => ({
        dropdownItemRenderer: {
          label: text(value[0] + value.slice(1).toLowerCase()),
          isSelected: value === privacy,
          stringValue: value.toLowerCase(),
          icon: { iconType: `PRIVACY_${value}` },
        },
      })),
      label: "Privacy",
    },
  };
}

/** The author of a playlist under its title (`header.facepile`, docs/PROTOCOL.md#playlists). */
function authorFacepile(author: string, authorNav: Json | undefined): Json {
  return {
    avatarStackViewModel: {
      avatars: [
        {
          avatarViewModel: {
            image: { sources: imageSizes(author, [48]) },
            avatarImageSize: "AVATAR_SIZE_XS",
          },
        },
      ],
      text: { content: author },
      rendererContext: {
        accessibilityContext: { label: author },
        commandContext: authorNav ? { onTap: { innertubeCommand: authorNav } } : undefined,
      },
    },
  };
}

/** Collaborators instead of an author: the facepile opens the "Collaborate" panel. */
function collaboratorsFacepile(v: PlaylistView): Json {
  const label = v.collaborators.map((c) => c.name).join(", ");
  return {
    avatarStackViewModel: {
      avatars: v.collaborators.map((c) => ({
        avatarViewModel: {
          image: { sources: imageSizes(c.channelId, [48]) },
          avatarImageSize: "AVATAR_SIZE_XS",
        },
      })),
      rendererContext: {
        accessibilityContext: { label },
        commandContext: {
          onTap: {
            innertubeCommand: {
              showEngagementPanelEndpoint: {
                identifier: { tag: "PAplaylist_collaborate" },
                globalConfiguration: {
                  initialState: {
                    engagementPanelSectionListRenderer: {
                      header: {
                        engagementPanelTitleHeaderRenderer: {
                          title: text("Collaborate"),
                          visibilityButton: {
                            buttonRenderer: { style: "STYLE_DEFAULT", icon: { iconType: "CLOSE" } },
                          },
                        },
                      },
                      content: { contentLoadingRenderer: { useSpinner: true } },
                      targetId: "PAplaylist_collaborate",
                      identifier: { tag: "PAplaylist_collaborate" },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}

export function playlistPage(v: PlaylistHead): Json {
  const shelf: Json = {
    playlistId: v.playlist.playlistId,
    contents: playlistRows(v),
    collapsedItemCount: 0,
    contentsMultiSelectable: true,
    targetId: `VL${v.playlist.playlistId}`,
    header: { musicSideAlignedItemRenderer: {} },
  };
  if (v.owned) shelf.contentsReorderable = true;
  if (v.total === 0) {
    shelf.emptyState = {
      messageRenderer: {
        text: text("No songs yet"),
        subtext: { messageSubtextRenderer: { text: text("Search for songs to add to this playlist") } },
      },
    };
  }
  return {
    contents: {
      twoColumnBrowseResultsRenderer: {
        secondaryContents: {
          sectionListRenderer: {
            contents: [{ musicPlaylistShelfRenderer: shelf }],
            continuations: nextContinuation(
              continuationToken({
                k: v.owned ? "pl-suggest" : "pl-related",
                id: v.playlist.playlistId,
                o: 0,
              }),
            ),
          },
        },
        tabs: [
          {
            tabRenderer: {
              content: { sectionListRenderer: { contents: [playlistHeader(v)] } },
            },
          },
        ],
      },
    },
    background: musicThumbnail(imageSizes(v.playlist.playlistId, [544])),
    microformat: {
      microformatDataRenderer: {
        urlCanonical: `https://music.youtube.com/playlist?list=${v.playlist.playlistId}`,
        title: v.playlist.title,
        description: v.playlist.description,
        noindex: v.playlist.privacy !== "PUBLIC",
        unlisted: v.playlist.privacy === "UNLISTED",
      },
    },
  };
}

/** Shape C: the next rows of a playlist. */
export function playlistContinuation(v: PlaylistView): Json {
  return {
    onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: playlistRows(v) } }],
  };
}

/** The owner's "Suggestions" shelf (shape B reload) followed by the "related" token (docs/PROTOCOL.md#playlists). */
export function suggestionsContinuation(playlistId: string, songs: SongRow[], marks: Marks): Json {
  const reload = continuationToken({ k: "pl-suggest", id: playlistId, o: 1 });
  return {
    continuationContents: {
      sectionListContinuation: {
        contents: [
          {
            musicShelfRenderer: {
              title: text("Suggestions"),
              contents: songs.map((s) => songRow(s, { style: "library", marks })),
              continuations: [{ reloadContinuationData: { continuation: reload } }],
            },
          },
        ],
        continuations: nextContinuation(continuationToken({ k: "pl-related", id: playlistId, o: 0 })),
      },
    },
  };
}

export function relatedContinuation(related: { playlist: PlaylistRow; count: number }[]): Json {
  return {
    continuationContents: {
      sectionListContinuation: {
        contents: [
          carousel(
            "Related playlists",
            related.map((r) => playlistCard(r.playlist, r.count, false)),
          ),
        ],
      },
    },
  };
}
