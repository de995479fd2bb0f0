/**
 * `search` responses (docs/PROTOCOL.md#search): `tabbedSearchResultsRenderer` with one tab per scope; the
 * unfiltered page holds a top-result card and one shelf per category, a filtered page one shelf with
 * shape-A continuations (captures yt_search_*).
 */
import { encodeSearchParams, type SearchFilter, type SearchScope } from "../search-params.js";
import { type Json, nextContinuation, text } from "./common.js";

// The rows and the top-result card live in their own modules; routes take them from here.
export { searchRow } from "./search-rows.js";
export { topResultCard } from "./search-top.js";
export type { SearchFilter };

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

export type { ProfileRow, SearchItem } from "./search-items.js";

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
  /**
   * Signed out, the page has the catalogue's tab only (capture yt_search_highlighted_top_result_20240107):
   * the library and uploads tabs would open pages that need an account.
   */
  signedIn: boolean;
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
    : TABS.slice(0, !view.signedIn ? 1 : view.scope === "uploads" ? 3 : 2);
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
