import { ArgumentError } from "../errors.js";
import { parseLyrics, parseTimedLyrics } from "../parsers/lyrics.js";
import type { JsonObject } from "../parsers/nav.js";
import { parseSong } from "../parsers/song.js";
import { parseTasteProfile } from "../parsers/taste-profile.js";
import type { OperationContext } from "../transport/operation-context.js";
import type { Lyrics, Song, TasteProfile } from "../types/song.js";
import { parseFor } from "./context.js";
import { requireId } from "./library-arguments.js";

/**
 * Song operations: the player response (`get_song`, docs/PROTOCOL.md#player), lyrics (docs/PROTOCOL.md#browsing) and the taste
 * profile. Each builds its request, sends it, and hands the raw answer to a pure parser.
 */

/** Timed lyrics are only given to the mobile app's client (docs/PROTOCOL.md#the-request-context, docs/PROTOCOL.md#changes-over-time). */
export const ANDROID_MUSIC_CLIENT = Object.freeze({ clientName: "ANDROID_MUSIC", clientVersion: "7.21.50" });

const DAY_MS = 86_400_000;

/**
 * The signature timestamp used when the current one cannot be read: whole days since the Unix
 * epoch, minus one — what the reference implementation sends by default.
 */
export function defaultSignatureTimestamp(now: number = Date.now()): number {
  return Math.floor(now / DAY_MS) - 1;
}

/** The player script's address in the start page (`"jsUrl":"/s/player/…/base.js"`). */
const JS_URL = /jsUrl"\s*:\s*"([^"]+)"/;
/** In the player script: `signatureTimestamp:20123` or `signatureTimestamp=20123`. */
const STS = /signatureTimestamp[:=](\d+)/;

/** A read signature timestamp is good for a while: the player script changes every few days. */
const STS_TTL_MS = 60 * 60 * 1000;
const stsCache = new WeakMap<OperationContext, { value: number; until: number }>();

/**
 * The signature timestamp of the player version the service currently serves, read the way the
 * web client learns it: the start page names the player script, the script holds the number.
 */
export async function readSignatureTimestamp(ctx: OperationContext, operation: string): Promise<number> {
  const cached = stsCache.get(ctx);
  if (cached !== undefined && cached.until > Date.now()) return cached.value;
  const page = await ctx.raw({ operation, method: "GET", url: `${ctx.origin}/` });
  if (page.status >= 400) throw new Error(`the start page answered HTTP ${page.status}`);
  const found = JS_URL.exec(await page.text())?.[1];
  if (found === undefined) throw new Error("the start page names no player script (jsUrl)");
  // The page gives a path (JSON-escaped slashes tolerated); resolve it against the service's (or
  // the emulator's) origin.
  const jsUrl = found.replace(/\\\//g, "/");
  const script = await ctx.raw({ operation, method: "GET", url: new URL(jsUrl, `${ctx.origin}/`).href });
  if (script.status >= 400) throw new Error(`the player script answered HTTP ${script.status}`);
  const sts = STS.exec(await script.text())?.[1];
  if (sts === undefined) throw new Error("the player script holds no signatureTimestamp");
  const value = Number(sts);
  stsCache.set(ctx, { value, until: Date.now() + STS_TTL_MS });
  return value;
}

export interface GetSongOptions {
  /** The player version's signature timestamp. Default: read from the service, else computed. */
  signatureTimestamp?: number;
}

export async function getSong(
  ctx: OperationContext,
  videoId: string,
  options: GetSongOptions = {},
): Promise<Song> {
  const operation = "get_song";
  requireId("videoId", videoId, operation);
  let sts = options.signatureTimestamp;
  if (sts !== undefined && sts !== null && (!Number.isInteger(sts) || sts < 0)) {
    throw new ArgumentError("signatureTimestamp", "must be a non-negative integer", { operation });
  }
  if (sts === undefined || sts === null) {
    try {
      sts = await readSignatureTimestamp(ctx, operation);
    } catch (error) {
      sts = defaultSignatureTimestamp();
      ctx.logger.warn(
        {
          operation,
          reason: error instanceof Error ? error.message : String(error),
          signatureTimestamp: sts,
        },
        "could not read the current signature timestamp; using the computed default",
      );
    }
  }
  const response = await ctx.send({
    operation,
    endpoint: "player",
    // `video_id` in snake case is what the reference implementation sends (the web client: `videoId`).
    body: { playbackContext: { contentPlaybackContext: { signatureTimestamp: sts } }, video_id: videoId },
  });
  return parseFor(operation, () => parseSong(response));
}

export interface GetLyricsOptions {
  /** Ask for timed lyrics (sent as the mobile client). Default `false`. */
  timestamps?: boolean;
}

export async function getLyrics(
  ctx: OperationContext,
  browseId: string,
  options: GetLyricsOptions = {},
): Promise<Lyrics | null> {
  const operation = "get_lyrics";
  requireId("browseId", browseId, operation, "(a song without lyrics has no lyrics browseId)");
  const body: JsonObject = { browseId };
  if (options.timestamps) {
    const response = await ctx.send({ operation, endpoint: "browse", body, client: ANDROID_MUSIC_CLIENT });
    return parseFor(operation, () => parseTimedLyrics(response) ?? parseLyrics(response));
  }
  const response = await ctx.send({ operation, endpoint: "browse", body });
  return parseFor(operation, () => parseLyrics(response));
}

export async function getTasteProfile(ctx: OperationContext): Promise<TasteProfile> {
  const operation = "get_tasteprofile";
  ctx.requireAuth(operation);
  const response = await ctx.send({
    operation,
    endpoint: "browse",
    body: { browseId: "FEmusic_tastebuilder" },
  });
  return parseFor(operation, () => parseTasteProfile(response, ctx.notes(operation)));
}

export interface SetTasteProfileOptions {
  /** A `getTasteProfile` result to choose from. Default: fetched first. */
  tasteProfile?: TasteProfile;
}

/**
 * The form the taste builder posts: every offered artist counts as seen, the chosen ones as
 * selected. An artist not offered is the caller's mistake, reported before anything is written.
 */
export function tasteProfileForm(
  profile: TasteProfile,
  artists: readonly string[],
  operation = "set_tasteprofile",
): { impressionValues: string[]; selectedValues: string[] } {
  const impressionValues: string[] = [];
  for (const name in profile) impressionValues.push((profile[name] as TasteProfile[string]).impressionValue);
  const selectedValues: string[] = [];
  for (const artist of artists) {
    const entry = Object.hasOwn(profile, artist) ? profile[artist] : undefined;
    if (entry === undefined) {
      throw new ArgumentError("artists", `"${artist}" is not one of the taste profile's artists`, {
        operation,
      });
    }
    selectedValues.push(entry.selectionValue);
  }
  return { impressionValues, selectedValues };
}

export async function setTasteProfile(
  ctx: OperationContext,
  artists: readonly string[],
  options: SetTasteProfileOptions = {},
): Promise<void> {
  const operation = "set_tasteprofile";
  ctx.requireAuth(operation);
  if (!Array.isArray(artists) || artists.some((a) => typeof a !== "string")) {
    throw new ArgumentError("artists", "must be an array of artist names", { operation });
  }
  const profile = options.tasteProfile ?? (await getTasteProfile(ctx));
  const formData = tasteProfileForm(profile, artists, operation);
  // The service's answer is the refreshed home page; the interface ignores it.
  await ctx.send({
    operation,
    endpoint: "browse",
    body: { browseId: "FEmusic_home", formData },
    write: true,
  });
}
