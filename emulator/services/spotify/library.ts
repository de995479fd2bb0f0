/**
 * The person's Spotify library beyond songs: saved albums and followed artists, as tests change
 * them (an album saved, an artist followed, and back), and what each stands for in the emulator's
 * catalogue (the ground truth of matching, for tests and benchmarks; the API never tells).
 */
import type { EmulatorState } from "../../context.js";
import { byId, type FakeArtist, type FakeSavedAlbum } from "./data.js";
import { spotifyFake } from "./fake.js";

/** What one saved album or followed artist is in the catalogue: its album or channel, or none. */
export interface SpotifyLibraryTruth {
  /** `spotify:album:<id>` or `spotify:artist:<id>`, as the readers key them. */
  serviceId: string;
  name: string;
  /** The catalogue album's browseId (MPRE…) or artist's channel (UC…); null when it has none. */
  answer: string | null;
}

const albumTruth = (a: FakeSavedAlbum): SpotifyLibraryTruth => ({
  serviceId: `spotify:album:${a.id}`,
  name: a.name,
  answer: a.browseId,
});

const artistTruth = (a: FakeArtist): SpotifyLibraryTruth => ({
  serviceId: `spotify:artist:${a.id}`,
  name: a.name,
  answer: a.channelId,
});

/** The saved albums, in the order Spotify lists them, with what each stands for. */
export function spotifyAlbumTruth(state: EmulatorState): SpotifyLibraryTruth[] {
  return spotifyFake(state).data.albums.map(albumTruth);
}

/** The followed artists, in the order Spotify lists them, with what each stands for. */
export function spotifyArtistTruth(state: EmulatorState): SpotifyLibraryTruth[] {
  return spotifyFake(state).data.artists.map(artistTruth);
}

/** Saves the next `count` albums (newest first, as Spotify lists them); returns them. */
export function saveAlbums(state: EmulatorState, count: number): SpotifyLibraryTruth[] {
  const data = spotifyFake(state).data;
  const saved = data.albumsToSave.splice(0, count);
  data.albums.unshift(...saved);
  return saved.map(albumTruth);
}

/** Removes a saved album; false when it is not saved. It may be saved again later. */
export function unsaveAlbum(state: EmulatorState, id: string): boolean {
  const data = spotifyFake(state).data;
  return putBack(data.albums, data.albumsToSave, id);
}

/** Follows the next `count` artists; returns them. */
export function followArtists(state: EmulatorState, count: number): SpotifyLibraryTruth[] {
  const data = spotifyFake(state).data;
  const followed = data.artistsToFollow.splice(0, count);
  data.artists = byId([...data.artists, ...followed]);
  return followed.map(artistTruth);
}

/** Stops following an artist; false when it is not followed. It may be followed again later. */
export function unfollowArtist(state: EmulatorState, id: string): boolean {
  const data = spotifyFake(state).data;
  return putBack(data.artists, data.artistsToFollow, id);
}

/** Moves the one of `id` from the list to the front of the ones to come; false when the list lacks it. */
function putBack<T extends { id: string }>(list: T[], toCome: T[], id: string): boolean {
  const at = list.findIndex((x) => x.id === id);
  if (at < 0) return false;
  toCome.unshift(...list.splice(at, 1));
  return true;
}
