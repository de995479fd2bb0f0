import { MusicClient, type MusicClientOptions } from "../../src/index.js";
import type { Logger } from "../../src/logger.js";
import { TEST_BROWSER_AUTH } from "./fixtures.js";
import {
  endpointOf,
  type Handler,
  type Reply,
  type SeenRequest,
  START_PAGE,
  startServer,
  type TestServer,
} from "./replay-server.js";

/**
 * A local server (127.0.0.1) for operation tests: InnerTube requests are answered from a list of
 * pages in order (then `{}`), plain GETs from a map of paths or a handler, and a MusicClient is
 * pointed at it.
 */

export interface Served {
  client: MusicClient;
  server: TestServer;
  /** The InnerTube requests received, in order. */
  innertube(): SeenRequest[];
  /** The other requests (start page, player script, album pages). */
  plain(): SeenRequest[];
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Construct the client with test browser headers. */
  auth?: boolean;
  /** Answers for plain GETs by path; `/` defaults to a start page. */
  paths?: Record<string, Reply>;
  /** Answers any other plain request; without it they get a 404. */
  other?: Handler;
  client?: Partial<MusicClientOptions>;
}

export async function serve(pages: readonly unknown[], options: ServeOptions = {}): Promise<Served> {
  let next = 0;
  const server = await startServer((request) => {
    if (endpointOf(request.path) === null) {
      const fixed = options.paths?.[request.path];
      if (fixed !== undefined) return fixed;
      if (request.path === "/") return { body: START_PAGE };
      return options.other?.(request) ?? { status: 404, body: "" };
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

export type RecordedLine = { level: string; fields: object; message?: string };

/** A logger that keeps what it is given. */
export function recordingLogger(): Logger & { lines: RecordedLine[] } {
  const lines: RecordedLine[] = [];
  const at =
    (level: string) =>
    (fields: object, message?: string): void => {
      lines.push({ level, fields, message });
    };
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
