import type { AuthKind } from "../auth/types.js";
import { ParseError } from "../errors.js";
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
}

/**
 * Runs a pure parser for an operation, so that a ParseError names the operation it happened in.
 * (Parsers know paths, not which public method called them.)
 */
export function parseFor<T>(operation: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ParseError && error.operation === undefined) {
      throw new ParseError(error.path, error.detail, { operation, cause: error });
    }
    throw error;
  }
}

/**
 * The shape of most catalogue reads: one `browse` request whose one page is handed to a pure
 * parser (with the operation's notes and the display language), ParseErrors naming the operation.
 */
export async function browsePage<T>(
  ctx: OperationContext,
  operation: string,
  body: JsonObject,
  parse: (response: unknown, notes: ParseNotes, language: string) => T,
): Promise<T> {
  const response = await ctx.send({ operation, endpoint: "browse", body });
  const notes = ctx.notes(operation);
  return parseFor(operation, () => parse(response, notes, ctx.language));
}
