/**
 * A person's Spotify sign-in (from `musicsync auth spotify`) as the reader of their library gets
 * it, and where each refreshed token goes back (docs/spotify-sign-in.md). Spotify may hand a new
 * refresh token with each refresh and end the old one, so a refreshed token that is not kept signs
 * the person out: `save` writes it where it was read from, whole.
 *
 * Where it is kept: the file `services.spotify.token` (relative to the project file, default
 * spotify-token.json beside it; mode 0600, replaced whole), or, after `auth spotify --store`,
 * sealed into the state with the stored accounts, for workers on other machines. The file wins
 * when both exist (`--store` removes it; signing in again without `--store` writes it).
 */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { credentialJson, writeSecretFile } from "../../shared/secret-file.js";
import { readServiceToken, type StoredServiceToken, swapServiceToken } from "../accounts/service-token.js";
import { withLockFile } from "../files/lock-file.js";
import { FileReadError, readRegularFileIfAny } from "../files/read-regular.js";
import { engineScrubber } from "../output/scrub.js";
import { requireResolved } from "../recipe/deferred-settings.js";
import type { Environment } from "../recipe/env.js";
import type { Project } from "../recipe/types.js";
import type { SpotifyToken } from "../services/spotify/token.js";
import type { AccountStore } from "../state/types.js";
import { spotifyClientId } from "./service-settings.js";

/** Beside the project file unless `services.spotify.token` says otherwise. */
export const DEFAULT_SPOTIFY_TOKEN_FILE = "spotify-token.json";

/** A token file is a few hundred bytes; anything much bigger is not one. */
const MOST_BYTES = 64 * 1024;

/** A kept sign-in that cannot be used; the message names where it is kept, never its content. */
export class SpotifySignInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SpotifySignInError";
  }
}

/** What is kept: the token, and the app it was issued to (only that app can refresh it). */
export interface KeptSpotifyToken {
  token: SpotifyToken;
  clientId: string;
}

/** The token file of the project (absolute). */
export function spotifyTokenPath(project: Project, projectFile: string): string {
  requireResolved(project, ["services", "spotify", "token"], "the Spotify sign-in is read");
  const written = project.services.spotify?.token ?? DEFAULT_SPOTIFY_TOKEN_FILE;
  return resolve(dirname(resolve(projectFile)), written);
}

/** The kept sign-in as text: the file's content, and what is sealed into the state. */
export function keptTokenText(kept: KeptSpotifyToken): string {
  const t = kept.token;
  return `${credentialJson({
    access_token: t.access_token,
    refresh_token: t.refresh_token,
    expires_at: t.expires_at,
    scope: t.scope,
    token_type: "Bearer",
    client_id: kept.clientId,
  })}\n`;
}

const again = "sign in again with `musicsync auth spotify`";

/** Reads a kept sign-in; `where` names it in messages. Its secrets are told to the scrubber first. */
export function parseKeptToken(text: string, where: string): KeptSpotifyToken {
  let j: Record<string, unknown> | null = null;
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v === "object" && v !== null && !Array.isArray(v)) j = v as Record<string, unknown>;
  } catch {
    // said below
  }
  if (j === null) {
    engineScrubber.addSecrets([text, text.trim()].filter((v) => v.length >= 8));
    throw new SpotifySignInError(`${where} is not a Spotify sign-in (not a JSON object); ${again}`);
  }
  const str = (k: string) => (typeof j[k] === "string" && j[k] !== "" ? (j[k] as string) : null);
  const access = str("access_token");
  const refresh = str("refresh_token");
  engineScrubber.addSecrets([access, refresh].filter((v): v is string => v !== null));
  const clientId = str("client_id");
  const expires = j.expires_at;
  const missing = [
    access ? null : "access_token",
    refresh ? null : "refresh_token",
    typeof expires === "number" && Number.isFinite(expires) ? null : "expires_at",
    clientId ? null : "client_id",
  ].filter((k) => k !== null);
  if (missing.length > 0)
    throw new SpotifySignInError(`${where} is not a Spotify sign-in (no ${missing.join(", ")}); ${again}`);
  return {
    token: {
      access_token: access!,
      refresh_token: refresh,
      expires_at: expires as number,
      scope: str("scope") ?? "",
    },
    clientId: clientId!,
  };
}

export interface SpotifyTokenContext {
  project: Project;
  /** The project file's path: the token file is found relative to it. */
  projectFile: string;
  /** The state, where `auth spotify --store` seals the sign-in; null: none opened. */
  state: Pick<AccountStore, "storedAccount" | "swapAccount"> | null;
  environment: Environment;
  now?: () => number;
}

export interface SpotifyUserToken {
  /** The person's token; null when they have not signed in (public playlists need none). */
  token: SpotifyToken | null;
  /** Keeps a refreshed token where this one came from (SpotifyClient's `onRefresh`). */
  save(token: SpotifyToken): Promise<void>;
  /**
   * The kept token read again (SpotifyClient's `reload`): when a refresh is refused, another
   * process sharing the sign-in may have renewed it first.
   */
  reload(): Promise<SpotifyToken | null>;
  /** Where it is kept, for messages: the file's path, or "the state". */
  where: string;
}

/** The token file's bytes, or null when there is none; throws FileReadError for anything else there. */
export function tokenFileBytes(path: string): Promise<Buffer | null> {
  return readRegularFileIfAny(path, {
    maxBytes: MOST_BYTES,
    tooBig: (n, over) => `${over ? "over" : "holds"} ${n} bytes, not a sign-in`,
  });
}

async function fromFile(path: string): Promise<KeptSpotifyToken | null> {
  let bytes: Buffer | null;
  try {
    bytes = await tokenFileBytes(path);
  } catch (e) {
    if (e instanceof FileReadError) {
      // Not a file a sign-in made: signing in again replaces it. Another failure (its mode) is said as it is.
      const remedy = e.code === "EFBIG" || e.code === "ENOTREG" ? `; ${again}` : "";
      throw new SpotifySignInError(`the Spotify sign-in ${path}: ${e.message}${remedy}`);
    }
    throw e;
  }
  return bytes === null ? null : parseKeptToken(bytes.toString("utf8"), `the Spotify sign-in ${path}`);
}

/** Refuses a sign-in made with another app than the one configured: that app could not refresh it. */
function sameApp(kept: KeptSpotifyToken, ctx: SpotifyTokenContext, where: string): void {
  const configured = spotifyClientId(ctx);
  if (configured !== null && configured !== kept.clientId)
    throw new SpotifySignInError(
      `${where} was made with another Spotify app (client id ${kept.clientId}) than the one configured ` +
        `(${configured}); ${again}`,
    );
}

/** Whether two tokens are the same sign-in at the same renewal. */
function sameToken(a: SpotifyToken, b: SpotifyToken): boolean {
  return a.access_token === b.access_token && a.refresh_token === b.refresh_token;
}

/** What a write-back found where the sign-in is kept: the token it read (then replaced), none, another. */
type WriteBack = "kept" | "removed" | "replaced";

/** A kept sign-in as read, and how a renewed token goes back where it was read from. */
interface Kept {
  token: SpotifyToken | null;
  where: string;
  /**
   * Writes a renewed token back only while the kept one is still the one read (or last written):
   * a sign-out meanwhile is not undone, nor another process's newer renewal overwritten.
   */
  writeBack(token: SpotifyToken): Promise<WriteBack>;
}

/**
 * The person's Spotify token and where a refreshed one is kept. Read from the token file when it
 * exists, else from the state's sealed copy (which needs MUSICSYNC_ACCOUNTS_KEY), else none.
 * Throws SpotifySignInError (or the seal's SealError) naming the place, never a token; `save`
 * throws SpotifySignInError when the sign-in was removed while the run renewed it.
 */
export async function spotifyUserToken(ctx: SpotifyTokenContext): Promise<SpotifyUserToken> {
  let kept = await keptSignIn(ctx);
  const where = kept.where;
  return {
    token: kept.token,
    where,
    save: async (token) => {
      if ((await kept.writeBack(token)) === "removed")
        throw new SpotifySignInError(
          `the Spotify sign-in in ${where} was removed (signed out) while this run renewed it; the ` +
            `renewed token was not kept: ${again}`,
        );
    },
    reload: async () => {
      kept = await keptSignIn(ctx);
      return kept.token;
    },
  };
}

function fileKept(path: string, read: KeptSpotifyToken): Kept {
  let last = read.token;
  return {
    token: read.token,
    where: path,
    // Under the lock that sign-out takes too: the compare and the write are one step for it.
    writeBack: (token) =>
      withLockFile(path, async () => {
        const now = await fromFile(path);
        if (now === null) return "removed";
        if (!sameToken(now.token, last)) return "replaced";
        await writeSecretFile(path, keptTokenText({ token, clientId: read.clientId }));
        last = token;
        return "kept";
      }),
  };
}

function stateKept(
  state: NonNullable<SpotifyTokenContext["state"]>,
  row: StoredServiceToken,
  read: KeptSpotifyToken,
  ctx: SpotifyTokenContext,
): Kept {
  let last = row;
  const now = ctx.now ?? Date.now;
  return {
    token: read.token,
    where: "the state",
    writeBack: async (token) => {
      const text = keptTokenText({ token, clientId: read.clientId });
      const done = await swapServiceToken(state, "spotify", last, text, ctx.environment, now());
      if (done.kind === "kept") last = done.stored;
      return done.kind;
    },
  };
}

async function keptSignIn(ctx: SpotifyTokenContext): Promise<Kept> {
  const path = spotifyTokenPath(ctx.project, ctx.projectFile);
  const inFile = await fromFile(path);
  if (inFile !== null) {
    sameApp(inFile, ctx, `the Spotify sign-in ${path}`);
    return fileKept(path, inFile);
  }
  const row = ctx.state ? await readServiceToken(ctx.state, "spotify", ctx.environment) : null;
  if (row !== null && ctx.state) {
    const where = "the Spotify sign-in sealed in the state";
    const kept = parseKeptToken(row.text, where);
    sameApp(kept, ctx, where);
    return stateKept(ctx.state, row, kept, ctx);
  }
  const clientId = spotifyClientId(ctx);
  return {
    token: null,
    where: path,
    // No sign-in was read: a token obtained otherwise is kept in the file, as signing in would.
    writeBack: async (token) => {
      if (clientId === null)
        throw new SpotifySignInError("a Spotify token cannot be kept without the app's client id");
      await writeSecretFile(path, keptTokenText({ token, clientId }));
      return "kept";
    },
  };
}

/**
 * Keeps a new sign-in in the token file, under the lock a run's write-back takes: a renewal of the
 * sign-in it replaces, finishing meanwhile, then finds another sign-in there and keeps nothing,
 * rather than writing the older one over it. Throws LockFileError when the lock stays held.
 */
export function writeSpotifyTokenFile(path: string, kept: KeptSpotifyToken): Promise<void> {
  return withLockFile(path, () => writeSecretFile(path, keptTokenText(kept)));
}

/**
 * Removes the token file whatever it holds (`auth spotify --store`: the sealed copy is read only
 * when there is no file), under the same lock, so a write-back finishing meanwhile cannot bring it
 * back. False when there was none.
 */
export function removeSpotifyTokenFileForStore(path: string): Promise<boolean> {
  return withLockFile(path, async () => {
    if (!existsSync(path)) return false;
    await rm(path, { force: true });
    return true;
  });
}

/** Whether the token file exists (`auth spotify --store` removes it so the sealed copy is read). */
export function spotifyTokenFileExists(project: Project, projectFile: string): boolean {
  return existsSync(spotifyTokenPath(project, projectFile));
}
