import type { Path } from "./nav.js";

/**
 * The path prefixes every parser walks, named as in docs/PROTOCOL.md#path-prefixes, and the
 * few longer paths several parsers share. Each longer path is composed from the prefixes here, at
 * module level, so that a parser allocates nothing per call and a renamed key is fixed in one place.
 */

// ── page layouts ─────────────────────────────────────────────────────────────────────────────

/** `sectionListRenderer.contents`: the array of sections (`SL`). */
export const SL: Path = ["sectionListRenderer", "contents"];
/** `sectionListRenderer.contents[0]` (`SL0`). */
export const SL0: Path = [...SL, 0];

/** The tabs of a single-column browse page (library pages have several). */
export const SC_TABS: Path = ["contents", "singleColumnBrowseResultsRenderer", "tabs"];
/** `tabRenderer.content`: a tab's content. */
export const TAB_CONTENT: Path = ["tabRenderer", "content"];
/** The first tab's content of a single-column browse page (`SC_TAB`). */
export const SC_TAB: Path = [...SC_TABS, 0, ...TAB_CONTENT];
/** `SC_TAB.sectionListRenderer`: where a single-column page keeps its section continuation. */
export const SC_SECTION_LIST: Path = [...SC_TAB, "sectionListRenderer"];
/** `SC_TAB.SL`: the sections of a single-column page. */
export const SC_SECTIONS: Path = [...SC_TAB, ...SL];
/** `SC_TAB.SL0`: the first section of a single-column page. */
export const SC_SECTION0: Path = [...SC_TAB, ...SL0];
/** `SC_TAB.SL0.musicShelfRenderer`: the track shelf of legacy album and upload pages. */
export const SC_SHELF: Path = [...SC_SECTION0, "musicShelfRenderer"];

/** `contents.twoColumnBrowseResultsRenderer` (`TC`). */
export const TC: Path = ["contents", "twoColumnBrowseResultsRenderer"];
/** The first tab's content of a two-column page (`TC_TAB`). */
export const TC_TAB: Path = [...TC, "tabs", 0, ...TAB_CONTENT];
/** `TC_TAB.SL`: the sections of a two-column page's first tab. */
export const TC_SECTIONS: Path = [...TC_TAB, ...SL];
/** `TC_TAB.SL0`: where the 2024 headers (album, playlist, podcast) sit. */
export const TC_SECTION0: Path = [...TC_TAB, ...SL0];
/** `TC.secondaryContents` (`TC_SEC`). */
export const TC_SEC: Path = [...TC, "secondaryContents"];
/** `TC_SEC.sectionListRenderer`. */
export const TC_SEC_SECTION_LIST: Path = [...TC_SEC, "sectionListRenderer"];
/** `TC_SEC.SL`: the secondary sections (tracks, episodes, description). */
export const TC_SEC_SECTIONS: Path = [...TC_SEC, ...SL];
/** `TC_SEC.SL0`. */
export const TC_SEC_SECTION0: Path = [...TC_SEC, ...SL0];

// ── thumbnails ───────────────────────────────────────────────────────────────────────────────

/** Row and header thumbnails (`THUMBS`). */
export const THUMBS: Path = ["thumbnail", "musicThumbnailRenderer", "thumbnail", "thumbnails"];
/** Card thumbnails (`THUMBS_TR`). */
export const THUMBS_TR: Path = ["thumbnailRenderer", "musicThumbnailRenderer", "thumbnail", "thumbnails"];
/** Legacy header thumbnails (`THUMBS_CROP`). */
export const THUMBS_CROP: Path = ["thumbnail", "croppedSquareThumbnailRenderer", "thumbnail", "thumbnails"];

// ── endpoints ────────────────────────────────────────────────────────────────────────────────

/** `navigationEndpoint.browseEndpoint.browseId` (`NAV_BROWSE_ID`). */
export const NAV_BROWSE_ID: Path = ["navigationEndpoint", "browseEndpoint", "browseId"];
/** `navigationEndpoint.browseEndpoint.params`. */
export const NAV_BROWSE_PARAMS: Path = ["navigationEndpoint", "browseEndpoint", "params"];
/** A browse endpoint's page type (`PAGE_TYPE`), below the object holding `browseEndpoint`. */
export const PAGE_TYPE: Path = [
  "browseEndpoint",
  "browseEndpointContextSupportedConfigs",
  "browseEndpointContextMusicConfig",
  "pageType",
];
/** `navigationEndpoint.PAGE_TYPE`. */
export const NAV_PAGE_TYPE: Path = ["navigationEndpoint", ...PAGE_TYPE];
/** A watch endpoint's video type (`VIDEO_TYPE`), below the object holding `watchEndpoint`. */
export const VIDEO_TYPE: Path = [
  "watchEndpoint",
  "watchEndpointMusicSupportedConfigs",
  "watchEndpointMusicConfig",
  "musicVideoType",
];
/** `navigationEndpoint.VIDEO_TYPE`. */
export const NAV_VIDEO_TYPE: Path = ["navigationEndpoint", ...VIDEO_TYPE];
/** `navigationEndpoint.watchEndpoint.videoId`. */
export const NAV_VIDEO_ID: Path = ["navigationEndpoint", "watchEndpoint", "videoId"];
/** `navigationEndpoint.watchEndpoint.playlistId`. */
export const NAV_PLAYLIST_ID: Path = ["navigationEndpoint", "watchEndpoint", "playlistId"];
/** `navigationEndpoint.watchPlaylistEndpoint.playlistId`. */
export const NAV_WATCH_PLAYLIST_ID: Path = ["navigationEndpoint", "watchPlaylistEndpoint", "playlistId"];
/** `onTap.watchEndpoint…`: MMRIR rows and the top-result card play through `onTap`. */
export const ON_TAP_VIDEO_ID: Path = ["onTap", "watchEndpoint", "videoId"];
export const ON_TAP_VIDEO_TYPE: Path = ["onTap", ...VIDEO_TYPE];

/** A row's play button (`PLAY_NAV`). */
export const PLAY_NAV: Path = [
  "overlay",
  "musicItemThumbnailOverlayRenderer",
  "content",
  "musicPlayButtonRenderer",
  "playNavigationEndpoint",
];
export const PLAY_VIDEO_ID: Path = [...PLAY_NAV, "watchEndpoint", "videoId"];
export const PLAY_PLAYLIST_ID: Path = [...PLAY_NAV, "watchEndpoint", "playlistId"];
export const PLAY_VIDEO_TYPE: Path = [...PLAY_NAV, ...VIDEO_TYPE];
/** A card's play button: as `PLAY_NAV`, under `thumbnailOverlay`. */
export const OVERLAY_NAV: Path = ["thumbnailOverlay", ...PLAY_NAV.slice(1)];

// ── menus ────────────────────────────────────────────────────────────────────────────────────

/** `menu.menuRenderer.items` (`MENU_ITEMS`). */
export const MENU_ITEMS: Path = ["menu", "menuRenderer", "items"];
/** `menu.menuRenderer.topLevelButtons`. */
export const MENU_BUTTONS: Path = ["menu", "menuRenderer", "topLevelButtons"];
/** A track's own rating (`LIKE_STATUS`). */
export const LIKE_STATUS: Path = [...MENU_BUTTONS, 0, "likeButtonRenderer", "likeStatus"];
/** The first menu entry's "shuffle/radio" playlist: album cards and search's top playlist. */
export const MENU0_WATCH_PLAYLIST_ID: Path = [
  ...MENU_ITEMS,
  0,
  "menuNavigationItemRenderer",
  ...NAV_WATCH_PLAYLIST_ID,
];
/** The "Add to queue" entry's video. */
export const QUEUE_VIDEO_ID: Path = [
  "menuServiceItemRenderer",
  "serviceEndpoint",
  "queueAddEndpoint",
  "queueTarget",
  "videoId",
];

// ── text ─────────────────────────────────────────────────────────────────────────────────────

/** A run's text, for reading it with the path helpers (a constant, not an array made per run). */
export const RUN_TEXT: Path = ["text"];
/** `title.runs[0]` (`TITLE0`) and its text (`TITLE_TEXT`). */
export const TITLE0: Path = ["title", "runs", 0];
export const TITLE_TEXT: Path = [...TITLE0, "text"];
export const TITLE_RUNS: Path = ["title", "runs"];
export const TITLE_BROWSE_ID: Path = [...TITLE0, ...NAV_BROWSE_ID];
/** `subtitle.runs` (`SUB_RUNS`). */
export const SUB_RUNS: Path = ["subtitle", "runs"];
export const SUB0: Path = [...SUB_RUNS, 0];
export const SUB0_TEXT: Path = [...SUB0, "text"];
export const SECOND_SUB_RUNS: Path = ["secondSubtitle", "runs"];
/** `description.runs[0].text`. */
export const DESCRIPTION_TEXT: Path = ["description", "runs", 0, "text"];
/** The 2024 headers' description shelf runs. */
export const DESCRIPTION_SHELF_RUNS: Path = [
  "description",
  "musicDescriptionShelfRenderer",
  "description",
  "runs",
];

// ── rows, cards, carousels ───────────────────────────────────────────────────────────────────

/** The runs inside one flex column (`FLEX(i)` is `flexColumns[i]` followed by this). */
export const FLEX_COLUMN_RUNS: Path = ["musicResponsiveListItemFlexColumnRenderer", "text", "runs"];
/** `FLEX(0)[0].text`. */
export const FLEX0_TEXT: Path = ["flexColumns", 0, ...FLEX_COLUMN_RUNS, 0, "text"];
/** `FIXED(0)`: has `runs` or `simpleText`. */
export const FIXED0_TEXT: Path = ["fixedColumns", 0, "musicResponsiveListItemFixedColumnRenderer", "text"];

/** The title run of a carousel, from inside the `musicCarouselShelfRenderer` (`CAROUSEL_TITLE`). */
export const CAROUSEL_HEADER: Path = ["header", "musicCarouselShelfBasicHeaderRenderer"];
export const CAROUSEL_TITLE: Path = [...CAROUSEL_HEADER, ...TITLE0];
export const CAROUSEL_TITLE_TEXT: Path = [...CAROUSEL_TITLE, "text"];
export const CAROUSEL_BROWSE_ID: Path = [...CAROUSEL_TITLE, ...NAV_BROWSE_ID];

/** An inline badge's label; `BADGE_LABEL` on rows, `SUBTITLE_BADGE_LABEL` on cards and headers. */
const INLINE_BADGE_LABEL: Path = [
  "musicInlineBadgeRenderer",
  "accessibilityData",
  "accessibilityData",
  "label",
];
export const BADGE_LABEL: Path = ["badges", 0, ...INLINE_BADGE_LABEL];
export const SUBTITLE_BADGE_LABEL: Path = ["subtitleBadges", 0, ...INLINE_BADGE_LABEL];
