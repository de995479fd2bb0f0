/**
 * One reader per source type, each written against `SourceClient`. A reader returns the source's
 * items and whether the read looks truncated: fewer items than the service said the list holds,
 * which blocks removals in the plan (a half-read chart must never empty a playlist).
 */
import { ServiceError } from "../../src/index.js";
import type {
  AlbumSource,
  ArtistSource,
  ChartSource,
  FileSource,
  LibrarySource,
  ListenBrainzSource,
  MoodSource,
  PodcastSource,
  RadioSource,
  Recipe,
  SelfSource,
  ServiceSource,
  SourceSpec,
} from "../recipe/types.js";
import type { Item } from "./item.js";
import {
  fromAlbumCard,
  fromArtistRow,
  fromEpisode,
  fromPlaylistCard,
  fromPodcastCard,
  fromSearchResult,
  fromTrack,
} from "./normalise.js";
import type {
  ChartPlaylistResult,
  ChartsResult,
  MoodCategoryResult,
  PlaylistResult,
  SourceClient,
} from "./reader.js";

export interface SourceRead {
  id: string;
  items: Item[];
  /** Fewer items came back than the service said the list holds. */
  truncated: boolean;
  /** What the service said the list holds, when it says. */
  expected: number | null;
  /** What a file source could not read or match, for the plan to show (engine/sources/file-source.ts). */
  notes?: readonly SourceNote[];
}

/** A file row that could not be read, or an entry no video was found for. */
export interface SourceNote {
  source: string;
  kind: "unmatched" | "unreadable";
  text: string;
}

/** A source that cannot be read as the recipe asks (a mood that does not exist…). */
export class SourceError extends Error {
  readonly source: string;

  constructor(source: string, message: string, options: { cause?: unknown } = {}) {
    super(`source "${source}": ${message}`, options);
    this.name = "SourceError";
    this.source = source;
  }
}

export interface ReadContext {
  /** Already read sources, for `radio: { from }`. */
  reads: ReadonlyMap<string, SourceRead>;
  /** The target's own rows, for `self`. */
  self: readonly Item[] | null;
  /** Reads `file` sources (files, matches.yaml, the match cache, paced searches); absent: refused. */
  files?: (spec: FileSource) => Promise<SourceRead>;
  /** Reads the other services' sources (engine/sources/service-source.ts); absent: refused. */
  services?: (spec: ServiceSource) => Promise<SourceRead>;
}

function numbered<T>(
  list: readonly T[],
  map: (x: T, source: string, rank: number) => Item | null,
  source: string,
): Item[] {
  const out: Item[] = [];
  for (const x of list) {
    const item = map(x, source, out.length + 1);
    if (item) out.push(item);
  }
  return out;
}

function capped(items: Item[], limit: number | null): Item[] {
  return limit === null ? items : items.slice(0, limit);
}

/** A list read in full (or up to the limit) compared with the count the service announced. */
function counted(
  id: string,
  items: Item[],
  expected: number | null | undefined,
  limit: number | null,
): SourceRead {
  const want = expected ?? null;
  const truncated = want !== null && items.length < want && (limit === null || items.length < limit);
  return { id, items: capped(items, limit), truncated, expected: want };
}

function playlistRead(id: string, result: PlaylistResult, limit: number | null): SourceRead {
  return counted(id, numbered(result.tracks, fromTrack, id), result.trackCount, limit);
}

/** Which chart playlist a section means. The charts page names its playlists for people, so match on titles. */
export function chartPlaylist(charts: ChartsResult, section: "songs" | "videos" | "trending"): string | null {
  const lists: ChartPlaylistResult[] = [
    ...(charts.daily ?? []),
    ...(charts.weekly ?? []),
    ...(charts.videos ?? []),
    ...(charts.genres ?? []),
  ];
  const find = (test: (title: string) => boolean) =>
    lists.find((p) => p.playlistId && test((p.title ?? "").toLowerCase()))?.playlistId ?? null;
  if (section === "trending") return charts.trending?.playlist ?? find((t) => t.includes("trending"));
  if (section === "songs") {
    return charts.songs?.playlist ?? find((t) => t.includes("song") && !t.includes("trending")) ?? null;
  }
  return find((t) => t.includes("video") && !t.includes("trending")) ?? find((t) => !t.includes("trending"));
}

/** A read with nothing in it: an artist without the shelf, a radio whose seed source came back empty. */
function emptyRead(id: string): SourceRead {
  return { id, items: [], truncated: false, expected: null };
}

/** Rows the recipe lists itself (static videoIds, the target's own rows): never truncated. */
function fixedRead(id: string, items: Item[], limit: number | null): SourceRead {
  return { id, items: capped(items, limit), truncated: false, expected: null };
}

async function readAlbum(spec: AlbumSource, client: SourceClient): Promise<SourceRead> {
  const { id, limit } = spec;
  let browseId = spec.browseId;
  if (browseId === null && spec.audioPlaylistId !== null) {
    browseId = await client.getAlbumBrowseId(spec.audioPlaylistId);
    if (browseId === null) throw new SourceError(id, `no album found for ${spec.audioPlaylistId}`);
  }
  const album = await client.getAlbum(browseId!);
  const items = numbered(album.tracks, fromTrack, id).map((item) =>
    item.artists.length === 0 && album.artists
      ? { ...item, artists: album.artists.map((a) => ({ name: a.name ?? "", id: a.id ?? null })) }
      : item,
  );
  // An album page is one read, not pages: a count above the rows means region-blocked tracks,
  // not a cut read (the VULTURES 1 capture says 16 songs and lists 15).
  return counted(id, items, null, limit);
}

async function readArtist(spec: ArtistSource, client: SourceClient): Promise<SourceRead> {
  const { id, limit } = spec;
  const artist = await client.getArtist(spec.channelId);
  if (spec.section === "songs" || spec.section === "videos") {
    const section = artist[spec.section];
    if (!section) return emptyRead(id);
    // The shelf shows a handful; its browseId is the full list as a playlist.
    if (section.browseId) {
      return playlistRead(
        id,
        await client.getPlaylist(section.browseId.replace(/^VL/, ""), { limit }),
        limit,
      );
    }
    return counted(id, numbered(section.results ?? [], fromTrack, id), null, limit);
  }
  const section = artist[spec.section];
  if (!section) return emptyRead(id);
  const cards =
    section.browseId && section.params
      ? await client.getArtistAlbums(section.browseId, section.params, { limit })
      : (section.results ?? []);
  return counted(id, numbered(cards, fromAlbumCard, id), null, limit);
}

async function readChart(spec: ChartSource, client: SourceClient): Promise<SourceRead> {
  const { id, limit } = spec;
  const charts = await client.getCharts({ country: spec.country });
  if (spec.section === "artists") {
    return counted(id, numbered(charts.artists ?? [], fromArtistRow, id), null, limit);
  }
  const playlistId = chartPlaylist(charts, spec.section);
  if (playlistId === null) {
    const inline = inlineChart(charts, spec.section);
    if (inline) return counted(id, numbered(inline, fromTrack, id), null, limit);
    throw new SourceError(id, noChartSection(charts, spec.country, spec.section));
  }
  return playlistRead(id, await client.getPlaylist(playlistId, { limit }), limit);
}

/** The ranked rows a charts page shows of a section that has no playlist of its own. */
function inlineChart(charts: ChartsResult, section: "songs" | "videos" | "trending") {
  if (section === "songs") return charts.songs?.items ?? null;
  return section === "trending" ? (charts.trending?.items ?? null) : null;
}

/**
 * A missing section, said with the sections this page does hold, so the recipe can be changed:
 * which there are depends on the country and the account (src/parsers/explore.ts CHART_SECTIONS).
 */
function noChartSection(charts: ChartsResult, country: string, section: ChartSource["section"]): string {
  const listed = (["songs", "videos", "trending"] as const).filter(
    (s) => chartPlaylist(charts, s) !== null || inlineChart(charts, s) !== null,
  );
  const held = [...listed, ...((charts.artists ?? []).length > 0 ? ["artists"] : [])];
  const holds =
    held.length > 0
      ? `they hold ${held.join(", ")}`
      : "they hold none of the sections a chart source reads (songs, videos, artists, trending)";
  // Ranked songs are on the page only for a signed-in premium account; the others never see them.
  const why = section === "songs" ? " (only signed-in premium accounts get one)" : "";
  return `the ${country} charts have no ${section} chart${why}; ${holds}`;
}

/** The mood button the recipe names, by title in any case; an unknown one lists those there are. */
async function moodCategory(spec: MoodSource, client: SourceClient): Promise<MoodCategoryResult> {
  const categories = await client.getMoodCategories();
  const wanted = spec.category.toLowerCase();
  const category = Object.values(categories)
    .flat()
    .find((c) => c.title.toLowerCase() === wanted);
  if (!category) {
    const known = Object.values(categories)
      .flat()
      .map((c) => c.title);
    throw new SourceError(spec.id, `no mood or genre "${spec.category}" (known: ${known.join(", ")})`);
  }
  return category;
}

async function readMood(spec: MoodSource, client: SourceClient): Promise<SourceRead> {
  const { id, limit } = spec;
  const category = await moodCategory(spec, client);
  const playlists = (await client.getMoodPlaylists(category.params)).filter((p) => p.playlistId);
  const chosen =
    spec.playlist === "all"
      ? playlists
      : spec.playlist === "first"
        ? playlists.slice(0, 1)
        : playlists.filter((p) => (p.title ?? "").toLowerCase() === spec.playlist.toLowerCase());
  if (chosen.length === 0)
    throw new SourceError(id, `mood "${spec.category}" has no playlist "${spec.playlist}"`);
  const reads = [];
  for (const p of chosen)
    reads.push(playlistRead(id, await client.getPlaylist(p.playlistId!, { limit }), limit));
  const items = reads.flatMap((r) => r.items).map((item, i) => ({ ...item, rank: i + 1 }));
  return { id, items: capped(items, limit), truncated: reads.some((r) => r.truncated), expected: null };
}

async function readRadio(spec: RadioSource, client: SourceClient, ctx: ReadContext): Promise<SourceRead> {
  const { id, limit } = spec;
  let videoId = spec.videoId;
  if (spec.from !== null) {
    const seed = ctx.reads.get(spec.from)?.items.find((i) => i.videoId);
    if (!seed?.videoId) return emptyRead(id);
    videoId = seed.videoId;
  }
  const watch = await client.getWatchPlaylist({
    ...(videoId ? { videoId } : { playlistId: spec.playlistId! }),
    radio: true,
    limit,
  });
  return counted(id, numbered(watch.tracks, fromTrack, id), null, limit);
}

async function readLibrary(spec: LibrarySource, client: SourceClient): Promise<SourceRead> {
  const { id, limit } = spec;
  const o = { limit };
  switch (spec.kind) {
    case "songs":
      return counted(id, numbered(await client.getLibrarySongs(o), fromTrack, id), null, limit);
    case "albums":
      return counted(id, numbered(await client.getLibraryAlbums(o), fromAlbumCard, id), null, limit);
    case "artists":
      return counted(id, numbered(await client.getLibraryArtists(o), fromArtistRow, id), null, limit);
    case "subscriptions":
      return counted(id, numbered(await client.getLibrarySubscriptions(o), fromArtistRow, id), null, limit);
    case "playlists":
      return counted(id, numbered(await client.getLibraryPlaylists(o), fromPlaylistCard, id), null, limit);
    case "podcasts":
      return counted(id, numbered(await client.getLibraryPodcasts(o), fromPodcastCard, id), null, limit);
  }
  throw new SourceError(id, "unknown source type");
}

async function readPodcast(spec: PodcastSource, client: SourceClient): Promise<SourceRead> {
  const podcast = await client.getPodcast(spec.playlistId, { limit: spec.limit });
  const items = numbered(
    podcast.episodes,
    (e, s, r) => fromEpisode(e, s, r, podcast.author ?? null),
    spec.id,
  );
  return counted(spec.id, items, null, spec.limit);
}

function readSelf(spec: SelfSource, ctx: ReadContext): SourceRead {
  if (ctx.self === null) throw new SourceError(spec.id, "the target's rows were not read");
  const rows = ctx.self.map((row, i) => ({ ...row, source: spec.id, rank: i + 1 }));
  return fixedRead(spec.id, rows, spec.limit);
}

export async function readSource(
  spec: SourceSpec,
  client: SourceClient,
  ctx: ReadContext,
): Promise<SourceRead> {
  const { id, limit } = spec;
  switch (spec.type) {
    case "playlist":
      return playlistRead(id, await client.getPlaylist(spec.playlistId, { limit }), limit);
    case "liked":
      return playlistRead(id, await client.getLikedSongs({ limit }), limit);
    case "saved_episodes":
      return playlistRead(id, await client.getSavedEpisodes({ limit }), limit);
    case "album":
      return readAlbum(spec, client);
    case "artist":
      return readArtist(spec, client);
    case "search": {
      const results = await client.search(spec.query, { filter: spec.filter, limit: spec.limit ?? 20 });
      return counted(id, numbered(results, fromSearchResult, id), null, limit);
    }
    case "chart":
      return readChart(spec, client);
    case "mood":
      return readMood(spec, client);
    case "radio":
      return readRadio(spec, client, ctx);
    case "library":
      return readLibrary(spec, client);
    case "history":
      return counted(id, numbered(await client.getHistory(), fromTrack, id), null, limit);
    case "podcast":
      return readPodcast(spec, client);
    case "new_episodes": {
      const list = await client.getEpisodesPlaylist("RDPN");
      return counted(id, numbered(list.episodes, fromEpisode, id), list.trackCount, limit);
    }
    case "static":
      return fixedRead(
        id,
        spec.videoIds.map((videoId, i) => ({ ...fromTrack({ videoId }, id, i + 1) })),
        limit,
      );
    case "file":
      if (!ctx.files) throw new SourceError(id, "file sources are read only by a run (plan, sync)");
      return ctx.files(spec);
    case "spotify":
    case "listenbrainz":
    case "lastfm":
      if (!ctx.services)
        throw new SourceError(id, `${spec.type} sources are read only by a run (plan, sync)`);
      return ctx.services(spec);
    case "self":
      return readSelf(spec, ctx);
  }
  throw new SourceError(id, "unknown source type");
}

/** Sources in an order where every radio comes after the source it starts from. */
export function readOrder(sources: readonly SourceSpec[]): SourceSpec[] {
  const byId = new Map(sources.map((s) => [s.id, s]));
  const done = new Set<string>();
  const out: SourceSpec[] = [];
  const visit = (s: SourceSpec, depth: number) => {
    if (done.has(s.id) || depth > sources.length) return;
    if (s.type === "radio" && s.from !== null) {
      const dep = byId.get(s.from);
      if (dep) visit(dep, depth + 1);
    }
    done.add(s.id);
    out.push(s);
  };
  for (const s of sources) visit(s, 0);
  return out;
}

/** Reads every source of a recipe, one after another (the client paces requests per account). */
export async function readSources(
  recipe: Pick<Recipe, "sources">,
  client: SourceClient,
  self: readonly Item[] | null = null,
  readers: Pick<ReadContext, "files" | "services"> = {},
): Promise<Map<string, SourceRead>> {
  const reads = new Map<string, SourceRead>();
  for (const spec of readOrder(recipe.sources)) {
    try {
      reads.set(spec.id, await readSource(spec, client, { reads, self, ...readers }));
    } catch (e) {
      throw notFound(spec, e) ?? e;
    }
  }
  return reads;
}

function listenBrainzAsked(spec: ListenBrainzSource): string {
  if (spec.playlist !== null) return `ListenBrainz playlist ${spec.playlist}`;
  if (spec.series !== null) return `ListenBrainz ${spec.series} of ${spec.user ?? "?"}`;
  if (spec.title !== null) return `ListenBrainz playlist "${spec.title}" of ${spec.user ?? "?"}`;
  return `ListenBrainz top recordings (${spec.top ?? "?"}) of ${spec.user ?? "?"}`;
}

/** What a source asks the service for, as a person would name it: its type and the id it reads. */
export function askedFor(spec: SourceSpec): string {
  switch (spec.type) {
    case "playlist":
    case "podcast":
      return `${spec.type} ${spec.playlistId}`;
    case "album":
      return `album ${spec.browseId ?? spec.audioPlaylistId ?? "?"}`;
    case "file":
      return `file ${spec.path}`;
    case "spotify":
      return spec.playlist !== null
        ? `Spotify playlist ${spec.playlist}`
        : `Spotify library ${spec.library ?? "?"}`;
    case "listenbrainz":
      return listenBrainzAsked(spec);
    case "lastfm":
      return `Last.fm ${spec.list} tracks of ${spec.user}`;
    case "artist":
      return `artist ${spec.channelId}`;
    case "chart":
      return `chart of country ${spec.country}`;
    case "mood":
      return `mood "${spec.category}"`;
    case "radio":
      return spec.videoId
        ? `radio of song ${spec.videoId}`
        : spec.playlistId
          ? `radio of playlist ${spec.playlistId}`
          : `radio from source "${spec.from ?? "?"}"`;
    default:
      return spec.type;
  }
}

/**
 * A 404 as the person can act on it: which source of the recipe (id and type) and which id the
 * service did not find. The service's own text is left out (it names neither, and could carry
 * anything). Other errors keep their class: a 401 must still stop the account.
 */
function notFound(spec: SourceSpec, e: unknown): SourceError | null {
  if (!(e instanceof ServiceError) || e.status !== 404) return null;
  const op = e.operation ? `${e.operation} answered HTTP 404` : "HTTP 404";
  return new SourceError(spec.id, `${askedFor(spec)} was not found (${op})`, { cause: e });
}
