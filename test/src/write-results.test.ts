import { request } from "undici";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import {
  type AddedPlaylistItem,
  ArgumentError,
  type CollaborationResult,
  MusicClient,
  type WriteFailure,
} from "../../src/index.js";

/**
 * Write results as a caller meets them: the rows `getPlaylist` returns go straight back into
 * `removePlaylistItems`, and comparing `status` with the success word narrows a result. The type
 * checks run under `tsc` (`npm run typecheck`); the calls run against the emulator.
 */
let emu: RunningEmulator;
let client: MusicClient;
beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 200, seed: 5 });
  const headers = await request(`${emu.url}/_emulator/accounts/1/headers`);
  client = new MusicClient({
    baseUrl: emu.url,
    auth: JSON.stringify(await headers.body.json()),
    retry: false,
  });
});
afterAll(async () => {
  await emu?.stop();
});

describe("write result types", () => {
  it("narrow on `status` to the success shape, and `===` on the status-only writes", () => {
    // Never called: the compiler checks these bodies.
    const narrowing = async (c: MusicClient) => {
      const added = await c.addPlaylistItems("PL1", ["v"]);
      if (added.status === "STATUS_SUCCEEDED") {
        expectTypeOf(added.playlistEditResults).toEqualTypeOf<AddedPlaylistItem[]>();
      } else {
        expectTypeOf(added).toEqualTypeOf<WriteFailure>();
      }
      const invite = await c.editPlaylist("PL1", { collaboration: true });
      if (invite.status === "STATUS_SUCCEEDED") expectTypeOf(invite.joinCollaborationToken).toBeString();
      else expectTypeOf(invite).toEqualTypeOf<WriteFailure>();
      const renamed = await c.editPlaylist("PL1", { title: "t" });
      if (renamed !== "STATUS_SUCCEEDED")
        expectTypeOf(renamed.status).toEqualTypeOf<"STATUS_FAILED" | undefined>();
      expectTypeOf(c.deletePlaylist).returns.resolves.toEqualTypeOf<"STATUS_SUCCEEDED" | WriteFailure>();
      expectTypeOf(c.editPlaylist).parameter(1).not.toBeNever();
      const flag = Math.random() > 0.5;
      const either = await c.editPlaylist("PL1", { collaboration: flag });
      expectTypeOf(either).toEqualTypeOf<"STATUS_SUCCEEDED" | WriteFailure | CollaborationResult>();
      const playlist = await c.getPlaylist("PL1");
      // The rows as they came, `videoId: string | null` and all.
      expectTypeOf(c.removePlaylistItems).toBeCallableWith("PL1", playlist.tracks);
    };
    expect(typeof narrowing).toBe("function");
  });
});

describe("removePlaylistItems with getPlaylist's rows", () => {
  it("removes the rows of an owned playlist given as they came", async () => {
    const songs = await client.search("a", { filter: "songs", limit: 5 });
    const ids = songs.map((s) => s.videoId).filter((id): id is string => typeof id === "string");
    const created = await client.createPlaylist("write results", "", { videoIds: ids.slice(0, 3) });
    expect(typeof created).toBe("string");
    const id = created as string;
    const before = await client.getPlaylist(id);
    expect(before.tracks).toHaveLength(3);
    const result = await client.removePlaylistItems(id, before.tracks.slice(0, 2));
    expect(result).toBe("STATUS_SUCCEEDED");
    expect((await client.getPlaylist(id)).tracks.map((t) => t.videoId)).toEqual([before.tracks[2]?.videoId]);
  });

  it("refuses a row without a setVideoId, naming it by its title, before any request", async () => {
    const song = (await client.search("a", { filter: "songs", limit: 1 }))[0];
    const row = { videoId: song?.videoId ?? null, title: "A Row From Search" };
    const requests = JSON.stringify(emu.counts());
    const error = await client.removePlaylistItems("PLanything", [row]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as ArgumentError).argument).toBe("videos");
    expect((error as ArgumentError).message).toContain("item 0 (videoId ");
    expect((error as ArgumentError).message).toContain('"A Row From Search") has no setVideoId');
    expect(JSON.stringify(emu.counts())).toBe(requests);
  });

  it("refuses a row whose videoId is null, naming it by its title", async () => {
    const error = await client
      .removePlaylistItems("PLanything", [{ videoId: null, setVideoId: "S1", title: "Unplayable" }])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as ArgumentError).message).toMatch(/item 0 \("Unplayable"\) has no videoId$/);
  });
});

describe("a failed write", () => {
  it("comes back as the service's answer, which `status` tells apart", async () => {
    const id = (await client.createPlaylist("dupes", "", { videoIds: [] })) as string;
    const song = (await client.search("a", { filter: "songs", limit: 1 }))[0];
    const videoId = song?.videoId ?? "";
    const first = await client.addPlaylistItems(id, [videoId]);
    expect(first.status).toBe("STATUS_SUCCEEDED");
    if (first.status === "STATUS_SUCCEEDED") expect(first.playlistEditResults[0]?.videoId).toBe(videoId);
    const again = await client.addPlaylistItems(id, [videoId]);
    expect(again.status).not.toBe("STATUS_SUCCEEDED");
    expect(again).not.toHaveProperty("playlistEditResults");
  });
});
