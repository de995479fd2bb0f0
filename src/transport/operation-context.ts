/**
 * What the transport offers the operations: one InnerTube call, one plain HTTP request, and the
 * context an operation runs in. Declared beside the transport that implements it, so the
 * operations above lean on it and the transport needs nothing of theirs.
 */
import type { PieceIndex } from "../../shared/piece-index.js";
import type { AuthKind } from "../auth/types.js";
import type { Logger } from "../logger.js";
import type { JsonObject } from "../parsers/nav.js";
import type { ParseNotes } from "../parsers/notes.js";

/** One InnerTube call: `POST <baseUrl>/youtubei/v1/<endpoint>` with `body` plus the client context. */
export interface SendOptions {
  /** The operation's interface name (`get_playlist`), used in errors and logs. */
  operation: string;
  /** Path after `youtubei/v1/`, e.g. `browse`, `browse/edit_playlist`. */
  endpoint: string;
  /** Operation fields; the transport adds `context`. */
  body: JsonObject;
  /** Extra query string appended as is, e.g. `&ctoken=…&continuation=…` (docs/PROTOCOL.md#continuations shape A). */
  additionalParams?: string;
  /** Writes are never retried automatically (a retry could apply them twice). */
  write?: boolean;
  /** Replaces `context.client` name and version (timed lyrics use ANDROID_MUSIC). */
  client?: { clientName: string; clientVersion: string };
}

/** A plain HTTP request outside the InnerTube API: pages, base.js, tracking, uploads. */
export interface RawRequest {
  operation: string;
  method: "GET" | "POST";
  url: string;
  /** Add the authenticated header set (cookie / authorization / visitor id). */
  authenticated?: boolean;
  headers?: Record<string, string>;
  /** A body: text, bytes, or a stream (uploads stream the file). */
  body?: string | Uint8Array | NodeJS.ReadableStream;
  write?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text(): Promise<string>;
}

/**
 * What an operation may use. Operations are plain functions `(ctx, …args) => result`: they build
 * a request, call `send`, and hand the raw JSON to a pure parser.
 */
export interface OperationContext {
  send(options: SendOptions): Promise<unknown>;
  raw(request: RawRequest): Promise<RawResponse>;
  /** Throws AuthError(AUTH_REQUIRED) before any request when the client has no credentials. */
  requireAuth(operation: string): void;
  readonly authKind: AuthKind | null;
  /** The `x-goog-authuser` index for uploads ("0" unless browser headers said otherwise). */
  readonly authUser: string;
  /** `hl` sent in the context; parsers comparing display strings need it. */
  readonly language: string;
  /** Origin of the music service (or the emulator / replay server standing in for it). */
  readonly origin: string;
  /** Origin of the upload host (docs/PROTOCOL.md#uploads). */
  readonly uploadOrigin: string;
  readonly logger: Logger;
  /** Parse notes that go to the logger. */
  notes(operation: string): ParseNotes;
  /** `value` (text, a JSON-like value, or an error) with the client's credentials scrubbed out. */
  redact<T>(value: T): T;
  /**
   * The index of the client's credentials as they stand now (synced), for a process with many
   * clients that screens a text for all of them in one pass (shared/piece-screen.ts).
   */
  secretIndex(): PieceIndex;
}
