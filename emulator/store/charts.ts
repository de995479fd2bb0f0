/**
 * The explore side of the catalogue: each country's charts, moods and genres, new releases and the
 * home page's picks. Every query is prepared once, with placeholders; albums, artists and songs come
 * through the catalogue store, which keeps the rows it has read.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { CatalogueStore } from "./catalogue.js";
import type { Db } from "./db.js";
import type { AlbumRow, ArtistRow, EpisodeRow, PlaylistRow, PodcastRow } from "./rows.js";
import {
  albums,
  artists,
  charts,
  episodes,
  moodCategories,
  moodPlaylists,
  playlists,
  podcasts,
} from "./schema.js";
import { fromEpisodes, playlistFields, podcastFields } from "./selections.js";

const p = sql.placeholder;

/** One ranked row of a chart section. */
export interface ChartEntry {
  position: number;
  targetId: string;
  /** `up`, `down`, `neutral` for ranked artists and songs; null for playlists. */
  trend: string | null;
}

export interface RankedArtist {
  artist: ArtistRow;
  rank: number;
  trend: string | null;
}

export interface MoodCategory {
  id: number;
  title: string;
  params: string;
}

/** The moods & genres page's sections, each with its categories, in the catalogue's order. */
export interface MoodSection {
  title: string;
  items: { title: string; params: string }[];
}

export class ChartStore {
  private readonly q;

  constructor(
    private readonly db: Db,
    private readonly catalogue: CatalogueStore,
  ) {
    this.q = {
      ...this.prepareCharts(),
      ...this.prepareMoods(),
      ...this.prepareReleases(),
      ...this.prepareHome(),
    };
  }

  private prepareCharts() {
    const db = this.db;
    const inSection = and(eq(charts.country, p("country")), eq(charts.section, p("section")));
    return {
      entries: db
        .select({ position: charts.position, targetId: charts.targetId, trend: charts.trend })
        .from(charts)
        .where(inSection)
        .orderBy(charts.position)
        .prepare(),
      playlists: db
        .select(playlistFields)
        .from(charts)
        .innerJoin(playlists, eq(playlists.playlistId, charts.targetId))
        .where(inSection)
        .orderBy(charts.position)
        .prepare(),
    };
  }

  private prepareMoods() {
    const db = this.db;
    return {
      categories: db
        .select({
          id: moodCategories.id,
          section: moodCategories.section,
          title: moodCategories.title,
          params: moodCategories.params,
        })
        .from(moodCategories)
        .orderBy(moodCategories.id)
        .prepare(),
      moodPlaylists: db
        .select(playlistFields)
        .from(moodPlaylists)
        .innerJoin(playlists, eq(playlists.playlistId, moodPlaylists.playlistId))
        .where(eq(moodPlaylists.categoryId, p("categoryId")))
        .orderBy(moodPlaylists.position)
        .prepare(),
    };
  }

  private prepareReleases() {
    const db = this.db;
    return {
      newestAlbums: db
        .select({ browseId: albums.browseId })
        .from(albums)
        .orderBy(desc(albums.year), albums.id)
        .limit(p("limit"))
        .prepare(),
      newestEpisodes: fromEpisodes(db)
        .orderBy(desc(episodes.publishedDay), episodes.id)
        .limit(p("limit"))
        .prepare(),
      podcasts: db
        .select(podcastFields)
        .from(podcasts)
        .innerJoin(artists, eq(artists.id, podcasts.channelId))
        .orderBy(podcasts.id)
        .limit(p("limit"))
        .prepare(),
    };
  }

  /** Home's picks: a fixed spread over the catalogue, a different one on each row. */
  private prepareHome() {
    const db = this.db;
    return {
      homeAlbums: db
        .select({ browseId: albums.browseId })
        .from(albums)
        .where(sql`(${albums.id} * 7 + ${p("row")}) % 13 = 0`)
        .orderBy(desc(albums.year))
        .limit(10)
        .prepare(),
      homePlaylists: db
        .select(playlistFields)
        .from(playlists)
        .where(
          and(inArray(playlists.kind, ["editorial", "mood"]), sql`(${playlists.id} + ${p("row")}) % 5 = 0`),
        )
        .orderBy(playlists.id)
        .limit(10)
        .prepare(),
    };
  }

  // ── charts ──

  /** One section of a country's charts (`albums`, `videos`, `genres`, `artists`, `songs`…), in rank order. */
  entries(country: string, section: string): ChartEntry[] {
    return this.q.entries.all({ country, section });
  }

  /** A country's album chart. */
  albums(country: string): AlbumRow[] {
    return this.albumsOf(this.entries(country, "albums").map((e) => e.targetId));
  }

  /** The playlists one section of a country's charts links (video charts, genres, premium's). */
  playlists(country: string, section: string): PlaylistRow[] {
    return this.q.playlists.all({ country, section });
  }

  /** A country's top artists with rank and trend. */
  artists(country: string): RankedArtist[] {
    const out: RankedArtist[] = [];
    for (const e of this.entries(country, "artists")) {
      const artist = this.catalogue.artist(e.targetId);
      if (artist) out.push({ artist, rank: e.position, trend: e.trend });
    }
    return out;
  }

  // ── moods & genres ──

  moodSections(): MoodSection[] {
    const sections: MoodSection[] = [];
    for (const c of this.q.categories.all()) {
      let s = sections.find((x) => x.title === c.section);
      if (!s) {
        s = { title: c.section, items: [] };
        sections.push(s);
      }
      s.items.push({ title: c.title, params: c.params });
    }
    return sections;
  }

  /** The first `limit` categories, as explore's mood buttons show them. */
  moodCategories(limit: number): MoodCategory[] {
    return this.q.categories
      .all()
      .slice(0, limit)
      .map(({ id, title, params }) => ({ id, title, params }));
  }

  /** The category whose params are `params`; clients may send them URL-encoded or not. */
  moodCategory(params: string): MoodCategory | null {
    const normal = (s: string) => decodeURIComponent(s);
    const wanted = normal(params);
    const found = this.q.categories.all().find((c) => normal(c.params) === wanted);
    return found ? { id: found.id, title: found.title, params: found.params } : null;
  }

  moodPlaylists(categoryId: number): PlaylistRow[] {
    return this.q.moodPlaylists.all({ categoryId });
  }

  // ── new releases and home ──

  newestAlbums(limit: number): AlbumRow[] {
    return this.albumsOf(this.q.newestAlbums.all({ limit }).map((r) => r.browseId));
  }

  newestEpisodes(limit: number): EpisodeRow[] {
    return this.q.newestEpisodes.all({ limit });
  }

  podcasts(limit: number): PodcastRow[] {
    return this.q.podcasts.all({ limit });
  }

  /** "Albums for you" on home row `row`. */
  homeAlbums(row: number): AlbumRow[] {
    return this.albumsOf(this.q.homeAlbums.all({ row }).map((r) => r.browseId));
  }

  /** "Mixed for you" on home row `row`: editorial and mood playlists. */
  homePlaylists(row: number): PlaylistRow[] {
    return this.q.homePlaylists.all({ row });
  }

  private albumsOf(browseIds: readonly string[]): AlbumRow[] {
    return browseIds.map((b) => this.catalogue.album(b)).filter((a): a is AlbumRow => a !== null);
  }
}
