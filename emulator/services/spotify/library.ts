/**
 * The person's Spotify library beyond songs: saved albums and followed artists, as tests change
 * them (an album saved, an artist followed, and back), and what each stands for in the emulator's
 * catalogue (the ground truth of matching, for tests and benchmarks; the API never tells).
 */
import type { EmulatorState } from "../../context.js";
import type { FakeArtist, FakeSavedAlbum } from "./data.js";
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
  return spotifyFake(state).saveAlbums(count).map(albumTruth);
}

/** Removes a saved album; false when it is not saved. It may be saved again later. */
export function unsaveAlbum(state: EmulatorState, id: string): boolean {
  return spotifyFake(state).unsaveAlbum(id);
}

/** Follows the next `count` artists; returns them. */
export function followArtists(state: EmulatorState, count: number): SpotifyLibraryTruth[] {
  return spotifyFake(state).followArtists(count).map(artistTruth);
}

/** Stops following an artist; false when it is not followed. It may be followed again later. */
export function unfollowArtist(state: EmulatorState, id: string): boolean {
  return spotifyFake(state).unfollowArtist(id);
}
