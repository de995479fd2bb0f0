/**
 * The service's display words that parsers compare, per display language (`hl`,
 * docs/PROTOCOL.md#display-words): the carousel titles that name the categories of artist,
 * user and channel pages, and the type word of search results (the top-result card's and the rows').
 *
 * A wire constant, neither the client's nor the emulator's: the client's parsers read these words
 * (src/parsers/locales.ts) and the emulator writes them (emulator/render/display.ts), so a page
 * asked for with `hl=de` carries the German words on both sides. Because both sides read the same
 * table, a test against the table could not find a wrong word; test/shared/wire/display-words.test.ts
 * checks each word against the captures in ../shared/fixtures instead.
 *
 * Where each word comes from:
 * - English: the words as the captures display them, case included (`Singles & EPs` of
 *   ytm_2026_05_get_artist1, `Song` of yt_search_basic_with_vodcasts_type_specified_20240612, …).
 *   Two words no capture shows in their place, `Audiobooks and shows` and `Station`, are
 *   from the protocol notes; the test lists them.
 * - Every other language: no capture is in it. The words are those of ytmusicapi's
 *   locale files (2024-03 catalogue); where a file leaves a word untranslated, the service shows the
 *   English one, which stands here too. The emulator capitalises their first letter.
 * Case does not matter to the parsers (they fold it).
 */

/** The carousel categories of artist, user and channel pages, keyed as in the result. */
export const ARTIST_CATEGORIES = [
  "albums",
  "singles",
  "shows",
  "videos",
  "playlists",
  "related",
  "episodes",
  "podcasts",
] as const;
export type ArtistCategory = (typeof ARTIST_CATEGORIES)[number];

/** The result types a top-result card's type word names. */
export const RESULT_TYPE_WORDS = [
  "album",
  "artist",
  "playlist",
  "song",
  "video",
  "station",
  "profile",
  "podcast",
  "episode",
] as const;
export type ResultTypeWord = (typeof RESULT_TYPE_WORDS)[number];

export interface DisplayStrings {
  /** Carousel title(s) of each category. */
  categories: Readonly<Record<ArtistCategory, string | readonly string[]>>;
  /** The top-result card's type word of each result type. */
  types: Readonly<Record<ResultTypeWord, string>>;
}

const ENGLISH: DisplayStrings = {
  categories: {
    albums: "Albums",
    singles: "Singles & EPs",
    shows: "Audiobooks and shows",
    videos: "Videos",
    playlists: "Playlists",
    related: "Fans might also like",
    episodes: "Latest episodes",
    podcasts: "Podcasts",
  },
  types: {
    album: "Album",
    artist: "Artist",
    playlist: "Playlist",
    song: "Song",
    video: "Video",
    station: "Station",
    profile: "Profile",
    podcast: "Podcast",
    episode: "Episode",
  },
};

/** Every language of `LANGUAGES` (shared/wire/constants.ts). */
export const DISPLAY_STRINGS: Readonly<Record<string, DisplayStrings>> = {
  en: ENGLISH,
  ar: {
    categories: {
      albums: "ألبومات",
      singles: "أغانٍ منفردة وحلقات",
      shows: "الكتب المسموعة والعروض",
      videos: "أشرطة فيديو",
      playlists: "قوائم التشغيل",
      related: "ذات صلة",
      episodes: "أحدث الحلقات",
      podcasts: "بودكاست",
    },
    types: {
      album: "ألبوم",
      artist: "فنان",
      playlist: "قائمةالتشغيل",
      song: "أغنية",
      video: "فيديو",
      station: "محطة",
      profile: "الملف الشخصي",
      podcast: "بودكاست",
      episode: "حلقة",
    },
  },
  cs: {
    categories: {
      albums: "alba",
      singles: "singly a ep",
      shows: "pořady",
      videos: "videa",
      playlists: "playlisty",
      related: "související",
      episodes: "epizody",
      podcasts: "podcasty",
    },
    types: {
      album: "album",
      artist: "interpret",
      playlist: "playlist",
      song: "skladba",
      video: "video",
      station: "stanice",
      profile: "profil",
      podcast: "podcast",
      episode: "epizoda",
    },
  },
  de: {
    categories: {
      albums: "alben",
      singles: "singles & eps",
      shows: "Hörbücher und Serien",
      videos: "videos",
      playlists: "playlists",
      related: "das könnte fans auch gefallen",
      episodes: "neueste folgen",
      podcasts: "podcasts",
    },
    types: {
      album: "album",
      artist: "künstler",
      playlist: "playlist",
      song: "titel",
      video: "video",
      station: "sender",
      profile: "profil",
      podcast: "podcast",
      episode: "Folge",
    },
  },
  es: {
    categories: {
      albums: "álbumes",
      singles: "singles y eps",
      shows: "Audiolibros y series",
      videos: "vídeos",
      playlists: "listas de reproducción",
      related: "puede que también te guste",
      episodes: "últimos episodios",
      podcasts: "pódcasts",
    },
    types: {
      album: "álbum",
      artist: "artista",
      playlist: "lista de reproducción",
      song: "canción",
      video: "vídeo",
      station: "emisora",
      profile: "perfil",
      podcast: "Pódcast",
      episode: "Episodio",
    },
  },
  fr: {
    categories: {
      albums: "albums",
      singles: "singles et ep",
      shows: "Livres audio et émissions",
      videos: "vidéos",
      playlists: "playlists",
      related: "vous aimerez peut-être aussi",
      episodes: "épisodes les plus récents",
      podcasts: "podcasts",
    },
    types: {
      album: "album",
      artist: "artiste",
      playlist: "playlist",
      song: "titre",
      video: "vidéo",
      station: "radio",
      profile: "profil",
      podcast: "podcast",
      episode: "Épisode",
    },
  },
  hi: {
    categories: {
      albums: "एलबम",
      singles: "गाने और ईपी",
      shows: "ऑडियो बुक और ऑडियो शो",
      videos: "वीडियो",
      playlists: "प्लेलिस्ट",
      related: "सम्बंधित",
      episodes: "सबसे नए एपिसोड",
      podcasts: "पॉडकास्ट",
    },
    types: {
      album: "एल्बम",
      artist: "कलाकार",
      playlist: "प्लेलिस्ट",
      song: "गीत",
      video: "वीडियो",
      station: "स्टेशन",
      profile: "प्रोफ़ाइल",
      podcast: "पॉडकास्ट",
      episode: "एपिसोड",
    },
  },
  it: {
    categories: {
      albums: "album",
      singles: "singoli ed ep",
      shows: "Audiolibri e programmi",
      videos: "video",
      playlists: "playlist",
      related: "ai fan potrebbe anche piacere",
      episodes: "puntate più recenti",
      podcasts: "podcast",
    },
    types: {
      album: "album",
      artist: "artista",
      playlist: "playlist",
      song: "brano",
      video: "video",
      station: "stazione",
      profile: "profilo",
      podcast: "podcast",
      episode: "Puntata",
    },
  },
  ja: {
    categories: {
      albums: "アルバム",
      singles: "シングルと ep",
      shows: "オーディオブックと番組",
      videos: "動画",
      playlists: "プレイリスト",
      related: "おすすめのアーティスト",
      episodes: "最新エピソード",
      podcasts: "ポッドキャスト",
    },
    types: {
      album: "アルバム",
      artist: "アーティスト",
      playlist: "プレイリスト",
      song: "曲",
      video: "動画",
      station: "ステーション",
      profile: "プロフィール",
      podcast: "ポッドキャスト",
      episode: "エピソード",
    },
  },
  ko: {
    categories: {
      albums: "앨범",
      singles: "싱글 및 ep",
      shows: "오디오북 및 프로그램",
      videos: "동영상",
      // The locale file spells it 재싱목록; the service's word for a playlist is 재생목록 (as in
      // the type word below), so both are accepted.
      playlists: ["재생목록", "재싱목록"],
      related: "fans might also like",
      episodes: "최신 에피소드",
      podcasts: "팟캐스트",
    },
    types: {
      album: "앨범",
      artist: "아티스트",
      playlist: "재생목록",
      song: "노래",
      video: "동영상",
      station: "스테이션",
      profile: "프로필",
      podcast: "팟캐스트",
      episode: "에피소드",
    },
  },
  nl: {
    categories: {
      albums: "albums",
      singles: "singles en ep's",
      shows: "Audioboeken en -series",
      videos: "video's",
      playlists: "afspeellijsten",
      related: "gerelateerd",
      episodes: "nieuwste afleveringen",
      podcasts: "podcasts",
    },
    types: {
      album: "album",
      artist: "artiest",
      playlist: "afspeellijst",
      song: "nummer",
      video: "video",
      station: "station",
      profile: "profiel",
      podcast: "podcast",
      episode: "Aflevering",
    },
  },
  pt: {
    categories: {
      albums: "álbuns",
      singles: "singles e eps",
      shows: "Audiolivros e programas",
      videos: "vídeos",
      playlists: "listas de reprodução",
      related: "relacionado",
      episodes: "episódios novos",
      podcasts: "podcasts",
    },
    types: {
      album: "álbum",
      artist: "artista",
      playlist: "lista de reprodução",
      song: "música",
      video: "vídeo",
      station: "estação",
      profile: "perfil",
      podcast: "podcast",
      episode: "Episódio",
    },
  },
  ru: {
    categories: {
      albums: "альбомы",
      singles: "синглы и выпуски",
      shows: "Аудиокниги и аудиошоу",
      videos: "ролики",
      playlists: "плейлисты",
      related: "связанные с",
      episodes: "новые выпуски",
      podcasts: "подкасты",
    },
    types: {
      album: "альбом",
      artist: "художник",
      playlist: "плейлист",
      song: "песня",
      video: "видео",
      station: "станция",
      profile: "профиль",
      podcast: "Подкаст",
      episode: "Выпуск",
    },
  },
  tr: {
    categories: {
      albums: "albümler",
      singles: "single'lar ve ep'ler",
      shows: "Sesli kitaplar ve programlar",
      videos: "videolar",
      playlists: "çalma listeleri",
      related: "ilişkili",
      episodes: "son bölümler",
      podcasts: "podcast'ler",
    },
    types: {
      album: "albüm",
      artist: "sanatçı",
      playlist: "çalma listesi",
      song: "şarkı",
      video: "video",
      station: "istasyon",
      profile: "profil",
      podcast: "podcast",
      episode: "Bölüm",
    },
  },
  ur: {
    categories: {
      albums: "البمز",
      singles: "سنگلز اور eps",
      shows: "آڈیو بکس اور شوز",
      videos: "ویڈیوز",
      playlists: "پلے لسٹس",
      related: "متعلقہ",
      episodes: "تازہ ترین ایپی سوڈز",
      podcasts: "پوڈکاسٹس",
    },
    types: {
      album: "البم",
      artist: "فنکار",
      playlist: "پلے لسٹ",
      song: "نغمہ",
      video: "ویڈیو",
      station: "اسٹیشن",
      profile: "پروفائ",
      podcast: "پوڈکاسٹ",
      episode: "ایپی سوڈ",
    },
  },
  zh_CN: {
    categories: {
      albums: "专辑",
      singles: "单曲和迷你专辑",
      shows: "有声读物和节目",
      videos: "视频",
      playlists: "精选",
      related: "粉丝可能还会喜欢",
      episodes: "最新分集",
      podcasts: "播客",
    },
    types: {
      album: "专辑",
      artist: "音乐人",
      playlist: "播放列表",
      song: "歌曲",
      video: "视频",
      station: "电台",
      profile: "个人资料",
      podcast: "播客",
      episode: "分集",
    },
  },
  zh_TW: {
    categories: {
      albums: "專輯",
      singles: "單曲與迷你專輯",
      shows: "有聲書與節目",
      videos: "影片",
      playlists: "精選收錄",
      related: "粉絲可能也會喜歡",
      episodes: "最新集數",
      podcasts: "Podcast",
    },
    types: {
      album: "專輯",
      artist: "藝人",
      playlist: "播放清單",
      song: "歌曲",
      video: "影片",
      station: "電台",
      profile: "個人資料",
      podcast: "podcast",
      episode: "單集",
    },
  },
};

/** The strings of `language`; English for a language without a table. */
export function displayStringsOf(language: string): DisplayStrings {
  return DISPLAY_STRINGS[language] ?? (DISPLAY_STRINGS.en as DisplayStrings);
}
