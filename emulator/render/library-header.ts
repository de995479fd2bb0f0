/**
 * The header of a library list: filter chips on the left, the sort menu on the right
 * (`musicSideAlignedItemRenderer`). Shapes from the captures: every chip runs a
 * `commandExecutorCommand` whose first command is the browse and whose second persists it as the
 * library's launch page (yt_get_library_playlists); a filtered page shows a "Clear filters" chip,
 * its own chip selected and that chip's sub-filters (Artists → Subscriptions in
 * yt_get_library_artists, Podcasts → Channels in yt_get_library_podcasts_20250626); each sort
 * option reloads the list with a self-contained browse continuation
 * (yt_get_library_songs_20240701).
 */
import { LIBRARY_SORTS, type LibraryOrder, sortReloadToken } from "../library-sort.js";
import { type Json, sortMenuOptions, text } from "./common.js";

interface LibraryFilter {
  label: string;
  /** The chip's accessibility label ("Show songs"). */
  a11y: string;
  browseId: string;
  /** Sub-filters carry params naming them (field 48 → {1: n}). */
  params?: string;
  /** The browse id of the chip a sub-filter belongs to. */
  parent?: string;
}

const LIBRARY_LANDING = "FEmusic_library_landing";
const UPLOADS_LANDING = "FEmusic_library_privately_owned_landing";

const LIBRARY_FILTERS: readonly LibraryFilter[] = [
  { label: "Playlists", a11y: "Show playlists", browseId: "FEmusic_liked_playlists" },
  { label: "Songs", a11y: "Show songs", browseId: "FEmusic_liked_videos" },
  { label: "Albums", a11y: "Show albums", browseId: "FEmusic_liked_albums" },
  { label: "Artists", a11y: "Show artists", browseId: "FEmusic_library_corpus_track_artists" },
  { label: "Podcasts", a11y: "Show podcasts", browseId: "FEmusic_library_non_music_audio_list" },
  {
    label: "Subscriptions",
    a11y: "Show subscribed artists",
    browseId: "FEmusic_library_corpus_artists",
    params: "ggMCCAU%3D",
    parent: "FEmusic_library_corpus_track_artists",
  },
  {
    label: "Channels",
    a11y: "Show subscribed channels",
    browseId: "FEmusic_library_non_music_audio_channels_list",
    params: "ggMCCAQ%3D",
    parent: "FEmusic_library_non_music_audio_list",
  },
];

const UPLOAD_FILTERS: readonly LibraryFilter[] = [
  { label: "Songs", a11y: "Show songs", browseId: "FEmusic_library_privately_owned_tracks" },
  { label: "Albums", a11y: "Show albums", browseId: "FEmusic_library_privately_owned_releases" },
  { label: "Artists", a11y: "Show artists", browseId: "FEmusic_library_privately_owned_artists" },
];

/** A chip's command: the browse, then the same browse persisted as the library's launch page. */
function libraryCommand(browseId: string, params?: string): Json {
  const browseEndpoint = params ? { browseId, params } : { browseId };
  return {
    commandExecutorCommand: {
      commands: [
        { browseEndpoint },
        { musicLibraryPersistLaunchNavigationCommand: { command: { browseEndpoint } } },
      ],
    },
  };
}

function chip(f: LibraryFilter, selected: boolean, deselectTo: string | null): Json {
  const c: Json = {
    text: text(f.label),
    navigationEndpoint: libraryCommand(f.browseId, f.params),
    accessibilityData: { accessibilityData: { label: f.a11y } },
    isSelected: selected,
  };
  if (deselectTo) c.onDeselectedCommand = libraryCommand(deselectTo);
  c.uniqueId = f.label;
  return { chipCloudChipRenderer: c };
}

function clearChip(landing: string): Json {
  return {
    chipCloudChipRenderer: {
      navigationEndpoint: libraryCommand(landing),
      icon: { iconType: "CLOSE" },
      accessibilityData: { accessibilityData: { label: "Clear filters" } },
      isSelected: true,
      onDeselectedCommand: libraryCommand(landing),
    },
  };
}

/** The chips of a page: every top filter on a landing page; else Clear, its filter, its sub-filters. */
export function libraryChips(browseId: string): Json[] {
  const uploads = UPLOAD_FILTERS.some((f) => f.browseId === browseId);
  const filters = uploads ? UPLOAD_FILTERS : LIBRARY_FILTERS;
  const landing = uploads ? UPLOADS_LANDING : LIBRARY_LANDING;
  const own = filters.find((f) => f.browseId === browseId);
  if (!own) return filters.filter((f) => !f.parent).map((f) => chip(f, false, null));
  const main = own.parent ? filters.find((f) => f.browseId === own.parent)! : own;
  const subs = filters.filter((f) => f.parent === main.browseId);
  return [
    clearChip(landing),
    chip(main, true, landing),
    ...subs.map((f) => chip(f, f === own, main.browseId)),
  ];
}

/** The header of the list `browseId` sorted by `order`, and the sort form's entity mutations. */
export function libraryHeader(browseId: string, order: LibraryOrder): { header: Json; mutations: Json[] } {
  const selected = LIBRARY_SORTS.findIndex((s) => s.order === order);
  const { options, mutations } = sortMenuOptions(
    "library-sort",
    LIBRARY_SORTS.map((s) => ({ title: s.title, reload: sortReloadToken(browseId, s.order) })),
    selected,
  );
  const header = {
    musicSideAlignedItemRenderer: {
      startItems: [{ chipCloudRenderer: { chips: libraryChips(browseId) } }],
      endItems: [
        {
          musicSortFilterButtonRenderer: {
            title: text(LIBRARY_SORTS[selected]!.title),
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
  };
  return { header, mutations };
}
