import { onTestFinished } from "vitest";
import { MusicClient, type MusicClientOptions } from "../../../src/index.js";
import { TEST_BROWSER_AUTH } from "../../support/fixtures.js";
import {
  endpointOf,
  type Handler,
  type SeenRequest,
  START_PAGE,
  startServer,
  type TestServer,
} from "../../support/replay-server.js";

/**
 * A local service for the library, playlist and upload tests: a server on 127.0.0.1 that answers the
 * start page itself and hands every InnerTube request to the test's handler, and a client with test
 * browser headers pointed at it. A server is closed when the test that started it ends: by a hook
 * of that test, since a hook of this module would be registered only for the first file that loads
 * it in a worker that runs several files (vitest.config.ts).
 */

export interface Service {
  server: TestServer;
  client: MusicClient;
  /** The InnerTube requests seen so far. */
  api(): SeenRequest[];
  /** Everything else (tracking GETs, uploads), start page left out. */
  other(): SeenRequest[];
}

export async function startService(
  handler: Handler,
  options: Partial<MusicClientOptions> & { anonymous?: boolean } = {},
): Promise<Service> {
  const server = await startServer((request) => {
    if (request.path === "/" && request.method === "GET") return { body: START_PAGE };
    return handler(request);
  });
  onTestFinished(() => server.close());
  const { anonymous, ...rest } = options;
  const client = new MusicClient({
    baseUrl: server.url,
    uploadUrl: server.url,
    auth: anonymous ? undefined : TEST_BROWSER_AUTH,
    retry: false,
    ...rest,
  });
  return {
    server,
    client,
    api: () => server.requests.filter((r) => endpointOf(r.path) !== null),
    other: () => server.requests.filter((r) => endpointOf(r.path) === null && r.path !== "/"),
  };
}

/** The operation fields of an InnerTube request body (its `context` left out). */
export function fields(request: SeenRequest | undefined): Record<string, unknown> {
  const { context: _context, ...rest } = (request?.json ?? {}) as Record<string, unknown>;
  return rest;
}

/** The continuation query parameters of a request (`&ctoken=…&continuation=…`), or "". */
export function ctoken(request: SeenRequest | undefined): string | null {
  return new URLSearchParams(request?.query ?? "").get("ctoken");
}

/** A shape-A continuation answer. */
export function classicPage(type: string, items: unknown[], token: string | null, key = "contents") {
  const page: Record<string, unknown> = { [key]: items };
  if (token !== null) page.continuations = [{ nextContinuationData: { continuation: token } }];
  return { continuationContents: { [type]: page } };
}
