/**
 * The upload host (docs/PROTOCOL.md#uploads), served by the emulator itself: step one opens a session and
 * answers its URL in `X-Goog-Upload-URL`; step two streams the bytes with `upload, finalize` and
 * creates the uploaded track. Only browser-cookie auth may upload. The same file (name and size)
 * uploaded twice is refused with 409, as the service does.
 */
import { createHash, randomBytes } from "node:crypto";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { resolveViewer } from "../auth.js";
import type { EmulatorState } from "../context.js";
import { ApiError, invalidArgument, unauthenticated } from "../errors.js";
import { ID_ALPHABET } from "../random.js";

const MAX_UPLOAD = 314_572_800;
const EXTENSIONS = ["mp3", "m4a", "wma", "flac", "ogg"];

function cookieViewer(state: EmulatorState, headers: IncomingHttpHeaders) {
  const viewer = resolveViewer(state, headers, undefined);
  if (viewer?.via !== "cookie") throw unauthenticated();
  return viewer.account;
}

export function uploadStart(
  state: EmulatorState,
  headers: IncomingHttpHeaders,
  form: URLSearchParams,
  _query: URLSearchParams,
): { uploadUrl: string } {
  const account = cookieViewer(state, headers);
  const fileName = form.get("filename");
  if (!fileName) throw invalidArgument("filename is required");
  const ext = fileName.split(".").pop() ?? "";
  if (!EXTENSIONS.includes(ext)) throw invalidArgument("Unsupported file type.");
  const size = Number(headers["x-goog-upload-header-content-length"] ?? NaN);
  if (!Number.isInteger(size) || size < 0)
    throw invalidArgument("X-Goog-Upload-Header-Content-Length is required");
  if (size >= MAX_UPLOAD) throw new ApiError(413, "The file is too large.");
  const id = randomBytes(24).toString("base64url");
  state.uploadSessions.set(id, { accountId: account.id, fileName, size });
  return { uploadUrl: `${state.baseUrl}/upload/usermusic/http?upload_id=${id}&upload_protocol=resumable` };
}

function derived(seed: string, prefix: string, length: number): string {
  const digest = createHash("sha256").update(seed).digest();
  let out = prefix;
  for (let i = 0; out.length < prefix.length + length; i++)
    out += ID_ALPHABET[digest[i % digest.length]! % 64];
  return out;
}

export async function uploadFinalize(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
): Promise<void> {
  const id = query.get("upload_id") ?? "";
  const session = state.uploadSessions.get(id);
  const command = String(req.headers["x-goog-upload-command"] ?? "").toLowerCase();
  if (!session || !command.includes("upload")) {
    req.resume();
    throw new ApiError(404, "No such upload session.", "notFound");
  }
  let received = 0;
  for await (const chunk of req) received += (chunk as Buffer).length;
  state.uploadSessions.delete(id);
  const base = session.fileName.replace(/\.[^.]+$/, "");
  const [artist, title] = base.includes(" - ") ? base.split(" - ", 2) : ["Unknown artist", base];
  const seed = `${session.accountId}:${session.fileName}:${received}:${state.now()}`;
  const stored = state.store.libraryEdits.addUpload({
    accountId: session.accountId,
    entityId: derived(seed, "t_po_", 26),
    videoId: derived(`v:${seed}`, "", 11),
    title: (title ?? base).trim() || base,
    artistName: (artist ?? "Unknown artist").trim(),
    albumTitle: "Uploads",
    durationSeconds: Math.max(1, Math.round(received / 16_000)),
    fileName: session.fileName,
    size: received,
    createdAt: state.now(),
  });
  if (!stored) {
    res.writeHead(409, { "content-type": "text/plain" });
    res.end("Conflict");
    return;
  }
  // Upload routes are outside the route table's transactions: mark the state changed.
  state.store.touch();
  res.writeHead(200, { "content-type": "application/json", "x-goog-upload-status": "final" });
  res.end(JSON.stringify({ status: "STATUS_SUCCEEDED" }));
}
