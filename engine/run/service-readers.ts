/**
 * The readers of the other services a run's sources use (engine/sources/service-source.ts), made
 * from the project's settings (service-settings.ts) the first time a source of that service is
 * read, and kept for the command: a Spotify app's token serves every playlist of the run.
 */
import type { LastfmSource, ListenBrainzSource, ServiceSource, SpotifySource } from "../recipe/types.js";
import { SERVICE_RETRY, type ServiceHttp } from "../services/http.js";
import { LastfmReader } from "../services/lastfm/index.js";
import { ListenBrainzReader } from "../services/listenbrainz/index.js";
import { SpotifyClient } from "../services/spotify/index.js";
import type { ServiceList } from "../services/types.js";
import { SourceError } from "../sources/read.js";
import type { ServiceReaders } from "../sources/service-source.js";
import {
  lastfmSettings,
  listenBrainzSettings,
  ServiceSettingError,
  type SettingsContext,
  spotifySettings,
  standInJson,
} from "./service-settings.js";
import { type SpotifyTokenContext, spotifyUserToken } from "./spotify-token.js";

export interface ReadersContext extends SettingsContext {
  /** Clock, sleep and retry bounds (tests pass their own). */
  http?: Partial<ServiceHttp>;
  /** The project file and the state: where `musicsync auth spotify` kept the person's sign-in. */
  signIn?: Pick<SpotifyTokenContext, "projectFile" | "state">;
}

const realHttp: ServiceHttp = {
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  now: () => Date.now(),
  retry: SERVICE_RETRY,
};

const httpOf = (ctx: ReadersContext): ServiceHttp => ({ ...realHttp, ...ctx.http });

/** What the emulator's stand-in of a service tells of itself (the app it knows, its API key). */
const fromEmulator = async <T>(ctx: ReadersContext, what: string): Promise<T> =>
  standInJson<T>(await ctx.emulatorUrl!(), what);

interface SpotifyReading {
  client: SpotifyClient;
  signedIn: boolean;
}

async function spotifyClient(ctx: ReadersContext): Promise<SpotifyReading> {
  const s = await spotifySettings(ctx);
  const onEmulator = ctx.project.services.spotify?.emulator === true;
  // The emulator's stand-in knows one app: an `emulator: true` project signs in as it.
  const app =
    onEmulator && s.clientId === null
      ? await fromEmulator<{ client_id: string; client_secret: string }>(ctx, "spotify/app")
      : null;
  const clientId = s.clientId ?? app?.client_id ?? null;
  const clientSecret = s.clientSecret ?? app?.client_secret ?? null;
  if (clientId === null) {
    throw new ServiceSettingError(
      "spotify sources need a Spotify app: services.spotify.client_id in musicsync.yaml, or SPOTIFY_CLIENT_ID (docs/services.md)",
    );
  }
  // The person's sign-in, when they made one: it reads their library and private playlists too.
  const user = ctx.signIn
    ? await spotifyUserToken({ project: ctx.project, environment: ctx.environment, ...ctx.signIn })
    : null;
  const client = new SpotifyClient({
    app: { clientId, ...(clientSecret !== null ? { clientSecret } : {}) },
    apiBase: s.apiUrl,
    accountsBase: s.accountsUrl,
    http: httpOf(ctx),
    ...(user?.token ? { token: user.token, onRefresh: user.save, reload: user.reload } : {}),
  });
  return { client, signedIn: user?.token != null };
}

/** A person's library needs their own token, which an app's credentials cannot stand in for. */
function signedIn(spec: SpotifySource, spotify: SpotifyReading): SpotifyClient {
  if (!spotify.signedIn) {
    throw new SourceError(
      spec.id,
      "reading your Spotify library needs you signed in: run `musicsync auth spotify`",
    );
  }
  return spotify.client;
}

function spotifySongs(spec: SpotifySource, spotify: SpotifyReading): Promise<ServiceList> {
  if (spec.playlist !== null) return spotify.client.playlist(spec.playlist);
  const client = signedIn(spec, spotify);
  if (spec.library === "liked") return client.likedSongs();
  // The sources read saved albums and followed artists with albums() and artists().
  throw new SourceError(spec.id, `Spotify's saved ${spec.library} are not songs`);
}

async function listenBrainzReader(ctx: ReadersContext): Promise<ListenBrainzReader> {
  const s = await listenBrainzSettings(ctx);
  return new ListenBrainzReader({ baseUrl: s.apiUrl, token: s.token, http: httpOf(ctx) });
}

/** Several playlists of a series as one list, newest first; each says what it holds, so their sum. */
function joined(lists: readonly ServiceList[]): ServiceList {
  const skipped = new Map<string, number>();
  for (const l of lists) {
    for (const k of l.skipped ?? []) skipped.set(k.reason, (skipped.get(k.reason) ?? 0) + k.count);
  }
  const counted = lists.every((l) => l.expected !== null);
  return {
    entries: lists.flatMap((l) => l.entries),
    expected: counted ? lists.reduce((n, l) => n + (l.expected ?? 0), 0) : null,
    ...(skipped.size > 0 ? { skipped: [...skipped].map(([reason, count]) => ({ reason, count })) } : {}),
  };
}

async function listenBrainzSongs(spec: ListenBrainzSource, reader: ListenBrainzReader): Promise<ServiceList> {
  // The semantic checks let exactly one of these through, each but `playlist` with a user.
  if (spec.playlist !== null) return (await reader.playlist(spec.playlist)).list;
  const user = spec.user!;
  if (spec.series !== null) {
    const playlists = await reader.series(user, spec.series, spec.archived ? "all" : "newest");
    return joined(playlists.map((p) => p.list));
  }
  if (spec.title !== null) return (await reader.playlistTitled(user, spec.title)).list;
  return reader.topRecordings(user, spec.top!);
}

async function lastfmReader(ctx: ReadersContext): Promise<LastfmReader> {
  const s = await lastfmSettings(ctx);
  const onEmulator = ctx.project.services.lastfm?.emulator === true;
  const apiKey =
    s.apiKey ?? (onEmulator ? (await fromEmulator<{ apiKey: string }>(ctx, "lastfm/keys")).apiKey : null);
  if (apiKey === null) {
    throw new ServiceSettingError(
      "lastfm sources need an API key: services.lastfm.api_key in musicsync.yaml, or LASTFM_API_KEY (docs/services.md)",
    );
  }
  return new LastfmReader({ apiKey, baseUrl: s.apiUrl, http: httpOf(ctx) });
}

function lastfmSongs(spec: LastfmSource, reader: LastfmReader): Promise<ServiceList> {
  if (spec.list === "loved") return reader.lovedTracks(spec.user);
  if (spec.list === "top") return reader.topTracks(spec.user, spec.period);
  return reader.recentTracks(spec.user);
}

export function serviceReaders(ctx: ReadersContext): ServiceReaders {
  let spotify: Promise<SpotifyReading> | null = null;
  let listenBrainz: Promise<ListenBrainzReader> | null = null;
  let lastfm: Promise<LastfmReader> | null = null;
  const spotifyReading = () => {
    spotify ??= spotifyClient(ctx);
    return spotify;
  };
  return {
    async albums(spec) {
      return signedIn(spec, await spotifyReading()).savedAlbums();
    },
    async artists(spec) {
      return signedIn(spec, await spotifyReading()).followedArtists();
    },
    async songs(spec: ServiceSource): Promise<ServiceList> {
      switch (spec.type) {
        case "spotify":
          return spotifySongs(spec, await spotifyReading());
        case "listenbrainz":
          listenBrainz ??= listenBrainzReader(ctx);
          return listenBrainzSongs(spec, await listenBrainz);
        case "lastfm":
          lastfm ??= lastfmReader(ctx);
          return lastfmSongs(spec, await lastfm);
      }
    },
  };
}
