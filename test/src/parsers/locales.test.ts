import { afterEach, describe, expect, it } from "vitest";
import { LANGUAGES } from "../../../shared/wire/constants.js";
import { parseArtist } from "../../../src/parsers/artist.js";
import { ARTIST_CATEGORIES, localeLanguages, localeOf } from "../../../src/parsers/locales.js";
import { collectNotes } from "../../../src/parsers/notes.js";
import { parseSearchResponse, resultTypeOfWord } from "../../../src/parsers/search.js";
import type { ArtistCategories } from "../../../src/types/browsing.js";
import { type Served, serve } from "../../support/page-server.js";
import { browseRun, card, carousel, dotted, singleColumn } from "../support/browsing.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

type Titles = Record<keyof ArtistCategories, string>;

/**
 * The carousel titles of an artist page as the service shows them in each display language
 * (first letter capitalised where the script has case), in the category order albums, singles,
 * shows, videos, playlists, related, episodes, podcasts.
 */
const TITLES: Record<string, string[]> = {
  en: [
    "Albums",
    "Singles & EPs",
    "Audiobooks and shows",
    "Videos",
    "Playlists",
    "Fans might also like",
    "Latest episodes",
    "Podcasts",
  ],
  ar: [
    "ألبومات",
    "أغانٍ منفردة وحلقات",
    "الكتب المسموعة والعروض",
    "أشرطة فيديو",
    "قوائم التشغيل",
    "ذات صلة",
    "أحدث الحلقات",
    "بودكاست",
  ],
  cs: ["Alba", "Singly a EP", "Pořady", "Videa", "Playlisty", "Související", "Epizody", "Podcasty"],
  de: [
    "Alben",
    "Singles & EPs",
    "Hörbücher und Serien",
    "Videos",
    "Playlists",
    "Das könnte Fans auch gefallen",
    "Neueste Folgen",
    "Podcasts",
  ],
  es: [
    "Álbumes",
    "Singles y EPs",
    "Audiolibros y series",
    "Vídeos",
    "Listas de reproducción",
    "Puede que también te guste",
    "Últimos episodios",
    "Pódcasts",
  ],
  fr: [
    "Albums",
    "Singles et EP",
    "Livres audio et émissions",
    "Vidéos",
    "Playlists",
    "Vous aimerez peut-être aussi",
    "Épisodes les plus récents",
    "Podcasts",
  ],
  hi: [
    "एलबम",
    "गाने और ईपी",
    "ऑडियो बुक और ऑडियो शो",
    "वीडियो",
    "प्लेलिस्ट",
    "सम्बंधित",
    "सबसे नए एपिसोड",
    "पॉडकास्ट",
  ],
  it: [
    "Album",
    "Singoli ed EP",
    "Audiolibri e programmi",
    "Video",
    "Playlist",
    "Ai fan potrebbe anche piacere",
    "Puntate più recenti",
    "Podcast",
  ],
  ja: [
    "アルバム",
    "シングルと EP",
    "オーディオブックと番組",
    "動画",
    "プレイリスト",
    "おすすめのアーティスト",
    "最新エピソード",
    "ポッドキャスト",
  ],
  ko: [
    "앨범",
    "싱글 및 EP",
    "오디오북 및 프로그램",
    "동영상",
    "재생목록",
    "Fans might also like",
    "최신 에피소드",
    "팟캐스트",
  ],
  nl: [
    "Albums",
    "Singles en EP's",
    "Audioboeken en -series",
    "Video's",
    "Afspeellijsten",
    "Gerelateerd",
    "Nieuwste afleveringen",
    "Podcasts",
  ],
  pt: [
    "Álbuns",
    "Singles e EPs",
    "Audiolivros e programas",
    "Vídeos",
    "Listas de reprodução",
    "Relacionado",
    "Episódios novos",
    "Podcasts",
  ],
  ru: [
    "Альбомы",
    "Синглы и выпуски",
    "Аудиокниги и аудиошоу",
    "Ролики",
    "Плейлисты",
    "Связанные с",
    "Новые выпуски",
    "Подкасты",
  ],
  tr: [
    "Albümler",
    "Single'lar ve EP'ler",
    "Sesli kitaplar ve programlar",
    "Videolar",
    "Çalma listeleri",
    "İlişkili",
    "Son bölümler",
    "Podcast'ler",
  ],
  ur: [
    "البمز",
    "سنگلز اور EPs",
    "آڈیو بکس اور شوز",
    "ویڈیوز",
    "پلے لسٹس",
    "متعلقہ",
    "تازہ ترین ایپی سوڈز",
    "پوڈکاسٹس",
  ],
  zh_CN: ["专辑", "单曲和迷你专辑", "有声读物和节目", "视频", "精选", "粉丝可能还会喜欢", "最新分集", "播客"],
  zh_TW: [
    "專輯",
    "單曲與迷你專輯",
    "有聲書與節目",
    "影片",
    "精選收錄",
    "粉絲可能也會喜歡",
    "最新集數",
    "Podcast",
  ],
};

function titlesOf(language: string): Titles {
  const list = TITLES[language] as string[];
  return Object.fromEntries(ARTIST_CATEGORIES.map((key, i) => [key, list[i] as string])) as Titles;
}

/** An episode row (MMRIR) in the captured shape. */
function episodeRow(videoId: string): Record<string, unknown> {
  return {
    musicMultiRowListItemRenderer: {
      title: { runs: [browseRun(`Episode ${videoId}`, `MPED${videoId}`)] },
      subtitle: { runs: [{ text: "Mar 5, 2024" }] },
      onTap: { watchEndpoint: { videoId } },
    },
  };
}

const ARTIST = "MUSIC_PAGE_TYPE_ARTIST";
const ALBUM = "MUSIC_PAGE_TYPE_ALBUM";

/** One carousel a category, titled in the page's language, each with one card of its kind. */
function artistPage(titles: Titles): Record<string, unknown> {
  const albumCard = (id: string) =>
    card({ title: browseRun(`Album ${id}`, id, ALBUM), subtitle: dotted("2020") });
  return {
    ...singleColumn([
      carousel(titles.albums, [albumCard("MPREb_album")]),
      carousel(titles.singles, [albumCard("MPREb_single")]),
      carousel(titles.shows, [albumCard("MPREb_show")]),
      carousel(titles.videos, [
        card({ title: { text: "Clip" }, navigationEndpoint: { watchEndpoint: { videoId: "vid1" } } }),
      ]),
      carousel(titles.playlists, [card({ title: browseRun("Mix", "VLPLmix") })]),
      carousel(titles.related, [card({ title: browseRun("Other", "UCother", ARTIST) })]),
      carousel(titles.episodes, [episodeRow("ep1")]),
      carousel(titles.podcasts, [card({ title: browseRun("Show", "MPSPshow") })]),
    ]),
    header: { musicImmersiveHeaderRenderer: { title: { runs: [{ text: "A" }] } } },
  };
}

/** What each category's one card is known by. */
function idsOf(artist: ArtistCategories): Record<string, unknown> {
  return {
    albums: artist.albums?.results[0]?.browseId,
    singles: artist.singles?.results[0]?.browseId,
    shows: artist.shows?.results[0]?.browseId,
    videos: artist.videos?.results[0]?.videoId,
    playlists: artist.playlists?.results[0]?.playlistId,
    related: artist.related?.results[0]?.browseId,
    episodes: artist.episodes?.results[0]?.videoId,
    podcasts: artist.podcasts?.results[0]?.browseId,
  };
}

const ALL_IDS = {
  albums: "MPREb_album",
  singles: "MPREb_single",
  shows: "MPREb_show",
  videos: "vid1",
  playlists: "PLmix",
  related: "UCother",
  episodes: "ep1",
  podcasts: "MPSPshow",
};

describe("display-string tables", () => {
  it("cover every language the client accepts", () => {
    expect([...localeLanguages()].sort()).toEqual([...LANGUAGES].sort());
    expect(Object.keys(TITLES).sort()).toEqual([...LANGUAGES].sort());
  });

  it.each([...LANGUAGES])("%s: no two categories or result types share a displayed word", (language) => {
    const locale = localeOf(language);
    // A shared title would file one carousel under two categories (the map would keep only one).
    const titles = new Set(locale.categoryOfTitle.values());
    expect(titles.size).toBe(ARTIST_CATEGORIES.length);
    expect(new Set(locale.typeOfWord.values()).size).toBe(9);
  });
});

describe("artist categories in every display language (hand-written pages in the captured shape)", () => {
  it.each([...LANGUAGES])("%s: every carousel is filed under its category", (language) => {
    const notes = collectNotes();
    const artist = parseArtist(artistPage(titlesOf(language)), notes, language);
    expect(idsOf(artist)).toEqual(ALL_IDS);
    expect(notes.unknown).toEqual([]);
  });

  it("Turkish titles are lower-cased by Turkish rules (İ is i)", () => {
    const titles = { ...titlesOf("tr"), related: "İLİŞKİLİ" };
    expect(idsOf(parseArtist(artistPage(titles), collectNotes(), "tr")).related).toBe("UCother");
  });

  it("a client with language de reads a German artist page through getArtist", async () => {
    served = await serve([artistPage(titlesOf("de"))], { client: { language: "de" } });
    const artist = await served.client.getArtist("UCa");
    expect(idsOf(artist)).toEqual(ALL_IDS);
  });

  it("a client with language ja reads the categories of a channel page", async () => {
    const page = {
      ...artistPage(titlesOf("ja")),
      header: { musicVisualHeaderRenderer: { title: { runs: [{ text: "Channel" }] } } },
    };
    served = await serve([page], { client: { language: "ja" } });
    const channel = await served.client.getChannel("UCchan");
    expect(channel.episodes?.results.map((e) => e.videoId)).toEqual(["ep1"]);
    expect(channel.podcasts?.results.map((p) => p.browseId)).toEqual(["MPSPshow"]);
  });
});

describe("English behaviour is unchanged", () => {
  it("without a language the English titles are read, whole-string and case-insensitively", () => {
    const titles = titlesOf("en");
    const page = artistPage({ ...titles, playlists: "Playlists by A", albums: "ALBUMS" });
    const artist = parseArtist(page, collectNotes());
    expect(idsOf(artist)).toEqual({ ...ALL_IDS, playlists: undefined });
  });

  it("a page in one language is not read with another language's words", () => {
    // Spanish titles share no word with the English ones, so nothing is filed either way round.
    expect(idsOf(parseArtist(artistPage(titlesOf("es")), collectNotes(), "en"))).toEqual({});
    expect(idsOf(parseArtist(artistPage(titlesOf("en")), collectNotes(), "es"))).toEqual({});
  });

  it("the top-result type words: English by default, unknown words are albums", () => {
    expect(resultTypeOfWord("Artist")).toBe("artist");
    expect(resultTypeOfWord("Single")).toBe("album");
    expect(resultTypeOfWord("Künstler")).toBe("album");
    expect(resultTypeOfWord("")).toBeNull();
  });
});

describe("search top-result type words", () => {
  const words: Record<string, [string, string]> = {
    de: ["Künstler", "Titel"],
    fr: ["Artiste", "Titre"],
    ja: ["アーティスト", "曲"],
    ru: ["Художник", "Песня"],
    es: ["Artista", "Canción"],
  };

  it.each(Object.entries(words))(
    "%s: the card's type word gives the result type",
    (language, [artist, song]) => {
      expect(resultTypeOfWord(artist, language)).toBe("artist");
      expect(resultTypeOfWord(song, language)).toBe("song");
      expect(resultTypeOfWord("artist", language)).toBe("album");
    },
  );

  /** A search answer whose only section is a top-result card of type `word`. */
  function topResultPage(word: string): Record<string, unknown> {
    const top = {
      musicCardShelfRenderer: {
        title: { runs: [browseRun("Daft Punk", "UCdp", ARTIST)] },
        subtitle: { runs: dotted(word, "9.9M") },
        header: { musicCardShelfHeaderBasicRenderer: { title: { runs: [{ text: "Top" }] } } },
      },
    };
    return {
      contents: {
        tabbedSearchResultsRenderer: {
          tabs: [{ tabRenderer: { content: { sectionListRenderer: { contents: [top] } } } }],
        },
      },
    };
  }

  it("the parser takes the language from the plan", () => {
    const page = topResultPage("Künstler");
    const plan = { filter: null, scope: null };
    expect(parseSearchResponse(page, { ...plan, language: "de" }, collectNotes()).results[0]).toMatchObject({
      resultType: "artist",
      subscribers: "9.9M",
    });
    expect(parseSearchResponse(page, plan, collectNotes()).results[0]?.resultType).toBe("album");
  });

  it("a client with language de sends hl=de and reads the German type word", async () => {
    served = await serve([topResultPage("Künstler")], { client: { language: "de" } });
    const results = await served.client.search("daft punk");
    expect(results[0]?.resultType).toBe("artist");
    const sent = served.innertube()[0]?.json as { context: { client: { hl: string } } } | undefined;
    expect(sent?.context.client.hl).toBe("de");
  });
});
