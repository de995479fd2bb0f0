/**
 * Home, charts, moods & genres and explore: `SC_TAB.SL` of carousels and grids (captures
 * ytm_2026_07_get_charts_us_albums_no_genres, yt_get_mood_categories_20240723,
 * yt_get_mood_playlists_20240723, ytm_2025_11_get_explore).
 */
import type { AlbumRow, ArtistRow, EpisodeRow, PlaylistRow, SongRow } from "../store/rows.js";
import { ARTIST_PARAMS, artistMixIds } from "./artist.js";
import {
  browse,
  carousel,
  dotted,
  flex,
  imageSizes,
  type Json,
  musicThumbnail,
  navItem,
  nextContinuation,
  overlay,
  PAGE,
  run,
  shareItem,
  signInModal,
  singleColumn,
  text,
  watch,
  watchPlaylist,
} from "./common.js";
import { abbreviate, type DateStyle } from "./format.js";
import {
  albumCard,
  artistCard,
  artistRuns,
  exploreEpisodeRow,
  type Marks,
  playlistCard,
  songCard,
  songRow,
  videoCard,
} from "./items.js";
import {
  asTrend,
  chartCard,
  type PremiumCharts,
  premiumChartSections,
  type RankedSong,
  rankColumn,
  topSongsCarousel,
} from "./ranked.js";

export function moodButton(title: string, params: string): Json {
  return {
    musicNavigationButtonRenderer: {
      buttonText: text(title),
      solid: { leftStripeColor: 4289003428 },
      clickCommand: browse("FEmusic_moods_and_genres_category", undefined, params),
    },
  };
}

export function moodCategoriesPage(
  sections: { title: string; items: { title: string; params: string }[] }[],
): Json {
  return {
    header: { musicHeaderRenderer: { title: text("Moods & genres") } },
    ...singleColumn({
      sectionListRenderer: {
        contents: sections.map((s) => ({
          gridRenderer: {
            items: s.items.map((i) => moodButton(i.title, i.params)),
            itemSize: "COLLECTION_STYLE_ITEM_SIZE_MEDIUM",
            header: { gridHeaderRenderer: { title: text(s.title) } },
          },
        })),
      },
    }),
  };
}

export function moodPlaylistsPage(
  title: string,
  params: string,
  groups: { title: string; playlists: PlaylistRow[] }[],
): Json {
  return {
    header: { musicHeaderRenderer: { title: text(title) } },
    ...singleColumn({
      sectionListRenderer: {
        contents: groups.map((g) =>
          carousel(
            g.title,
            g.playlists.map((p) => playlistCard(p, null, false)),
            browse("FEmusic_moods_and_genres_category", undefined, params),
          ),
        ),
      },
    }),
  };
}

export const COUNTRY_NAMES: Record<string, string> = {
  ZZ: "Global",
  US: "United States",
  GB: "United Kingdom",
  DE: "Germany",
  IN: "India",
};

/**
 * The channel behind a country's album chart: the charts page's "Albums" carousel opens its
 * discography page (`MPAD<channel>` with the albums params; capture
 * ytm_2026_07_get_charts_us_albums_no_genres, whose chart has a channel of its own).
 */
export const chartAlbumsChannelId = (country: string): string =>
  `UC${`albumchart-${country}`.padEnd(22, "_")}`;

/** The country of a chart album channel id, or null when the id is not one. */
export function chartAlbumsCountry(channelId: string): string | null {
  const m = /^UCalbumchart-([A-Z]{2})_+$/.exec(channelId);
  return m?.[1] ?? null;
}

/** A country's album chart as a discography-style page: one grid, no sort menu. */
export function chartAlbumsPage(albums: AlbumRow[], marks: Marks): Json {
  return {
    header: { musicHeaderRenderer: { title: text("Albums") } },
    ...singleColumn({
      sectionListRenderer: {
        contents: [
          {
            gridRenderer: {
              items: albums.map((a) => albumCard(a, marks, "type-year")),
              header: { gridHeaderRenderer: { title: text("Albums") } },
            },
          },
        ],
      },
    }),
  };
}

function chartArtistRow(
  a: ArtistRow,
  rank: number,
  trend: string | null,
  signedIn: boolean,
  ranked: boolean,
): Json {
  const mix = artistMixIds(a.channelId);
  const row: Json = {
    thumbnail: musicThumbnail(imageSizes(a.channelId, [60, 120])),
    flexColumns: [flex([run(a.name)]), flex([run(`${abbreviate(a.subscribers)} subscribers`)])],
    menu: {
      menuRenderer: {
        items: [
          navItem("Shuffle play", "MUSIC_SHUFFLE", watchPlaylist(mix.shuffle, "wAEB8gECGAE%3D")),
          navItem("Start radio", "MIX", watchPlaylist(mix.radio, "wAEB")),
          {
            toggleMenuServiceItemRenderer: {
              defaultText: text("Subscribe"),
              defaultIcon: { iconType: "SUBSCRIBE" },
              defaultServiceEndpoint: signedIn
                ? { subscribeEndpoint: { channelIds: [a.channelId], params: "EgIIAhgA" } }
                : signInModal("Want to subscribe to this channel?", "Sign in to subscribe to this channel"),
              toggledText: text("Unsubscribe"),
              toggledIcon: { iconType: "SUBSCRIBE" },
              toggledServiceEndpoint: { unsubscribeEndpoint: { channelIds: [a.channelId] } },
              isToggled: false,
            },
          },
          shareItem(a.channelId),
        ],
      },
    },
    flexColumnDisplayStyle: "MUSIC_RESPONSIVE_LIST_ITEM_FLEX_COLUMN_DISPLAY_STYLE_TWO_LINE_STACK",
    navigationEndpoint: browse(a.channelId, PAGE.artist),
    itemHeight: "MUSIC_RESPONSIVE_LIST_ITEM_HEIGHT_MEDIUM_COMPACT",
  };
  // Rank and trend: see ChartsView.ranked.
  if (ranked) row.customIndexColumn = rankColumn(rank, asTrend(trend));
  return { musicResponsiveListItemRenderer: row };
}

export interface ChartsView {
  country: string;
  countries: string[];
  /** Top albums, the first carousel since 2026 (capture ytm_2026_07_get_charts_us_albums_no_genres). */
  albums: AlbumRow[];
  marks: Marks;
  videos: PlaylistRow[];
  genres: PlaylistRow[];
  artists: { artist: ArtistRow; rank: number; trend: string | null }[];
  signedIn: boolean;
  /**
   * Whether artist rows show rank and trend: always when signed in; signed out only on a country's
   * chart, where the 2026 service shows them beside sign-in modals (capture
   * ytm_2026_07_get_charts_us_albums_no_genres, logged_in 0). The global chart keeps the older rule
   * (docs/PROTOCOL.md#explore: absent unauthenticated).
   */
  ranked: boolean;
  /** A premium viewer's extra sections (daily and weekly apart, top songs); null for the others. */
  premium: PremiumCharts | null;
}

export function chartsPage(v: ChartsView): Json {
  return {
    header: { musicHeaderRenderer: { title: text("Charts") } },
    ...singleColumn({ sectionListRenderer: { contents: [countryMenu(v), ...chartsShelves(v)] } }),
    frameworkUpdates: {
      entityBatchUpdate: { mutations: v.countries.map((c) => countryChoice(c, v.country)) },
    },
  };
}

/** The form entity key of one country in the charts' country form (its menu item and its mutation). */
const countryKey = (c: string) => Buffer.from(`explore_charts_country_menu_${c}`).toString("base64url");
/** The form entity key of the charts' country form itself. */
const COUNTRY_FORM_KEY = Buffer.from("explore_charts_country_menu").toString("base64url");

/** The charts' carousels after the country menu: albums, videos (or premium's), genres, top artists. */
function chartsShelves(v: ChartsView): Json[] {
  const sections: Json[] = [];
  if (v.albums.length)
    sections.push(
      carousel(
        "Albums",
        v.albums.map((a) => albumCard(a, v.marks, "type-year")),
        browse(`MPAD${chartAlbumsChannelId(v.country)}`, PAGE.discography, ARTIST_PARAMS.albums),
      ),
    );
  // A premium page has the daily and weekly carousels in place of "Video charts".
  if (v.premium) sections.push(...premiumChartSections(v.premium, v.marks));
  else if (v.videos.length) sections.push(carousel("Video charts", v.videos.map(chartCard)));
  if (v.genres.length) sections.push(carousel("Genres", v.genres.map(chartCard)));
  if (v.artists.length) {
    sections.push(
      carousel(
        "Top artists",
        v.artists.map((a) => chartArtistRow(a.artist, a.rank, a.trend, v.signedIn, v.ranked)),
      ),
    );
  }
  return sections;
}

/**
 * The country selector heading the page: a shelf whose subheader holds the sort-filter button and
 * its menu, Global first, a divider, then the countries (capture ytm_2026_07_get_charts_us_albums_no_genres).
 */
function countryMenu(v: ChartsView): Json {
  const options = v.countries.flatMap((c, i) => {
    const option = countryOption(c);
    return i === 0 ? [option, { musicMenuItemDividerRenderer: {} }] : [option];
  });
  return {
    musicShelfRenderer: {
      shelfDivider: { musicShelfDividerRenderer: { hidden: true } },
      subheaders: [
        {
          musicSideAlignedItemRenderer: {
            startItems: [
              {
                musicSortFilterButtonRenderer: {
                  title: text(COUNTRY_NAMES[v.country] ?? v.country),
                  icon: { iconType: "CHEVRON_DOWN" },
                  menu: {
                    musicMultiSelectMenuRenderer: {
                      title: { musicMenuTitleRenderer: { primaryText: text("Select a country") } },
                      options,
                    },
                  },
                },
              },
            ],
          },
        },
      ],
    },
  };
}

/** One country of the menu: choosing it checks its form item and reloads the charts with the form. */
function countryOption(c: string): Json {
  return {
    musicMultiSelectMenuItemRenderer: {
      title: text(COUNTRY_NAMES[c] ?? c),
      formItemEntityKey: countryKey(c),
      selectedIcon: { iconType: "CHECK" },
      selectedCommand: {
        commandExecutorCommand: {
          commands: [
            {
              musicCheckboxFormItemMutatedCommand: {
                formItemEntityKey: countryKey(c),
                newCheckedState: true,
              },
            },
            {
              musicBrowseFormBinderCommand: {
                browseEndpoint: { browseId: "FEmusic_charts" },
                formEntityKey: COUNTRY_FORM_KEY,
              },
            },
          ],
        },
      },
    },
  };
}

/** The form's state for one country (`frameworkUpdates` mutation): selected when it is the page's. */
function countryChoice(c: string, selected: string): Json {
  return {
    entityKey: countryKey(c),
    type: "ENTITY_MUTATION_TYPE_REPLACE",
    payload: {
      musicFormBooleanChoice: {
        id: countryKey(c),
        parentFormEntityKey: COUNTRY_FORM_KEY,
        selected: c === selected,
        opaqueToken: c,
      },
    },
  };
}

export interface ExploreView {
  newAlbums: AlbumRow[];
  moods: { title: string; params: string }[];
  episodes: EpisodeRow[];
  /** How the episodes' dates are written (the request's language and the clock). */
  dates: DateStyle;
  trending: { playlistId: string; songs: SongRow[] };
  videos: SongRow[];
  marks: Marks;
  /** Top songs, for a premium viewer only (docs/PROTOCOL.md#explore `top_songs`). */
  topSongs: { playlistId: string; rows: RankedSong[] } | null;
}

function trendingRow(s: SongRow, rank: number, playlistId: string, marks: Marks): Json {
  const row = songRow(s, { style: "library", marks, playlistId }) as {
    musicResponsiveListItemRenderer: Json;
  };
  row.musicResponsiveListItemRenderer.customIndexColumn = {
    musicCustomIndexColumnRenderer: { text: text(String(rank)), icon: { iconType: "ARROW_CHART_NEUTRAL" } },
  };
  return row;
}

export function explorePage(v: ExploreView): Json {
  const sections: Json[] = [
    {
      gridRenderer: {
        items: [
          moodButton("New releases", ""),
          moodButton("Charts", ""),
          moodButton("Moods & genres", ""),
          moodButton("Podcasts", ""),
        ].map((b, i) => {
          const ids = [
            "FEmusic_new_releases",
            "FEmusic_charts",
            "FEmusic_moods_and_genres",
            "FEmusic_non_music_audio",
          ];
          (b.musicNavigationButtonRenderer as Json).clickCommand = browse(ids[i]!);
          return b;
        }),
        itemSize: "COLLECTION_STYLE_ITEM_SIZE_SMALL",
      },
    },
    carousel(
      "New albums & singles",
      v.newAlbums.map((a) => albumCard(a, v.marks)),
      browse("FEmusic_new_releases_albums"),
    ),
    carousel(
      "Moods & genres",
      v.moods.map((m) => moodButton(m.title, m.params)),
      browse("FEmusic_moods_and_genres"),
    ),
    carousel(
      "Popular episodes",
      v.episodes.map((e) => exploreEpisodeRow(e, v.dates)),
      browse("FEmusic_top_non_music_audio_episodes"),
    ),
    ...(v.topSongs ? [topSongsCarousel(v.topSongs.playlistId, v.topSongs.rows, v.marks)] : []),
    carousel(
      "Trending",
      v.trending.songs.map((s, i) => trendingRow(s, i + 1, v.trending.playlistId, v.marks)),
      browse(`VL${v.trending.playlistId}`, PAGE.playlist),
    ),
    carousel(
      "New music videos",
      v.videos.map((x) => videoCard(x)),
      browse("FEmusic_new_releases_videos"),
    ),
  ];
  return singleColumn(
    { sectionListRenderer: { contents: sections } },
    selectedTab("FEmusic_explore", "TAB_EXPLORE"),
  );
}

/**
 * The tab fields of home and explore: the tab is marked `selected` and names itself (captures
 * yt_set_taste_profile_20240723 and ytm_2025_11_get_explore; only home's has a title). Clients pick
 * the page's content by the selected tab.
 */
function selectedTab(browseId: string, icon: string, title?: string): Json {
  const tab: Json = { endpoint: browse(browseId) };
  if (title) tab.title = title;
  return { ...tab, selected: true, icon: { iconType: icon }, tabIdentifier: browseId };
}

const HOME_TAB = () => selectedTab("FEmusic_home", "TAB_HOME", "Home");

/** Home rows: quick picks (MRLIR), then carousels of cards. `token` continues the section list (shape A). */
export function homePage(rows: Json[], token: string | null, continuation: boolean): Json {
  const list: Json = { contents: rows };
  if (token) list.continuations = nextContinuation(token);
  if (continuation) {
    // No capture of a home continuation exists. The continuation also carries the selected home tab
    // without content: youtubei.js's home feed (written against the service) finds the tab first and
    // reads `continuationContents` when the tab has no content, and fails without the tab.
    return {
      contents: { singleColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: HOME_TAB() }] } },
      continuationContents: { sectionListContinuation: list },
    };
  }
  // Mood chips above the rows (capture yt_set_taste_profile_20240723).
  list.header = {
    chipCloudRenderer: {
      chips: ["Energize", "Relax", "Workout", "Commute", "Focus"].map((label) => ({
        chipCloudChipRenderer: {
          style: { styleType: "STYLE_DEFAULT" },
          text: text(label),
          navigationEndpoint: browse("FEmusic_home", undefined, Buffer.from(label).toString("base64url")),
          isSelected: false,
        },
      })),
    },
  };
  return {
    ...singleColumn({ sectionListRenderer: list }, HOME_TAB()),
    background: musicThumbnail(imageSizes("home", [544])),
  };
}

export function homeRow(
  kind: "quick" | "albums" | "playlists" | "videos" | "songs",
  title: string,
  items: {
    songs?: SongRow[];
    albums?: AlbumRow[];
    playlists?: PlaylistRow[];
    artist?: ArtistRow | undefined;
  },
  marks: Marks,
): Json {
  switch (kind) {
    case "quick":
      return carousel(
        title,
        (items.songs ?? []).map((s) => {
          const we = watch(s.videoId, { videoType: s.videoType, playlistId: `RDAMVM${s.videoId}` });
          const album = s.albumBrowseId ? run(s.albumTitle ?? "", browse(s.albumBrowseId, PAGE.album)) : null;
          return {
            musicResponsiveListItemRenderer: {
              thumbnail: musicThumbnail(imageSizes(s.videoId, [60, 120])),
              overlay: overlay(we),
              flexColumns: [
                flex([run(s.title, we)]),
                flex(dotted([artistRuns(s), run(`${abbreviate(s.views)} plays`)])),
                flex(album ? [album] : []),
              ],
              menu: { menuRenderer: { items: [shareItem(s.videoId)] } },
              playlistItemData: { videoId: s.videoId },
            },
          };
        }),
      );
    case "albums":
      return carousel(
        title,
        (items.albums ?? []).map((a) => albumCard(a, marks)),
      );
    case "playlists":
      return carousel(
        title,
        (items.playlists ?? []).map((p) => playlistCard(p, null, false)),
      );
    case "videos":
      return carousel(
        title,
        (items.songs ?? []).map((x) => videoCard(x)),
      );
    default: {
      const cards = (items.songs ?? []).map((song) => songCard(song, marks, true));
      // Listen again mixes an artist card in among the songs (capture yt_set_taste_profile_20240723
      // has one 13th of 19); it goes before the last song so the shelf still ends with a song.
      if (items.artist) {
        const a = items.artist;
        cards.splice(
          Math.max(cards.length - 1, 0),
          0,
          artistCard(a, marks.inLibrary("subscription", a.channelId)),
        );
      }
      return carousel(title, cards);
    }
  }
}
