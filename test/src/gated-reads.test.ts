import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import {
  MusicClient as Client,
  type MusicClient,
  ParseError,
  ServiceError,
  StatusFailedError,
} from "../../src/index.js";
import { readRefusal } from "../../src/transport/refusals.js";
import { describeWithFixtures, loadResponse } from "../support/fixtures.js";
import { type Served, serve } from "../support/page-server.js";

/**
 * Reads the service refuses with HTTP 200 (a feature-gate panel in place of the page, or a failed
 * status) fail with the typed service error naming the operation, before any parser runs, and are
 * not retried; a body that is merely malformed still gives a ParseError naming the JSON path.
 */

/** What the emulator's `gated` fault sends (emulator/server.ts). */
const GATED = {
  responseContext: {},
  actions: [{ showEngagementPanelEndpoint: { identifier: { tag: "PAfeature_enablement" } } }],
};
/** What the emulator's `failed-status` fault sends. */
const FAILED = { responseContext: {}, status: "STATUS_FAILED" };

/** Several reads of different shapes: browse pages (plain and paged), watch, search, the player. */
const READS: { operation: string; call: (client: MusicClient) => Promise<unknown> }[] = [
  { operation: "get_liked_songs", call: (c) => c.getLikedSongs() },
  { operation: "get_playlist", call: (c) => c.getPlaylist("PLabcdefghijklmnop") },
  { operation: "get_watch_playlist", call: (c) => c.getWatchPlaylist({ videoId: "abcdefghijk" }) },
  { operation: "get_library_playlists", call: (c) => c.getLibraryPlaylists() },
  { operation: "get_album", call: (c) => c.getAlbum("MPREb_abcdefghijk") },
  { operation: "get_history", call: (c) => c.getHistory() },
  { operation: "search", call: (c) => c.search("road trip") },
];

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A client whose reads would be retried on any retryable failure, answered by `pages` in order. */
async function serveWithRetries(pages: unknown[]): Promise<Served> {
  served = await serve(pages, {
    auth: true,
    client: { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1, totalMs: 5_000 } },
  });
  return served;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value).slice(0, 200)}`);
    },
    (error: unknown) => error,
  );
}

describe("a read answered with only a feature-gate panel", () => {
  // docs/PROTOCOL.md#errors (a refused read): a gate panel to a read was a ParseError about a missing `contents`
  it.each(READS)("$operation raises ServiceError GATED naming the operation, sent once", async (read) => {
    const { client, innertube } = await serveWithRetries([GATED, GATED, GATED]);
    const error = await failure(read.call(client));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).not.toBeInstanceOf(ParseError);
    expect((error as ServiceError).code).toBe("GATED");
    expect((error as ServiceError).operation).toBe(read.operation);
    expect((error as Error).message).toBe(
      `${read.operation}: the service answered with a feature-gate panel (PAfeature_enablement) instead of the page`,
    );
    // The gate is not a passing fault: the client does not ask again (the caller's next run will).
    expect(innertube()).toHaveLength(1);
  });
});

describe("a read answered with a failed status", () => {
  // docs/PROTOCOL.md#errors (a refused read): STATUS_FAILED to a read was a ParseError about a missing `contents`
  it.each(READS)("$operation raises StatusFailedError naming the operation, sent once", async (read) => {
    const { client, innertube } = await serveWithRetries([FAILED, FAILED, FAILED]);
    const error = await failure(read.call(client));
    expect(error).toBeInstanceOf(StatusFailedError);
    expect((error as StatusFailedError).code).toBe("STATUS_FAILED");
    expect((error as StatusFailedError).operation).toBe(read.operation);
    expect((error as StatusFailedError).serviceStatus).toBe("STATUS_FAILED");
    expect((error as StatusFailedError).response).toEqual(FAILED);
    expect((error as Error).message).toBe(
      `${read.operation}: the service answered STATUS_FAILED instead of the page`,
    );
    expect(innertube()).toHaveLength(1);
  });
});

describe("a read answered with a malformed page", () => {
  it("still raises a ParseError naming the JSON path where the page was missing", async () => {
    const { client } = await serveWithRetries([{ responseContext: {}, contents: { somethingElse: {} } }]);
    const error = await failure(client.getLikedSongs());
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).operation).toBe("get_liked_songs");
    expect((error as ParseError).path).toMatch(/^contents\./);
    expect((error as Error).message).toContain(`at ${(error as ParseError).path}`);
  });

  it("is a ParseError, not GATED, when a gate panel comes with a page the parser cannot read", async () => {
    const { client } = await serveWithRetries([{ ...GATED, contents: { somethingElse: {} } }]);
    const error = await failure(client.getPlaylist("PLabcdefghijklmnop"));
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).path).toMatch(/^contents\./);
  });
});

describe("which bodies count as refusals", () => {
  it("does not refuse an empty answer, a page, or a succeeded status", () => {
    expect(readRefusal("search", {})).toBeUndefined();
    expect(readRefusal("search", { responseContext: {}, trackingParams: "x" })).toBeUndefined();
    expect(readRefusal("search", { contents: {}, actions: GATED.actions })).toBeUndefined();
    expect(readRefusal("search", { status: "STATUS_SUCCEEDED", contents: {} })).toBeUndefined();
    expect(readRefusal("search", [GATED])).toBeUndefined();
  });

  it("refuses a gate panel without a tag, and any failed status word", () => {
    const untagged = readRefusal("get_home", { actions: [{ showEngagementPanelEndpoint: {} }] });
    expect(untagged?.message).toBe(
      "get_home: the service answered with a feature-gate panel instead of the page",
    );
    expect(readRefusal("get_home", { status: "STATUS_UNKNOWN" })).toBeInstanceOf(StatusFailedError);
  });
});

describeWithFixtures("real captures", () => {
  it("a collaborative playlist, whose page opens an engagement panel inside it, is read as a page", async () => {
    const { client } = await serveWithRetries([loadResponse("ytm_2025_10_get_playlist_collaborative")]);
    const playlist = await client.getPlaylist("PLxyTaDz8f5PBc-8kE36gvB-eflhODG2dw");
    expect(playlist.id).toBe("PLxyTaDz8f5PBc-8kE36gvB-eflhODG2dw");
  });

  // docs/PROTOCOL.md#errors (a refused read): a gated continuation page is refused as well, not half-parsed
  it("a gate panel in place of a continuation page fails the whole read with GATED", async () => {
    const { client, innertube } = await serveWithRetries([loadResponse("yt_get_playlist_20250604"), GATED]);
    const error = await failure(client.getPlaylist("PL0jp-uZ7a4g9FQWW5R_u0pz4yzV4RiOXu", { limit: 1000 }));
    expect((error as ServiceError).code).toBe("GATED");
    expect((error as ServiceError).operation).toBe("get_playlist");
    expect(innertube()).toHaveLength(2);
  });
});

describe("against the emulator's faults", () => {
  let emu: RunningEmulator | undefined;
  afterEach(async () => {
    await emu?.stop();
    emu = undefined;
  });

  async function queueFault(kind: string): Promise<void> {
    const r = await request(`${(emu as RunningEmulator).url}/_emulator/faults`, {
      method: "POST",
      body: JSON.stringify({ queue: [{ kind, endpoint: "browse" }] }),
    });
    expect(r.statusCode).toBe(200);
    await r.body.dump();
  }

  // docs/PROTOCOL.md#errors (a refused read): the soak suite's reproduction, with the real fault
  it("get_liked_songs under a gated and a failed-status browse fault gives the typed errors", async () => {
    emu = await startEmulator({ catalogueSize: 50, seed: 3 });
    const headers = await request(`${emu.url}/_emulator/accounts/1/headers`);
    const client = new Client({ baseUrl: emu.url, auth: JSON.stringify(await headers.body.json()) });

    await queueFault("gated");
    const gated = await failure(client.getLikedSongs());
    expect((gated as ServiceError).code).toBe("GATED");
    expect((gated as Error).message).toMatch(
      /^get_liked_songs: the service answered with a feature-gate panel/,
    );

    await queueFault("failed-status");
    const failed = await failure(client.getLikedSongs());
    expect(failed).toBeInstanceOf(StatusFailedError);
    expect((failed as Error).message).toBe(
      "get_liked_songs: the service answered STATUS_FAILED instead of the page",
    );

    // The faults are used up: the same read now goes through.
    expect((await client.getLikedSongs()).id).toBe("LM");
  });
});
