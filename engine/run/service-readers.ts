/**
 * The readers of the other services a run's sources use (engine/sources/service-source.ts), made
 * from the project's settings (service-settings.ts) the first time a source of that service is
 * read, and kept for the command: a Spotify app's token serves every playlist of the run.
 */
import type { ServiceSource, SpotifySource } from "../recipe/types.js";
import type { ServiceHttp } from "../services/http.js";
import { SpotifyClient } from "../services/spotify/index.js";
import type { ServiceList } from "../services/types.js";
import { SourceError } from "../sources/read.js";
import type { ServiceReaders } from "../sources/service-source.js";
import { ServiceSettingError, type SettingsContext, spotifySettings } from "./service-settings.js";

export interface ReadersContext extends SettingsContext {
  /** Clock, sleep and retry bounds (tests pass their own). */
  http?: Partial<ServiceHttp>;
}

/** The Spotify app an `emulator: true` project signs in as: the one the emulator's stand-in knows. */
async function emulatorApp(ctx: ReadersContext): Promise<{ client_id: string; client_secret: string }> {
  const url = await ctx.emulatorUrl!();
  const answer = await fetch(`${url}/_emulator/services/spotify/app`);
  if (!answer.ok)
    throw new ServiceSettingError(`the emulator did not say its Spotify app (HTTP ${answer.status})`);
  return (await answer.json()) as { client_id: string; client_secret: string };
}

async function spotifyClient(ctx: ReadersContext): Promise<SpotifyClient> {
  const s = await spotifySettings(ctx);
  const onEmulator = ctx.project.services.spotify?.emulator === true;
  const app = onEmulator && s.clientId === null ? await emulatorApp(ctx) : null;
  const clientId = s.clientId ?? app?.client_id ?? null;
  const clientSecret = s.clientSecret ?? app?.client_secret ?? null;
  if (clientId === null) {
    throw new ServiceSettingError(
      "spotify sources need a Spotify app: services.spotify.client_id in musicsync.yaml, or SPOTIFY_CLIENT_ID (docs/services.md)",
    );
  }
  return new SpotifyClient({
    app: { clientId, ...(clientSecret !== null ? { clientSecret } : {}) },
    apiBase: s.apiUrl,
    accountsBase: s.accountsUrl,
    ...(ctx.http ? { http: ctx.http } : {}),
  });
}

function spotifySongs(spec: SpotifySource, client: SpotifyClient): Promise<ServiceList> {
  if (spec.playlist !== null) return client.playlist(spec.playlist);
  if (spec.library === "liked") return client.likedSongs();
  throw new SourceError(
    spec.id,
    `Spotify's saved ${spec.library ?? "albums"} are not songs: read them with library: liked or a playlist`,
  );
}

export function serviceReaders(ctx: ReadersContext): ServiceReaders {
  let spotify: Promise<SpotifyClient> | null = null;
  return {
    async songs(spec: ServiceSource): Promise<ServiceList> {
      switch (spec.type) {
        case "spotify":
          spotify ??= spotifyClient(ctx);
          return spotifySongs(spec, await spotify);
        default:
          throw new SourceError(spec.id, `${spec.type} sources are not read yet`);
      }
    },
  };
}
