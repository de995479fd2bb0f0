/**
 * The "Top result" card (`musicCardShelfRenderer`) leading an unfiltered search page, one builder
 * per kind of result (captures yt_search_basic_top_result_20231228,
 * yt_search_basic_with_podcast_community_playlists_20250605).
 */
import type { AlbumRow, ArtistRow, PlaylistRow, PodcastRow, SongRow } from "../store/rows.js";
import {
  browse,
  dotted,
  imageSizes,
  type Json,
  libraryToggle,
  musicThumbnail,
  navItem,
  PAGE,
  run,
  saveCollectionItem,
  shareItem,
  text,
  watch,
  watchPlaylist,
} from "./common.js";
import { typeWord } from "./display.js";
import { abbreviate } from "./format.js";
import { artistRuns, type Marks } from "./items.js";
import type { SearchItem } from "./search-items.js";

/** The "Top result" card: a song, video, album, artist, playlist or podcast. */
export function topResultCard(item: SearchItem, marks: Marks, language = "en"): Json {
  switch (item.type) {
    case "artist":
      return artistTop(item.row, language);
    case "song":
    case "video":
      return songTop(item.row, item.type, marks, language);
    case "playlist":
      return playlistTop(item.row, marks, language);
    case "podcast":
      return podcastTop(item.row, marks, language);
    default:
      return albumTop(item.row as AlbumRow, language);
  }
}

/** The card around a kind's fields: the "Top result" header first, the (empty) contents last. */
function card(fields: Json): Json {
  return {
    musicCardShelfRenderer: {
      header: { musicCardShelfHeaderBasicRenderer: { title: text("Top result") } },
      ...fields,
      contents: [],
    },
  };
}

/** A button of the card ("Play", "Shuffle"). */
const cardButton = (label: string, command: Json): Json => ({
  buttonRenderer: { text: text(label), command },
});

/** An artist: `Artist • 1.2M subscribers`; the card opens the artist page, no buttons. */
function artistTop(a: ArtistRow, language: string): Json {
  const nav = browse(a.channelId, PAGE.artist);
  return card({
    thumbnail: musicThumbnail(imageSizes(a.channelId, [120, 226])),
    title: { runs: [run(a.name, nav)] },
    subtitle: {
      runs: dotted([run(typeWord("artist", language)), run(`${abbreviate(a.subscribers)} subscribers`)]),
    },
    onTap: nav,
  });
}

/** A song or video: `Song • Artist • Album`; the card and its "Play" button play it. */
function songTop(s: SongRow, type: "song" | "video", marks: Marks, language: string): Json {
  const we = watch(s.videoId, { videoType: s.videoType });
  const sub: (Json | Json[])[] = [run(typeWord(type, language)), artistRuns(s)];
  if (s.albumBrowseId) sub.push(run(s.albumTitle ?? "", browse(s.albumBrowseId, PAGE.album)));
  return card({
    thumbnail: musicThumbnail(imageSizes(s.videoId, [120, 226])),
    title: { runs: [run(s.title, we)] },
    subtitle: { runs: dotted(sub) },
    onTap: we,
    buttons: [cardButton("Play", we)],
    menu: {
      menuRenderer: { items: [libraryToggle("song", s.videoId, marks.inLibrary("song", s.videoId))] },
    },
  });
}

/**
 * A playlist named like the query (capture yt_search_basic_with_podcast_community_playlists_20250605):
 * the title links to the playlist page, "Play" plays it, and the menu starts with shuffle.
 */
function playlistTop(p: PlaylistRow, marks: Marks, language: string): Json {
  const nav = browse(`VL${p.playlistId}`, PAGE.playlist);
  const author = run(p.authorName, p.authorChannelId ? browse(p.authorChannelId, PAGE.channel) : undefined);
  return card({
    thumbnail: musicThumbnail(imageSizes(p.playlistId, [120, 226])),
    title: { runs: [run(p.title, nav)] },
    subtitle: {
      runs: dotted([run(typeWord("playlist", language)), author, run(`${abbreviate(p.views)} views`)]),
    },
    onTap: nav,
    buttons: [
      cardButton("Play", watchPlaylist(p.playlistId)),
      cardButton("Shuffle", watchPlaylist(p.playlistId, "wAEB8gECKAE%3D")),
    ],
    menu: {
      menuRenderer: {
        items: [
          navItem("Shuffle play", "MUSIC_SHUFFLE", watchPlaylist(p.playlistId, "wAEB8gECKAE%3D")),
          navItem("Start radio", "MIX", watchPlaylist(`RDAMPL${p.playlistId}`, "wAEB")),
          saveCollectionItem(p.playlistId, marks.saved(p.playlistId)),
          shareItem(p.playlistId),
        ],
      },
    },
  });
}

/** A podcast named like the query: `Podcast • Channel`, "Play", and save and share in the menu. */
function podcastTop(p: PodcastRow, marks: Marks, language: string): Json {
  const nav = browse(`MPSP${p.playlistId}`, PAGE.podcast);
  return card({
    thumbnail: musicThumbnail(imageSizes(p.playlistId, [120, 226])),
    title: { runs: [run(p.title, nav)] },
    subtitle: {
      runs: dotted([
        run(typeWord("podcast", language)),
        run(p.channelName, browse(p.channelId, PAGE.channel)),
      ]),
    },
    onTap: nav,
    buttons: [cardButton("Play", watchPlaylist(p.playlistId))],
    menu: {
      menuRenderer: {
        items: [
          saveCollectionItem(p.playlistId, marks.saved(p.playlistId), "podcast"),
          shareItem(p.playlistId),
        ],
      },
    },
  });
}

/** An album: `Album • Artist • 2021` (singles and EPs keep their own word), and "Play". */
function albumTop(a: AlbumRow, language: string): Json {
  const nav = browse(a.browseId, PAGE.album);
  return card({
    thumbnail: musicThumbnail(imageSizes(a.browseId, [120, 226])),
    title: { runs: [run(a.title, nav)] },
    subtitle: {
      runs: dotted([
        run(a.type === "Album" ? typeWord("album", language) : a.type),
        run(a.artistName, browse(a.channelId, PAGE.artist)),
        run(String(a.year)),
      ]),
    },
    onTap: nav,
    buttons: [cardButton("Play", watchPlaylist(a.audioPlaylistId))],
  });
}
