import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, extname } from "node:path";
import { ArgumentError, AuthError, ErrorCodes, ServiceError } from "../errors.js";
import { parseLibraryAlbums, parseLibraryArtists, withoutShuffleRow } from "../parsers/library.js";
import { isObject } from "../parsers/nav.js";
import { parseUploadAlbum, parseUploadRows } from "../parsers/uploads.js";
import type { OperationContext } from "../transport/operation-context.js";
import type { LibraryAlbum, LibraryArtist } from "../types/library.js";
import type { ServiceResponse } from "../types/playlists.js";
import type {
  UploadAlbum,
  UploadArtistOptions,
  UploadFailure,
  UploadListOptions,
  UploadSong,
} from "../types/uploads.js";
import { browsePage } from "./context.js";
import { libraryList, listArguments } from "./library.js";
import { checkId, checkLimit, checkOptions } from "./library-arguments.js";
import { SUCCEEDED, sendWrite } from "./playlists.js";

/** What the upload host takes (docs/PROTOCOL.md#uploads). */
export const UPLOAD_EXTENSIONS = ["mp3", "m4a", "wma", "flac", "ogg"] as const;
/** Files must be smaller than 300 MiB. */
export const MAX_UPLOAD_BYTES = 314_572_800;

export interface UploadPlan {
  filepath: string;
  filename: string;
  size: number;
}

/** Checks a file before anything is sent: allowed extension, a regular file, under the size limit. */
export async function planUpload(filepath: unknown): Promise<UploadPlan> {
  const operation = "upload_song";
  if (typeof filepath !== "string" || filepath === "") {
    throw new ArgumentError("filepath", "must be the path of an audio file", { operation });
  }
  const extension = extname(filepath).slice(1).toLowerCase();
  if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(extension)) {
    throw new ArgumentError(
      "filepath",
      `the service takes only ${UPLOAD_EXTENSIONS.join(", ")} files; got ${extension === "" ? "no extension" : `.${extension}`}`,
      { operation },
    );
  }
  let size: number;
  try {
    const info = await stat(filepath);
    if (!info.isFile()) throw new Error("not a file");
    size = info.size;
  } catch {
    throw new ArgumentError("filepath", `no readable file at ${filepath}`, { operation });
  }
  if (size >= MAX_UPLOAD_BYTES) {
    throw new ArgumentError("filepath", `the file is ${size} bytes; the service takes files under 300 MiB`, {
      operation,
    });
  }
  return { filepath, filename: basename(filepath), size };
}

/**
 * `upload_song`: the two-step resumable upload (docs/PROTOCOL.md#uploads) to the upload host — a start request
 * that returns the session URL, then the file's bytes streamed from disk (never held in memory).
 * `STATUS_SUCCEEDED` on HTTP 200; otherwise the status and body the host answered (409 when the same
 * file is already uploaded). Needs browser-header auth: the upload host does not take OAuth tokens.
 */
export async function uploadSong(
  ctx: OperationContext,
  filepath: string,
): Promise<typeof SUCCEEDED | UploadFailure> {
  const operation = "upload_song";
  ctx.requireAuth(operation);
  const plan = await planUpload(filepath);
  if (ctx.authKind !== "browser") {
    throw new AuthError(ErrorCodes.AUTH_INVALID, "uploads need browser-header auth; OAuth cannot upload", {
      operation,
    });
  }
  const common = {
    "content-type": "application/x-www-form-urlencoded;charset=utf-8",
    "x-goog-upload-header-content-length": String(plan.size),
    "x-goog-upload-protocol": "resumable",
  };
  const start = await ctx.raw({
    operation,
    method: "POST",
    url: `${ctx.uploadOrigin}/upload/usermusic/http?authuser=${encodeURIComponent(ctx.authUser)}`,
    authenticated: true,
    headers: { ...common, "x-goog-upload-command": "start" },
    body: `filename=${plan.filename}`,
    write: true,
  });
  if (start.status >= 400) return failure(start);
  const sessionUrl = start.headers["x-goog-upload-url"];
  if (sessionUrl === undefined || sessionUrl === "") {
    throw new ServiceError(ErrorCodes.HTTP_ERROR, "the upload host gave no upload session URL", {
      operation,
      status: start.status,
    });
  }
  // The session URL receives the account's cookies: only ever send them back to the upload host.
  if (!sameOrigin(sessionUrl, ctx.uploadOrigin)) {
    throw new ServiceError(ErrorCodes.HTTP_ERROR, "the upload session URL is not on the upload host", {
      operation,
      status: start.status,
    });
  }
  const upload = await ctx.raw({
    operation,
    method: "POST",
    url: sessionUrl,
    authenticated: true,
    headers: {
      ...common,
      "x-goog-upload-command": "upload, finalize",
      "x-goog-upload-offset": "0",
      "content-length": String(plan.size),
    },
    body: createReadStream(plan.filepath),
    write: true,
  });
  if (upload.status === 200) return SUCCEEDED;
  return failure(upload);
}

async function failure(response: { status: number; text(): Promise<string> }): Promise<UploadFailure> {
  return { status: response.status, body: await response.text() };
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}

const RELEASE_PREFIX = "FEmusic_library_privately_owned_release_detail";

/**
 * `delete_upload_entity`: deletes an uploaded track (`entityId`, `t_po_…`) or album (its entity id,
 * or the album's `browseId`, whose `…release_detail` prefix is removed). `STATUS_SUCCEEDED`, or the
 * service's `error` value.
 */
export async function deleteUploadEntity(
  ctx: OperationContext,
  entityId: string,
): Promise<typeof SUCCEEDED | ServiceResponse> {
  const operation = "delete_upload_entity";
  const id = checkId(operation, "entityId", entityId);
  const entity = id.includes(RELEASE_PREFIX) ? id.replace(RELEASE_PREFIX, "") : id;
  if (entity === "") throw new ArgumentError("entityId", "has nothing after the album prefix", { operation });
  ctx.requireAuth(operation);
  const response = await sendWrite(ctx, operation, "music/delete_privately_owned_entity", {
    entityId: entity,
  });
  if (!("error" in response)) return SUCCEEDED;
  // The reference returns the `error` value; an error that is not an object comes back whole.
  return isObject(response.error) ? response.error : response;
}

// ── upload lists ────────────────────────────────────────────────────────────────────────────────

/** `get_library_upload_songs`: uploaded tracks (the leading "Shuffle all" row dropped). */
export async function getLibraryUploadSongs(
  ctx: OperationContext,
  options?: UploadListOptions,
): Promise<UploadSong[]> {
  const operation = "get_library_upload_songs";
  const { limit, params } = listArguments(operation, options);
  return libraryList(ctx, {
    operation,
    browseId: "FEmusic_library_privately_owned_tracks",
    container: "musicShelfRenderer",
    params,
    limit,
    parse: (items, notes, first) => parseUploadRows(first ? withoutShuffleRow(items) : items, notes),
  });
}

/** `get_library_upload_artists`: artists of the uploaded tracks. */
export async function getLibraryUploadArtists(
  ctx: OperationContext,
  options?: UploadListOptions,
): Promise<LibraryArtist[]> {
  const operation = "get_library_upload_artists";
  const { limit, params } = listArguments(operation, options);
  return libraryList(ctx, {
    operation,
    browseId: "FEmusic_library_privately_owned_artists",
    container: "musicShelfRenderer",
    params,
    limit,
    parse: (items, notes) => parseLibraryArtists(items, notes),
  });
}

/** `get_library_upload_albums`: albums of the uploaded tracks. */
export async function getLibraryUploadAlbums(
  ctx: OperationContext,
  options?: UploadListOptions,
): Promise<LibraryAlbum[]> {
  const operation = "get_library_upload_albums";
  const { limit, params } = listArguments(operation, options);
  return libraryList(ctx, {
    operation,
    browseId: "FEmusic_library_privately_owned_releases",
    container: "gridRenderer",
    params,
    limit,
    parse: (items, notes) => parseLibraryAlbums(items, notes),
  });
}

/** `get_library_upload_artist`: the uploaded tracks of one artist (`browseId` from the upload lists). */
export async function getLibraryUploadArtist(
  ctx: OperationContext,
  browseId: string,
  options?: UploadArtistOptions,
): Promise<UploadSong[]> {
  const operation = "get_library_upload_artist";
  const id = checkId(operation, "browseId", browseId);
  const opts = checkOptions<UploadArtistOptions>(operation, options);
  return libraryList(ctx, {
    operation,
    browseId: id,
    container: "musicShelfRenderer",
    params: undefined,
    limit: checkLimit(operation, "limit", opts.limit === undefined ? 25 : opts.limit),
    parse: (items, notes, first) => parseUploadRows(first ? withoutShuffleRow(items) : items, notes),
  });
}

/** `get_library_upload_album`: an uploaded album's header and tracks (`browseId` from the upload lists). */
export async function getLibraryUploadAlbum(ctx: OperationContext, browseId: string): Promise<UploadAlbum> {
  const operation = "get_library_upload_album";
  const id = checkId(operation, "browseId", browseId);
  ctx.requireAuth(operation);
  return browsePage(ctx, operation, { browseId: id }, parseUploadAlbum);
}
