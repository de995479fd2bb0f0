export { SPOTIFY_FAKE_CLIENT, s256 } from "./auth.js";
export { EDITORIAL_PLAYLIST_IDS, SPOTIFY_OWNED_PREFIX } from "./data.js";
export { SpotifyFake, type SpotifyTruth, spotifyFake, spotifyTruth } from "./fake.js";
export { handleSpotify } from "./http.js";
export {
  followArtists,
  type SpotifyLibraryTruth,
  saveAlbums,
  spotifyAlbumTruth,
  spotifyArtistTruth,
  unfollowArtist,
  unsaveAlbum,
} from "./library.js";
