/**
 * Album pages (`MPRE…`): header `TC_TAB.SL0.musicResponsiveHeaderRenderer`, tracks in
 * `TC_SEC.SL0.musicShelfRenderer`, then "other versions" / related carousels keyed by `itemSize`
 * (capture yt_get_album_20240724).
 */
import { stableSetVideoId } from "../random.js";
import type { AlbumRow, SongRow } from "../store/rows.js";
import {
  addToPlaylistItem,
  browse,
  carousel,
  dotted,
  imageSizes,
  type Json,
  likeToggleButton,
  musicThumbnail,
  navItem,
  PAGE,
  playButton,
  queueItems,
  run,
  saveCollectionItem,
  shareItem,
  signInModal,
  text,
  watchPlaylist,
} from "./common.js";
import { countOf, totalDuration } from "./format.js";
import { albumCard, type Marks, songRow } from "./items.js";

export interface AlbumView {
  album: AlbumRow;
  tracks: SongRow[];
  others: AlbumRow[];
  marks: Marks;
}

/** Album track rows carry a stable setVideoId derived from the album and the position. */
export const albumSetVideoId = (album: AlbumRow, index: number): string =>
  stableSetVideoId(`${album.audioPlaylistId}:${index}`);

export function albumHeader(v: AlbumView): Json {
  const a = v.album;
  const first = v.tracks[0];
  const seconds = v.tracks.reduce((n, t) => n + t.durationSeconds, 0);
  const signedIn = v.marks.signedIn;
  const header: Json = {
    thumbnail: musicThumbnail(imageSizes(a.browseId, [60, 120, 226, 544])),
    buttons: [
      signedIn
        ? likeToggleButton(a.audioPlaylistId, v.marks.saved(a.audioPlaylistId))
        : {
            // Signed out, the save button opens a sign-in prompt instead (capture
            // yt_get_album_not_signed_in_20250611).
            toggleButtonRenderer: {
              isToggled: false,
              isDisabled: false,
              defaultIcon: { iconType: "LIBRARY_ADD" },
              toggledIcon: { iconType: "LIBRARY_SAVED" },
              defaultNavigationEndpoint: signInModal(
                "Save this for later",
                "Make playlists and save music when you sign in",
              ),
            },
          },
      {
        // Since 2024-07 the header's play button is a watchPlaylistEndpoint that also names the
        // first track (captures yt_get_album_20240724, yt_get_album_not_signed_in_20250611).
        musicPlayButtonRenderer: playButton(
          first
            ? {
                watchPlaylistEndpoint: {
                  videoId: first.videoId,
                  playlistId: a.audioPlaylistId,
                  watchEndpointMusicSupportedConfigs: {
                    watchEndpointMusicConfig: { musicVideoType: first.videoType },
                  },
                },
              }
            : watchPlaylist(a.audioPlaylistId),
        ).musicPlayButtonRenderer,
      },
      {
        menuRenderer: {
          items: [
            navItem("Shuffle play", "MUSIC_SHUFFLE", watchPlaylist(a.audioPlaylistId, "wAEB8gECKAE%3D")),
            navItem("Start radio", "MIX", watchPlaylist(`RDAMPL${a.audioPlaylistId}`, "wAEB")),
            ...queueItems({ playlistId: a.audioPlaylistId }, "Album"),
            saveCollectionItem(a.audioPlaylistId, v.marks.saved(a.audioPlaylistId), "album", signedIn),
            addToPlaylistItem({ playlistId: a.audioPlaylistId }, signedIn),
            navItem("Go to artist", "ARTIST", browse(a.channelId, PAGE.artist)),
            shareItem(`\u0012${a.browseId}`),
          ],
        },
      },
    ],
    title: text(a.title),
    subtitle: { runs: dotted([run(a.type), run(String(a.year))]) },
    straplineTextOne: { runs: [run(a.artistName, browse(a.channelId, PAGE.artist))] },
    straplineThumbnail: musicThumbnail(imageSizes(a.channelId, [60, 120])),
    description: {
      musicDescriptionShelfRenderer: {
        description: text(`${a.title} is a ${a.year} ${a.type.toLowerCase()} by ${a.artistName}.`),
        moreButton: {
          toggleButtonRenderer: { isToggled: false, defaultText: text("More"), toggledText: text("Less") },
        },
        shelfStyle: "MUSIC_SHELF_STYLE_OPEN_DIALOG_ON_CLICK",
      },
    },
    secondSubtitle: { runs: dotted([run(countOf(v.tracks.length, "song")), run(totalDuration(seconds))]) },
  };
  if (a.explicit)
    header.subtitleBadge = [{ musicInlineBadgeRenderer: { icon: { iconType: "MUSIC_EXPLICIT_BADGE" } } }];
  return { musicResponsiveHeaderRenderer: header };
}

export function albumPage(v: AlbumView): Json {
  const a = v.album;
  const rows = v.tracks.map((t, i) =>
    songRow(t, {
      style: "album",
      marks: v.marks,
      playlistId: a.audioPlaylistId,
      setVideoId: albumSetVideoId(a, i),
      index: i,
    }),
  );
  const sections: Json[] = [
    { musicShelfRenderer: { contents: rows, shelfDivider: { musicShelfDividerRenderer: { hidden: true } } } },
  ];
  if (v.others.length) {
    sections.push(
      carousel(
        `More by ${a.artistName}`,
        v.others.map((o) => albumCard(o, v.marks, "type-year")),
        undefined,
        "COLLECTION_STYLE_ITEM_SIZE_MEDIUM",
      ),
    );
  }
  return {
    contents: {
      twoColumnBrowseResultsRenderer: {
        secondaryContents: { sectionListRenderer: { contents: sections } },
        tabs: [{ tabRenderer: { content: { sectionListRenderer: { contents: [albumHeader(v)] } } } }],
      },
    },
    microformat: {
      microformatDataRenderer: {
        urlCanonical: `https://music.youtube.com/playlist?list=${a.audioPlaylistId}`,
      },
    },
    background: musicThumbnail(imageSizes(a.browseId, [544])),
  };
}
