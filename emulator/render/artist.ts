/**
 * Artist pages (`UC…`): `header.musicImmersiveHeaderRenderer` and `SC_TAB.SL` sections — a songs
 * shelf linking to a `VL` playlist, carousels for albums, singles, videos, related artists, and the
 * description shelf (capture yt_get_artist_20240705). Also the artist's album grid (`params`).
 */
import type { AlbumRow, ArtistRow, SongRow } from "../store/rows.js";
import {
  browse,
  carousel,
  imageSizes,
  type Json,
  musicThumbnail,
  PAGE,
  shareItem,
  signInModal,
  singleColumn,
  sortMenuOptions,
  text,
  watch,
  watchPlaylist,
} from "./common.js";
import { categoryTitle } from "./display.js";
import { abbreviate } from "./format.js";
import { albumCard, artistCard, type Marks, songRow, videoCard } from "./items.js";

export const ARTIST_PARAMS = { albums: "ggMIegYIARoCAQI%3D", singles: "ggMIegYIAhoCAQI%3D" } as const;

export interface ArtistView {
  artist: ArtistRow;
  songs: SongRow[];
  albums: AlbumRow[];
  singles: AlbumRow[];
  videos: SongRow[];
  related: ArtistRow[];
  subscribed: boolean;
  marks: Marks;
  /** Some artists' pages use the two-column layout (docs/PROTOCOL.md#changes-over-time, capture ytm_2026_07_get_artist_two_column). */
  twoColumn: boolean;
  /** The display language (`hl`) of the carousel titles. */
  language: string;
}

/** The artist's shuffle / radio playlist ids (`RDAO…` / `RDEM…`) derived from the channel id. */
export const artistMixIds = (channelId: string) => ({
  shuffle: `RDAO${channelId.slice(2)}`,
  radio: `RDEM${channelId.slice(2)}`,
});

/** The playlist behind an artist's "Songs" shelf (a `VL…` page of the artist's most played songs). */
export const artistSongsPlaylistId = (channelId: string) => `OLAK5uy_${channelId.slice(2)}_songs`;

/** The playlist behind an artist's "Videos" carousel, which its cards play in (capture yt_get_artist_20240705). */
export const artistVideosPlaylistId = (channelId: string) => `OLAK5uy_${channelId.slice(2)}_videos`;

export function subscribeButton(
  channelId: string,
  subscribers: number,
  subscribed: boolean,
  signedIn = true,
): Json {
  const count = abbreviate(subscribers);
  // Signed out too, the button carries the subscribe endpoints beside its sign-in prompt (capture
  // ytm_2026_05_get_artist1).
  const serviceEndpoints: Json[] = [
    { subscribeEndpoint: { channelIds: [channelId], params: "GAA%3D" } },
    {
      // Unsubscribing asks for confirmation first (capture yt_get_artist_20240705).
      signalServiceEndpoint: {
        signal: "CLIENT_SIGNAL",
        actions: [
          {
            openPopupAction: {
              popup: {
                confirmDialogRenderer: {
                  dialogMessages: [text("Unsubscribe?")],
                  confirmButton: {
                    buttonRenderer: {
                      style: "STYLE_BRAND",
                      text: text("Unsubscribe"),
                      serviceEndpoint: { unsubscribeEndpoint: { channelIds: [channelId] } },
                    },
                  },
                  cancelButton: { buttonRenderer: { style: "STYLE_TEXT", text: text("Cancel") } },
                },
              },
              popupType: "DIALOG",
            },
          },
        ],
      },
    },
  ];
  const button: Record<string, unknown> = {
    subscriberCountText: text(count),
    subscribed: signedIn ? subscribed : false,
    enabled: true,
    type: "FREE",
    channelId,
    showPreferences: false,
    subscriberCountWithSubscribeText: text(count),
    subscribedButtonText: text("Subscribed"),
    unsubscribedButtonText: text("Subscribe"),
    unsubscribeButtonText: text("Unsubscribe"),
    serviceEndpoints,
    longSubscriberCountText: text(`${count} subscribers`),
    shortSubscriberCountText: text(count),
  };
  if (!signedIn) {
    // Signed out, the button also asks to sign in (capture ytm_2026_05_get_artist1).
    button.signInEndpoint = signInModal(
      "Want to subscribe to this channel?",
      "Sign in to subscribe to this channel.",
    );
  }
  return { subscribeButtonRenderer: button };
}

/**
 * The title of the artist's songs shelf in each layout: "Top songs" on the single-column page (the
 * newest capture, ytm_2026_05_get_artist1; older ones said "Songs"), "Songs" on the two-column page
 * (capture ytm_2026_07_get_artist_two_column). Clients find the shelf by this title (youtubei.js
 * looks for "Top songs"), so each layout keeps its own.
 */
export const songsShelfTitle = (twoColumn: boolean): string => (twoColumn ? "Songs" : "Top songs");

export function artistPage(v: ArtistView): Json {
  const sections = [...artistShelves(v), aboutShelf(v.artist)];
  return { header: artistHeader(v), ...artistBody(v, sections) };
}

/** The page's shelves in order: top songs, albums, singles, videos, related artists (those it has). */
function artistShelves(v: ArtistView): Json[] {
  const a = v.artist;
  const sections: Json[] = [];
  if (v.songs.length) sections.push(songsShelf(v));
  const more = (params: string) => browse(`MPAD${a.channelId}`, PAGE.artist, params);
  if (v.albums.length) {
    sections.push(
      carousel(
        categoryTitle("albums", v.language),
        v.albums.map((x) => albumCard(x, v.marks, "type-year")),
        more(ARTIST_PARAMS.albums),
      ),
    );
  }
  if (v.singles.length) {
    sections.push(
      carousel(
        categoryTitle("singles", v.language),
        v.singles.map((x) => albumCard(x, v.marks, "type-year")),
        more(ARTIST_PARAMS.singles),
      ),
    );
  }
  if (v.videos.length) {
    const playlistId = artistVideosPlaylistId(a.channelId);
    sections.push(
      carousel(
        categoryTitle("videos", v.language),
        v.videos.map((x, index) => videoCard(x, { playlistId, index })),
      ),
    );
  }
  if (v.related.length)
    sections.push(
      carousel(
        categoryTitle("related", v.language),
        v.related.map((a) => artistCard(a)),
      ),
    );
  return sections;
}

/** The songs shelf (`musicShelfRenderer`), its title and "Show all" opening the artist's songs playlist. */
function songsShelf(v: ArtistView): Json {
  const songsPlaylist = artistSongsPlaylistId(v.artist.channelId);
  return {
    musicShelfRenderer: {
      title: {
        runs: [
          {
            text: songsShelfTitle(v.twoColumn),
            navigationEndpoint: browse(`VL${songsPlaylist}`, PAGE.playlist, "ggMCCAI%3D"),
          },
        ],
      },
      contents: v.songs.map((s) =>
        songRow(s, { style: "library", marks: v.marks, playlistId: songsPlaylist }),
      ),
      // Every artist capture with the shelf's link says "Show all" (yt_get_artist_20240705,
      // ytm_2026_05_get_artist1).
      bottomText: text("Show all"),
      bottomEndpoint: browse(`VL${songsPlaylist}`, PAGE.playlist),
      shelfDivider: { musicShelfDividerRenderer: { hidden: true } },
    },
  };
}

/** The "More" / "Less" toggle that unfolds a description (the header's and the About shelf's). */
const moreLessToggle = (): Json => ({
  toggleButtonRenderer: {
    isToggled: false,
    isDisabled: false,
    defaultText: text("More"),
    toggledText: text("Less"),
  },
});

/** The "About" shelf closing the page (`musicDescriptionShelfRenderer`): views and description. */
function aboutShelf(a: ArtistRow): Json {
  return {
    musicDescriptionShelfRenderer: {
      header: text("About"),
      subheader: text(`${(a.subscribers * 37).toLocaleString("en-US")} views`),
      description: text(a.description),
      moreButton: moreLessToggle(),
    },
  };
}

/**
 * The page's `musicImmersiveHeaderRenderer`: name, subscribe button, description, image, and the
 * shuffle (from the first song when there is one) and radio buttons.
 */
function artistHeader(v: ArtistView): Json {
  const a = v.artist;
  const mix = artistMixIds(a.channelId);
  const first = v.songs[0];
  return {
    musicImmersiveHeaderRenderer: {
      title: text(a.name),
      subscriptionButton: subscribeButton(a.channelId, a.subscribers, v.subscribed, v.marks.signedIn),
      moreButton: moreLessToggle(),
      description: text(a.description),
      menu: { menuRenderer: { items: [shareItem(a.channelId)] } },
      thumbnail: musicThumbnail(imageSizes(a.channelId, [540, 1080])),
      playButton: {
        buttonRenderer: {
          text: text("Shuffle"),
          icon: { iconType: "MUSIC_SHUFFLE" },
          navigationEndpoint: first
            ? watch(first.videoId, { playlistId: mix.shuffle, params: "wAEB8gECGAE%3D" })
            : watchPlaylist(mix.shuffle, "wAEB8gECGAE%3D"),
        },
      },
      startRadioButton: {
        buttonRenderer: {
          text: text("Radio"),
          icon: { iconType: "MIX" },
          navigationEndpoint: watchPlaylist(mix.radio, "wAEB"),
        },
      },
      monthlyListenerCount: text(`${abbreviate(a.monthlyListeners)} monthly audience`),
    },
  };
}

/** The sections in the page's layout: two-column, or single-column with the page's microformat. */
function artistBody(v: ArtistView, sections: Json[]): Json {
  const a = v.artist;
  if (v.twoColumn) {
    return {
      contents: {
        twoColumnBrowseResultsRenderer: {
          tabs: [{ tabRenderer: { content: { sectionListRenderer: { contents: sections } } } }],
        },
      },
    };
  }
  return {
    ...singleColumn({ sectionListRenderer: { contents: sections } }),
    // The page's metadata for sharing and search engines (capture ytm_2026_05_get_artist1).
    microformat: {
      microformatDataRenderer: {
        urlCanonical: `https://music.youtube.com/channel/${a.channelId}`,
        title: a.name,
        description: a.description,
      },
    },
  };
}

export const ALBUM_ORDERS = ["Recency", "Popularity", "Alphabetical order"] as const;
export type AlbumOrder = (typeof ALBUM_ORDERS)[number];

function albumGrid(albums: AlbumRow[], marks: Marks, title: string): Json {
  return {
    gridRenderer: {
      items: albums.map((x) => albumCard(x, marks, "type-year")),
      header: { gridHeaderRenderer: { title: text(title) } },
    },
  };
}

/**
 * The artist's full album or singles list (`browse {browseId, params}`): a grid, with a sort menu
 * whose options reload the section list (`browseSectionListReloadEndpoint`, docs/PROTOCOL.md#browsing).
 */
export function artistAlbumsPage(
  albums: AlbumRow[],
  marks: Marks,
  title: string,
  order: AlbumOrder,
  reloadToken: (order: AlbumOrder) => string,
): Json {
  const { options, mutations } = sortMenuOptions(
    "artist-albums-sort",
    ALBUM_ORDERS.map((o) => ({ title: o, reload: reloadToken(o) })),
    ALBUM_ORDERS.indexOf(order),
  );
  return {
    header: { musicHeaderRenderer: { title: text(title) } },
    ...singleColumn({
      sectionListRenderer: {
        contents: [albumGrid(albums, marks, title)],
        header: {
          musicSideAlignedItemRenderer: {
            endItems: [
              {
                musicSortFilterButtonRenderer: {
                  title: text(order),
                  icon: { iconType: "ARROW_DROP_DOWN" },
                  menu: {
                    musicMultiSelectMenuRenderer: {
                      title: { musicMenuTitleRenderer: { primaryText: text("Sort by") } },
                      options,
                    },
                  },
                },
              },
            ],
          },
        },
      },
    }),
    frameworkUpdates: { entityBatchUpdate: { mutations } },
  };
}

/** The reloaded list after a sort choice (`sectionListContinuation`). */
export function artistAlbumsReload(albums: AlbumRow[], marks: Marks, title: string): Json {
  return {
    continuationContents: { sectionListContinuation: { contents: [albumGrid(albums, marks, title)] } },
  };
}
