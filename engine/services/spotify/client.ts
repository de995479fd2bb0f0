/**
 * The Spotify reader the engine's sources hold: the bases (the real hosts by default, the
 * emulator's in tests), the app's id and secret or a person's token, and the reads.
 */
import type { ServiceHttp } from "../http.js";
import { SERVICE_RETRY } from "../http.js";
import type { ServiceAlbum, ServiceArtist, ServiceList } from "../types.js";
import { SPOTIFY_API, type SpotifyApi } from "./api.js";
import { SPOTIFY_ACCOUNTS } from "./pkce.js";
import { readFollowedArtists, readLikedSongs, readMe, readPlaylist, readSavedAlbums } from "./reads.js";
import { type SpotifyApp, type SpotifyToken, TokenKeeper } from "./token.js";

export interface SpotifyClientOptions {
  app: SpotifyApp;
  /** A person's token (their library); without one, the app's token reads public playlists. */
  token?: SpotifyToken | null;
  /** Called with each refreshed token, to be kept. */
  onRefresh?: (token: SpotifyToken) => void | Promise<void>;
  /** The kept token read again, when a refresh is refused (another process may have renewed it). */
  reload?: () => Promise<SpotifyToken | null>;
  /** Default https://api.spotify.com/v1. */
  apiBase?: string;
  /** Default https://accounts.spotify.com. */
  accountsBase?: string;
  /** Clock, sleep and retry bounds (tests pass their own). */
  http?: Partial<ServiceHttp>;
}

const realHttp: ServiceHttp = {
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  now: () => Date.now(),
  retry: SERVICE_RETRY,
};

export class SpotifyClient {
  private readonly api: SpotifyApi;

  constructor(o: SpotifyClientOptions) {
    const http = { ...realHttp, ...o.http };
    this.api = {
      base: o.apiBase ?? SPOTIFY_API,
      http,
      tokens: new TokenKeeper({
        app: o.app,
        token: o.token ?? null,
        ...(o.onRefresh ? { onRefresh: o.onRefresh } : {}),
        ...(o.reload ? { reload: o.reload } : {}),
        accountsBase: o.accountsBase ?? SPOTIFY_ACCOUNTS,
        http,
      }),
    };
  }

  playlist(ref: string): Promise<ServiceList> {
    return readPlaylist(this.api, ref);
  }

  likedSongs(): Promise<ServiceList> {
    return readLikedSongs(this.api);
  }

  savedAlbums(): Promise<ServiceList<ServiceAlbum>> {
    return readSavedAlbums(this.api);
  }

  followedArtists(): Promise<ServiceList<ServiceArtist>> {
    return readFollowedArtists(this.api);
  }

  me(): Promise<{ id: string; displayName: string | null }> {
    return readMe(this.api);
  }
}
