import { MusicClient, type MusicClientOptions } from "../../src/index.js";
import type { Logger } from "../../src/logger.js";
import { TEST_BROWSER_AUTH } from "../support/fixtures.js";
import {
  endpointOf,
  type Reply,
  type SeenRequest,
  START_PAGE,
  startServer,
  type TestServer,
} from "../support/replay-server.js";

/**
 * Helpers for the song, explore, watch and podcast tests: a local server (127.0.0.1) answering
 * InnerTube requests from a list of pages, and plain GETs from a map of paths.
 */

export interface Served {
  client: MusicClient;
  server: TestServer;
  /** The InnerTube requests received, in order. */
  innertube(): SeenRequest[];
  /** The other requests (start page, player script). */
  plain(): SeenRequest[];
  close(): Promise<void>;
}

export interface ServeOptions {
  auth?: boolean;
  /** Answers for plain GETs by path; `/` defaults to a start page without a player script. */
  paths?: Record<string, Reply>;
  client?: Partial<MusicClientOptions>;
}

export async function serve(pages: readonly unknown[], options: ServeOptions = {}): Promise<Served> {
  let next = 0;
  const server = await startServer((request) => {
    if (endpointOf(request.path) === null) {
      return (
        options.paths?.[request.path] ??
        (request.path === "/" ? { body: START_PAGE } : { status: 404, body: "" })
      );
    }
    const page = pages[next++];
    return { body: page === undefined ? {} : page };
  });
  const client = new MusicClient({
    baseUrl: server.url,
    retry: false,
    ...(options.auth ? { auth: TEST_BROWSER_AUTH } : {}),
    ...options.client,
  });
  return {
    client,
    server,
    innertube: () => server.requests.filter((r) => endpointOf(r.path) !== null),
    plain: () => server.requests.filter((r) => endpointOf(r.path) === null),
    close: () => server.close(),
  };
}

/** The body a request sent, without `context`. */
export function bodyOf(request: SeenRequest | undefined): Record<string, unknown> {
  const { context: _context, ...body } = (request?.json ?? {}) as Record<string, unknown>;
  return body;
}

/** `context.client` of a request. */
export function clientOf(request: SeenRequest | undefined): Record<string, unknown> {
  return ((request?.json as { context?: { client?: Record<string, unknown> } })?.context?.client ??
    {}) as Record<string, unknown>;
}

/** A logger that keeps what it is given. */
export function recordingLogger(): Logger & {
  lines: Array<{ level: string; fields: object; message?: string }>;
} {
  const lines: Array<{ level: string; fields: object; message?: string }> = [];
  const at =
    (level: string) =>
    (fields: object, message?: string): void => {
      lines.push({ level, fields, message });
    };
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** A deep copy of a loaded capture, to alter without touching the cached original. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}
