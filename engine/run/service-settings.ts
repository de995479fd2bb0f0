/**
 * Where and with what keys each other music service is read, from the project's `services:` and
 * the environment: a setting written in the file wins, else the service's variable
 * (SPOTIFY_CLIENT_ID, SPOTIFY_CLIENT_SECRET, LISTENBRAINZ_TOKEN, LASTFM_API_KEY), else the real
 * service's address; `emulator: true` reads the project's embedded emulator's stand-in instead.
 * Every key is told to the engine's scrubber as soon as it is read (docs/ENGINE.md#credentials).
 */
import { engineScrubber } from "../output/scrub.js";
import { requireResolved } from "../recipe/deferred-settings.js";
import type { Environment } from "../recipe/env.js";
import type { Project } from "../recipe/types.js";
import { LASTFM_API } from "../services/lastfm/index.js";
import { LISTENBRAINZ_API } from "../services/listenbrainz/index.js";
import { SPOTIFY_ACCOUNTS, SPOTIFY_API } from "../services/spotify/index.js";

export type ServiceName = "spotify" | "listenbrainz" | "lastfm";

/** A setting a reader needs that neither the file nor the environment gives. */
export class ServiceSettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ServiceSettingError";
  }
}

export interface SpotifySettings {
  apiUrl: string;
  accountsUrl: string;
  clientId: string | null;
  clientSecret: string | null;
}

export interface ListenBrainzSettings {
  apiUrl: string;
  token: string | null;
}

export interface LastfmSettings {
  apiUrl: string;
  apiKey: string | null;
}

/** The real services' addresses (each reader's own), and below, the emulator's stand-ins'. */
const REAL = {
  spotify: { api: SPOTIFY_API, accounts: SPOTIFY_ACCOUNTS },
  listenbrainz: LISTENBRAINZ_API,
  lastfm: LASTFM_API,
} as const;

export function onEmulator(url: string) {
  const at = url.replace(/\/+$/, "");
  return {
    spotify: { api: `${at}/spotify/api/v1`, accounts: `${at}/spotify/accounts` },
    listenbrainz: `${at}/listenbrainz`,
    lastfm: `${at}/lastfm/2.0/`,
  };
}

/** What the emulator at `url` tells of its stand-in of a service (`spotify/app`, `lastfm/keys`…). */
export async function standInJson<T>(url: string, path: string): Promise<T> {
  const answer = await fetch(`${url}/_emulator/services/${path}`);
  if (!answer.ok)
    throw new ServiceSettingError(`the emulator did not answer ${path} (HTTP ${answer.status})`);
  return (await answer.json()) as T;
}

export interface SettingsContext {
  project: Project;
  environment: Environment;
  /** The embedded emulator's address (started if need be); absent: the project has no `emulator:` account. */
  emulatorUrl?: () => Promise<string>;
}

/** A value from the file, else the environment's variable; told to the scrubber when `secret`. */
function settingOf(
  written: string | undefined,
  variable: string,
  ctx: Pick<SettingsContext, "environment">,
  secret: boolean,
) {
  const value = written ?? (ctx.environment[variable] || undefined) ?? null;
  if (value !== null && secret) engineScrubber.addSecrets([value]);
  return value;
}

async function addresses(name: ServiceName, emulator: boolean | undefined, ctx: SettingsContext) {
  if (!emulator) return REAL;
  if (!ctx.emulatorUrl) {
    throw new ServiceSettingError(
      `services.${name}.emulator: the project has no account with emulator:, whose stand-in of ${name} it would read`,
    );
  }
  return onEmulator(await ctx.emulatorUrl());
}

export async function spotifySettings(ctx: SettingsContext): Promise<SpotifySettings> {
  const s = ctx.project.services.spotify ?? {};
  requireResolved(ctx.project, ["services", "spotify"], "a spotify source is read");
  const at = (await addresses("spotify", s.emulator, ctx)).spotify;
  return {
    apiUrl: s.base_url ?? at.api,
    accountsUrl: s.accounts_url ?? at.accounts,
    clientId: settingOf(s.client_id, "SPOTIFY_CLIENT_ID", ctx, false),
    clientSecret: settingOf(s.client_secret, "SPOTIFY_CLIENT_SECRET", ctx, true),
  };
}

/**
 * The Spotify app's client id alone (the file's, else SPOTIFY_CLIENT_ID), or null: what signing a
 * person in and refreshing their token need, with no address to resolve.
 */
export function spotifyClientId(ctx: Pick<SettingsContext, "project" | "environment">): string | null {
  requireResolved(ctx.project, ["services", "spotify", "client_id"], "Spotify's client id is read");
  return settingOf(ctx.project.services.spotify?.client_id, "SPOTIFY_CLIENT_ID", ctx, false);
}

export async function listenBrainzSettings(ctx: SettingsContext): Promise<ListenBrainzSettings> {
  const s = ctx.project.services.listenbrainz ?? {};
  requireResolved(ctx.project, ["services", "listenbrainz"], "a listenbrainz source is read");
  const at = await addresses("listenbrainz", s.emulator, ctx);
  return {
    apiUrl: s.base_url ?? at.listenbrainz,
    token: settingOf(s.token, "LISTENBRAINZ_TOKEN", ctx, true),
  };
}

export async function lastfmSettings(ctx: SettingsContext): Promise<LastfmSettings> {
  const s = ctx.project.services.lastfm ?? {};
  requireResolved(ctx.project, ["services", "lastfm"], "a lastfm source is read");
  const at = await addresses("lastfm", s.emulator, ctx);
  return {
    apiUrl: s.base_url ?? at.lastfm,
    apiKey: settingOf(s.api_key, "LASTFM_API_KEY", ctx, true),
  };
}
