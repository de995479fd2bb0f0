/** One result of a search, before it is rendered: a row of the store and the kind it is shown as. */
import type {
  AlbumRow,
  ArtistRow,
  EpisodeRow,
  PlaylistRow,
  PodcastRow,
  ProfileRow,
  SongRow,
} from "../store/rows.js";

export type { ProfileRow };

export type SearchItem =
  | { type: "song" | "video"; row: SongRow }
  | { type: "album"; row: AlbumRow }
  | { type: "artist"; row: ArtistRow }
  | { type: "playlist"; row: PlaylistRow; count: number }
  | { type: "podcast"; row: PodcastRow; pin?: boolean }
  | { type: "episode"; row: EpisodeRow }
  | { type: "profile"; row: ProfileRow };
