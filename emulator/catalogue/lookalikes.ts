/**
 * Songs that make matching by search hard, as the real catalogue is (docs/ENGINE.md#sources): versions of popular
 * songs, covers, karaoke uploads, titles several artists share, songs with a featured artist, and
 * titles in other scripts. They are made after everything else, from a generator of their own and
 * with ids above every other row's, so that the rest of a seed's catalogue stays what it was. Each
 * is a song (MUSIC_VIDEO_TYPE_ATV) on a single of its own.
 */
import { ids, type Rng } from "../random.js";
import { foldSearchText } from "../store/search-text.js";
import type { PopularSong } from "../store/seed.js";
import type { Generation } from "./context.js";
import type { ArtistRef } from "./music.js";
import { title } from "./names.js";
import { SCRIPTS, type Script, scriptArtist, scriptTitle, type Written } from "./scripts.js";
import { pickVersionKinds, variantViews } from "./versions.js";

/** An artist as look-alikes name it: with the Latin spelling of a name in another script. */
interface Named extends ArtistRef {
  latin: string | null;
}

/** Where the look-alikes stand: the generator, and the last id given per table. */
interface Late {
  g: Generation;
  r: Rng;
  song: number;
  album: number;
  artist: number;
  artists: readonly Named[];
}

interface NewSong {
  title: string;
  latinTitle?: string;
  artist: Named;
  featured?: Named;
  durationSeconds: number;
  views: number;
  lookalike: "version" | "cover" | "karaoke" | "same-title" | "featured" | "script";
  variantOf?: number;
  /** Explicit as its original is (a variant's words are the original's). */
  explicit?: boolean;
  /** Names the search also knows the song by: the original performer of a cover or karaoke take. */
  credits?: string;
}

const KARAOKE_ARTISTS = ["Karaoke Hits Band", "Sing-Along Studio", "The Karaoke Channel"];

export function addLookalikes(g: Generation, r: Rng, artists: readonly ArtistRef[]): void {
  const late: Late = {
    g,
    r,
    // Songs stop at `size`, official videos at 3 × size, user videos at 4 × size plus a few.
    song: g.size * 6,
    album: g.summary.albums,
    artist: g.summary.artists,
    artists: artists.map((a) => ({ ...a, latin: null })),
  };
  const popular = g.write.popularSongs(Math.max(10, Math.round(g.size * 0.2)));
  const before = late.song;
  addVersions(late, popular);
  addCovers(late, popular);
  addKaraoke(late, popular);
  addSameTitles(late, popular);
  addFeatured(late);
  addScripts(late);
  g.summary.lookalikes = late.song - before;
}

const count = (late: Late, share: number) => Math.max(3, Math.round(late.g.size * share));
const artistOf = (late: Late, song: PopularSong) => late.artists.find((a) => a.id === song.artistId)!;
/** Any artist but `not`. */
const otherArtist = (late: Late, not: number) => {
  for (;;) {
    const a = late.r.pick(late.artists);
    if (a.id !== not) return a;
  }
};
/** Views as the first songs draw them: a thousand to a billion, about evenly per decade. */
const anyViews = (r: Rng) => Math.floor(10 ** r.int(3, 8) * (1 + r.next() * 8));

/** One to three versions of nearly half the popular songs; a fifth more popular than the original. */
function addVersions(late: Late, popular: readonly PopularSong[]): void {
  const { r } = late;
  for (const p of popular) {
    if (!r.chance(0.45)) continue;
    for (const kind of pickVersionKinds(r, r.int(1, 3))) {
      addSong(late, {
        title: kind.title(r, p.title),
        artist: artistOf(late, p),
        durationSeconds: kind.duration(r, p.durationSeconds),
        views: variantViews(r, p.views, 0.2, 0.02, 0.6),
        lookalike: "version",
        variantOf: p.id,
        explicit: p.explicit,
      });
    }
  }
}

/** Popular titles by another artist, some within a few seconds of the original. */
function addCovers(late: Late, popular: readonly PopularSong[]): void {
  const { r } = late;
  for (let i = count(late, 0.05); i > 0; i--) {
    const p = r.pick(popular);
    const close = r.chance(0.4);
    addSong(late, {
      title: r.chance(0.25) ? `${p.title} (Cover)` : p.title,
      artist: otherArtist(late, p.artistId),
      durationSeconds: p.durationSeconds + (close ? r.int(-3, 3) : r.int(10, 60) * (r.chance(0.5) ? 1 : -1)),
      views: variantViews(r, p.views, 0.05, 0.005, 0.3),
      lookalike: "cover",
      variantOf: p.id,
      explicit: p.explicit,
      credits: p.artistName,
    });
  }
}

/** Karaoke takes of popular titles by karaoke acts, naming the original performer or not. */
function addKaraoke(late: Late, popular: readonly PopularSong[]): void {
  const { r } = late;
  const acts = KARAOKE_ARTISTS.map((name) => addArtist(late, { native: name, latin: "" }));
  for (let i = count(late, 0.06); i > 0; i--) {
    const p = r.pick(popular);
    addSong(late, {
      title: r.chance(0.5)
        ? `${p.title} (Karaoke Version)`
        : `${p.title} (Originally Performed by ${p.artistName}) [Karaoke]`,
      artist: r.pick(acts),
      durationSeconds: p.durationSeconds + r.int(-5, 5),
      views: variantViews(r, p.views, 0.1, 0.002, 0.1),
      lookalike: "karaoke",
      variantOf: p.id,
      explicit: p.explicit,
      credits: p.artistName,
    });
  }
}

/** Songs by unrelated artists that happen to share a popular song's title (one or two each). */
function addSameTitles(late: Late, popular: readonly PopularSong[]): void {
  const { r } = late;
  for (let i = count(late, 0.02); i > 0; i--) {
    const p = r.pick(popular);
    for (let k = r.int(1, 2); k > 0; k--) {
      addSong(late, {
        title: p.title,
        artist: otherArtist(late, p.artistId),
        durationSeconds: r.int(95, 420),
        views: anyViews(r),
        lookalike: "same-title",
      });
    }
  }
}

/** Songs with a second artist; half say so in the title as well ("Title (feat. B)"). */
function addFeatured(late: Late): void {
  const { r } = late;
  for (let i = count(late, 0.05); i > 0; i--) {
    const artist = r.pick(late.artists);
    const featured = otherArtist(late, artist.id);
    const t = title(r, r.int(1, 3));
    addSong(late, {
      title: r.chance(0.5) ? `${t} (feat. ${featured.name})` : t,
      artist,
      featured,
      durationSeconds: r.int(95, 420),
      views: anyViews(r),
      lookalike: "featured",
    });
  }
}

/**
 * Titles in kana, Cyrillic and Arabic, mostly by artists named in the same script; some Japanese
 * titles carry their romaji too ("よるのそら (Yoru No Sora)"), as many releases do.
 */
function addScripts(late: Late): void {
  const { r } = late;
  const perScript = Math.max(2, Math.round(late.g.size / 400));
  const acts = new Map<Script, Named[]>(
    SCRIPTS.map((s) => [s, Array.from({ length: perScript }, (_, n) => addArtist(late, scriptArtist(s, n)))]),
  );
  for (let i = count(late, 0.04); i > 0; i--) {
    const script = r.pick(SCRIPTS);
    const t = scriptTitle(r, script);
    const shown = script === "japanese" && r.chance(0.3) ? `${t.native} (${t.latin})` : t.native;
    addSong(late, {
      title: shown,
      latinTitle: t.latin,
      artist: r.chance(0.75) ? r.pick(acts.get(script)!) : r.pick(late.artists),
      durationSeconds: r.int(95, 420),
      views: anyViews(r),
      lookalike: "script",
    });
  }
}

/** A new artist; `latin` empty when the name is written in Latin letters already. */
function addArtist(late: Late, name: Written): Named {
  const { g, r } = late;
  const id = ++late.artist;
  const channelId = g.unique(() => ids.channel(r));
  const latin = name.latin || null;
  const subscribers = Math.floor(10 ** r.int(3, 7) * (1 + r.next() * 8));
  g.write.artist({
    id,
    channelId,
    name: name.native,
    kind: "artist",
    subscribers,
    monthlyListeners: Math.floor(subscribers * (0.5 + r.next() * 3)),
    description: `${name.native} releases music on YouTube Music.`,
    searchText: `${name.native} ${latin ?? ""}`.trim().toLowerCase(),
    latinName: latin,
  });
  g.summary.artists++;
  return { id, channelId, name: name.native, latin };
}

/** A song on a single of its own (the single named after it). */
function addSong(late: Late, s: NewSong): void {
  const { g, r } = late;
  const albumId = ++late.album;
  // A variant is explicit as its original is; a song of its own as often as the first albums are.
  const explicit = s.explicit ?? r.chance(0.12);
  const names = [s.artist.name, s.artist.latin, s.featured?.name, s.featured?.latin].filter(Boolean);
  g.write.album({
    id: albumId,
    browseId: g.unique(() => ids.album(r)),
    audioPlaylistId: g.unique(() => ids.audioPlaylist(r)),
    title: s.title,
    artistId: s.artist.id,
    type: "Single",
    year: r.int(1975, 2025),
    explicit,
    searchText: [s.title, s.latinTitle, s.artist.name, s.artist.latin]
      .filter(Boolean)
      .join(" ")
      .toLowerCase(),
  });
  g.write.song({
    id: ++late.song,
    videoId: g.unique(() => ids.video(r)),
    title: s.title,
    artistId: s.artist.id,
    albumId,
    trackNumber: 1,
    durationSeconds: Math.max(30, s.durationSeconds),
    views: s.views,
    explicit,
    available: true,
    videoType: "MUSIC_VIDEO_TYPE_ATV",
    counterpartId: null,
    lyricsSource: r.chance(0.5) ? "Source: Musixmatch" : "Source: LyricFind",
    searchText: foldSearchText([s.title, s.latinTitle, ...names, s.credits].filter(Boolean).join(" ")),
    featuredArtistId: s.featured?.id ?? null,
    latinTitle: s.latinTitle ?? null,
    lookalike: s.lookalike,
    variantOf: s.variantOf ?? null,
  });
  g.summary.albums++;
}
