import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { api, at, call, findAll, headersFor, type Json, PLAYLIST_ROWS, SECTION_LIST } from "./helpers.js";

let emu: RunningEmulator;
let auth: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 300, seed: 11 });
});
beforeEach(async () => {
  // Headers carry a time-stamped hash: fetch fresh ones for each test.
  auth = await headersFor(emu, 1);
});
afterAll(async () => {
  await emu?.stop();
});

const songs = (n: number, offset = 0): string[] =>
  (
    emu.state.store.sqlite
      .prepare(
        "SELECT video_id AS v FROM songs WHERE video_type = 'MUSIC_VIDEO_TYPE_ATV' AND available = 1 ORDER BY id LIMIT ? OFFSET ?",
      )
      .all(n, offset) as { v: string }[]
  ).map((r) => r.v);

async function create(title: string, videoIds: string[] = [], privacy = "PRIVATE"): Promise<string> {
  const r = await api(
    emu,
    "playlist/create",
    { title, description: "d", privacyStatus: privacy, videoIds },
    auth,
  );
  expect(r.status).toBe(200);
  return String(at(r.json, "playlistId"));
}

interface Row {
  videoId: string;
  setVideoId: string;
}

async function rowsOf(playlistId: string): Promise<Row[]> {
  const out: Row[] = [];
  let r = await api(emu, "browse", { browseId: `VL${playlistId}` }, auth);
  expect(r.status).toBe(200);
  let items = (at(r.json, ...PLAYLIST_ROWS) as Json[]) ?? [];
  for (;;) {
    for (const i of items) {
      const data = at(i, "musicResponsiveListItemRenderer", "playlistItemData") as Json | undefined;
      if (data) out.push({ videoId: String(data.videoId), setVideoId: String(data.playlistSetVideoId) });
    }
    const token = at(
      items.at(-1),
      "continuationItemRenderer",
      "continuationEndpoint",
      "continuationCommand",
      "token",
    );
    if (typeof token !== "string") return out;
    r = await api(emu, "browse", { continuation: token }, auth);
    items = at(
      r.json,
      "onResponseReceivedActions",
      0,
      "appendContinuationItemsAction",
      "continuationItems",
    ) as Json[];
  }
}

const edit = (playlistId: string, actions: Json[]) =>
  api(emu, "browse/edit_playlist", { playlistId, actions }, auth);

describe("playlists", () => {
  it("creates a playlist that its owner reads back with the editable header", async () => {
    const v = songs(3);
    const id = await create("Trip", v, "UNLISTED");
    const r = await api(emu, "browse", { browseId: `VL${id}` }, auth);
    const header = at(
      r.json,
      "contents",
      "twoColumnBrowseResultsRenderer",
      "tabs",
      0,
      "tabRenderer",
      "content",
      "sectionListRenderer",
      "contents",
      0,
      "musicEditablePlaylistDetailHeaderRenderer",
    ) as Json;
    expect(at(header, "editHeader", "musicPlaylistEditHeaderRenderer", "privacy")).toBe("UNLISTED");
    expect(at(header, "header", "musicResponsiveHeaderRenderer", "title", "runs", 0, "text")).toBe("Trip");
    expect((await rowsOf(id)).map((x) => x.videoId)).toEqual(v);
    // Someone else cannot see a private list nor edit an unlisted one.
    const other = await headersFor(emu, 2);
    expect(
      (
        await api(
          emu,
          "browse/edit_playlist",
          { playlistId: id, actions: [{ action: "ACTION_SET_PLAYLIST_NAME", playlistName: "x" }] },
          other,
        )
      ).status,
    ).toBe(403);
  });

  it("refuses bad titles and descriptions, and changes nothing", async () => {
    expect(
      (await api(emu, "playlist/create", { title: "<b>x</b>", privacyStatus: "PRIVATE" }, auth)).status,
    ).toBe(400);
    expect((await api(emu, "playlist/create", { title: "x".repeat(151) }, auth)).status).toBe(400);
    expect((await api(emu, "playlist/create", { title: "ok", privacyStatus: "SECRET" }, auth)).status).toBe(
      400,
    );
    const id = await create("Keep");
    const r = await edit(id, [
      { action: "ACTION_SET_PLAYLIST_NAME", playlistName: "Renamed" },
      { action: "ACTION_SET_PLAYLIST_DESCRIPTION", playlistDescription: "<script>" },
    ]);
    expect(r.status).toBe(400);
    expect(emu.state.store.playlists.playlist(id)?.title).toBe("Keep");
  });

  it("edits title, description and privacy", async () => {
    const id = await create("Old");
    const r = await edit(id, [
      { action: "ACTION_SET_PLAYLIST_NAME", playlistName: "New" },
      { action: "ACTION_SET_PLAYLIST_DESCRIPTION", playlistDescription: "about" },
      { action: "ACTION_SET_PLAYLIST_PRIVACY", playlistPrivacy: "PUBLIC" },
    ]);
    expect(at(r.json, "status")).toBe("STATUS_SUCCEEDED");
    const p = emu.state.store.playlists.playlist(id)!;
    expect([p.title, p.description, p.privacy]).toEqual(["New", "about", "PUBLIC"]);
  });

  it("adds items; a duplicate without the dedupe option fails the whole request and adds nothing", async () => {
    const [a, b, c] = songs(3, 10);
    const id = await create("Dups", [a!]);
    const ok = await edit(id, [{ action: "ACTION_ADD_VIDEO", addedVideoId: b }]);
    expect(at(ok.json, "status")).toBe("STATUS_SUCCEEDED");
    const added = at(ok.json, "playlistEditResults", 0, "playlistEditVideoAddedResultData") as Json;
    expect(added.videoId).toBe(b);
    expect(typeof added.setVideoId).toBe("string");

    const failed = await edit(id, [
      { action: "ACTION_ADD_VIDEO", addedVideoId: c },
      { action: "ACTION_ADD_VIDEO", addedVideoId: a },
    ]);
    expect(failed.status).toBe(200);
    expect(at(failed.json, "status")).toBe("STATUS_FAILED");
    expect((await rowsOf(id)).map((r) => r.videoId)).toEqual([a, b]);

    const skip = await edit(id, [
      { action: "ACTION_ADD_VIDEO", addedVideoId: a, dedupeOption: "DEDUPE_OPTION_SKIP" },
    ]);
    expect(at(skip.json, "status")).toBe("STATUS_SUCCEEDED");
    expect((await rowsOf(id)).map((r) => r.videoId)).toEqual([a, b, a]);
  });

  it("adds a whole playlist, and to the top once add-to-top is set", async () => {
    const [a, b, c, d] = songs(4, 20);
    const source = await create("Source", [c!, d!]);
    const id = await create("Target", [a!]);
    await edit(id, [{ action: "ACTION_SET_ADD_TO_TOP", addToTop: "true" }]);
    const r = await edit(id, [{ action: "ACTION_ADD_VIDEO", addedVideoId: b }]);
    expect(at(r.json, "status")).toBe("STATUS_SUCCEEDED");
    expect((await rowsOf(id)).map((x) => x.videoId)).toEqual([b, a]);
    await edit(id, [{ action: "ACTION_SET_ADD_TO_TOP", addToTop: "false" }]);
    const all = await edit(id, [
      { action: "ACTION_ADD_PLAYLIST", addedFullListId: source },
      { action: "ACTION_ADD_VIDEO", addedVideoId: null },
    ]);
    expect((at(all.json, "playlistEditResults") as unknown[]).length).toBe(2);
    expect((await rowsOf(id)).map((x) => x.videoId)).toEqual([b, a, c, d]);
  });

  it("moves an item before another and to the end, and removes by setVideoId", async () => {
    const v = songs(4, 30);
    const id = await create("Order", v);
    let rows = await rowsOf(id);
    await edit(id, [
      {
        action: "ACTION_MOVE_VIDEO_BEFORE",
        setVideoId: rows[3]!.setVideoId,
        movedSetVideoIdSuccessor: rows[1]!.setVideoId,
      },
    ]);
    expect((await rowsOf(id)).map((r) => r.videoId)).toEqual([v[0], v[3], v[1], v[2]]);
    rows = await rowsOf(id);
    await edit(id, [{ action: "ACTION_MOVE_VIDEO_BEFORE", setVideoId: rows[0]!.setVideoId }]);
    expect((await rowsOf(id)).map((r) => r.videoId)).toEqual([v[3], v[1], v[2], v[0]]);
    rows = await rowsOf(id);
    const r = await edit(id, [
      { action: "ACTION_REMOVE_VIDEO", setVideoId: rows[1]!.setVideoId, removedVideoId: rows[1]!.videoId },
    ]);
    expect(at(r.json, "status")).toBe("STATUS_SUCCEEDED");
    expect((await rowsOf(id)).map((x) => x.videoId)).toEqual([v[3], v[2], v[0]]);
    const unknown = await edit(id, [
      { action: "ACTION_REMOVE_VIDEO", setVideoId: "FFFFFFFFFFFFFFFF", removedVideoId: v[0] },
    ]);
    expect(unknown.status).toBe(400);
  });

  it("pages long playlists in rows of 100 with shape-C continuations", async () => {
    const v = songs(250);
    const id = await create("Long", v);
    const first = await api(emu, "browse", { browseId: `VL${id}` }, auth);
    const items = at(first.json, ...PLAYLIST_ROWS) as Json[];
    expect(items.length).toBe(101);
    expect(at(items.at(-1), "continuationItemRenderer")).toBeDefined();
    expect((await rowsOf(id)).map((r) => r.videoId)).toEqual(v);
  });

  it("stops at 5,000 items", async () => {
    const pool = songs(250);
    const many = Array.from({ length: 4999 }, (_, i) => pool[i % pool.length]!);
    const id = await create("Full", many);
    const r = await edit(id, [
      { action: "ACTION_ADD_VIDEO", addedVideoId: pool[0], dedupeOption: "DEDUPE_OPTION_SKIP" },
      { action: "ACTION_ADD_VIDEO", addedVideoId: pool[1], dedupeOption: "DEDUPE_OPTION_SKIP" },
    ]);
    expect(at(r.json, "status")).toBe("STATUS_FAILED");
    expect(emu.state.store.playlists.playlistStats(id).count).toBe(4999);
  });

  it("shares a playlist through an invite link; a collaborator adds items but cannot rename it", async () => {
    const [a, b] = songs(2, 60);
    const id = await create("Together", [a!]);
    const invite = await edit(id, [{ action: "ACTION_CREATE_COLLABORATION_INVITE_LINK" }]);
    const link = new URL(String(at(invite.json, "collaborationInviteLink")));
    const jct = link.searchParams.get("jct");
    expect(jct).toBeTruthy();
    const friend = await headersFor(emu, 2);
    const join = (token: unknown) =>
      api(
        emu,
        "browse/edit_playlist",
        { playlistId: id, actions: [{ action: "ACTION_JOIN_COLLABORATION", joinCollaborationToken: token }] },
        friend,
      );
    expect((await join("wrong")).status).toBe(403);
    expect(at((await join(jct)).json, "status")).toBe("STATUS_SUCCEEDED");
    expect((await join(jct)).status).toBe(401);
    const added = await api(
      emu,
      "browse/edit_playlist",
      { playlistId: id, actions: [{ action: "ACTION_ADD_VIDEO", addedVideoId: b }] },
      friend,
    );
    expect(at(added.json, "status")).toBe("STATUS_SUCCEEDED");
    expect((await rowsOf(id)).map((r) => r.videoId)).toEqual([a, b]);
    const rename = await api(
      emu,
      "browse/edit_playlist",
      { playlistId: id, actions: [{ action: "ACTION_SET_PLAYLIST_NAME", playlistName: "Mine" }] },
      friend,
    );
    expect(rename.status).toBe(403);
    await edit(id, [{ action: "ACTION_SET_CLOSED_TO_CONTRIBUTIONS", closedToContributions: true }]);
    const stranger = await headersFor(emu, 3);
    const late = await api(
      emu,
      "browse/edit_playlist",
      { playlistId: id, actions: [{ action: "ACTION_JOIN_COLLABORATION", joinCollaborationToken: jct }] },
      stranger,
    );
    expect(late.status).toBe(403);
  });

  it("deletes a playlist", async () => {
    const id = await create("Bye");
    const r = await api(emu, "playlist/delete", { playlistId: id }, auth);
    expect(at(r.json, "status")).toBe("STATUS_SUCCEEDED");
    expect((await api(emu, "browse", { browseId: `VL${id}` }, auth)).status).toBe(404);
    expect((await api(emu, "playlist/delete", { playlistId: id }, auth)).status).toBe(404);
  });
});

describe("ratings, library, subscriptions", () => {
  it("likes a song into LM and removes the like", async () => {
    const [s] = songs(1, 100);
    const liked = async () => (await rowsOf("LM")).map((r) => r.videoId);
    expect(await liked()).not.toContain(s);
    const r = await api(emu, "like/like", { target: { videoId: s } }, auth);
    expect(Array.isArray(at(r.json, "actions"))).toBe(true);
    expect((await liked())[0]).toBe(s);
    await api(emu, "like/removelike", { target: { videoId: s } }, auth);
    expect(await liked()).not.toContain(s);
    expect((await api(emu, "like/like", { target: { videoId: "nope" } }, auth)).status).toBe(404);
  });

  it("saves an album to the library by rating its playlist", async () => {
    const album = emu.state.store.sqlite
      .prepare("SELECT browse_id AS b, audio_playlist_id AS p FROM albums LIMIT 1 OFFSET 2")
      .get() as { b: string; p: string };
    const listed = async () =>
      findAll((await api(emu, "browse", { browseId: "FEmusic_liked_albums" }, auth)).json, "browseId");
    expect(await listed()).not.toContain(album.b);
    await api(emu, "like/like", { target: { playlistId: album.p } }, auth);
    expect(await listed()).toContain(album.b);
    const page = await api(emu, "browse", { browseId: album.b }, auth);
    expect(findAll(page.json, "toggleButtonRenderer").some((t) => (t as Json).isToggled === true)).toBe(true);
    await api(emu, "like/removelike", { target: { playlistId: album.p } }, auth);
    expect(await listed()).not.toContain(album.b);
  });

  it("adds and removes a library song with the feedback tokens from its row", async () => {
    const [s] = songs(1, 120);
    const search = await api(emu, "next", { videoId: s }, auth);
    const toggle = findAll(search.json, "toggleMenuServiceItemRenderer").find(
      (t) => at(t, "defaultIcon", "iconType") === "BOOKMARK_BORDER",
    ) as Json;
    expect(toggle.isToggled).toBe(false);
    const add = at(toggle, "defaultServiceEndpoint", "feedbackEndpoint", "feedbackToken");
    const remove = at(toggle, "toggledServiceEndpoint", "feedbackEndpoint", "feedbackToken");
    const r = await api(emu, "feedback", { feedbackTokens: [add] }, auth);
    expect(at(r.json, "feedbackResponses", 0, "isProcessed")).toBe(true);
    const library = async () =>
      findAll((await api(emu, "browse", { browseId: "FEmusic_liked_videos" }, auth)).json, "videoId");
    expect(await library()).toContain(s);
    await api(emu, "feedback", { feedbackTokens: [remove] }, auth);
    expect(await library()).not.toContain(s);
    const junk = await api(emu, "feedback", { feedbackTokens: ["junk"] }, auth);
    expect(at(junk.json, "feedbackResponses", 0, "isProcessed")).toBe(false);
  });

  it("pins a song to Listen again with the token from its home card", async () => {
    const listenAgain = async () => {
      let r = await api(emu, "browse", { browseId: "FEmusic_home" }, auth);
      for (let page = 0; page < 5; page++) {
        const shelf = (findAll(r.json, "musicCarouselShelfRenderer") as Json[]).find(
          (c) =>
            at(c, "header", "musicCarouselShelfBasicHeaderRenderer", "title", "runs", 0, "text") ===
            "Listen again",
        );
        if (shelf) return shelf.contents as Json[];
        const token = findAll(r.json, "nextContinuationData").map((d) => (d as Json).continuation)[0];
        r = await api(emu, "browse", { browseId: "FEmusic_home" }, auth, {
          query: `&ctoken=${token}&continuation=${token}`,
        });
      }
      throw new Error("no Listen again row");
    };
    const cards = await listenAgain();
    const last = cards.at(-1)!;
    const pin = (findAll(last, "toggleMenuServiceItemRenderer") as Json[]).find(
      (t) => at(t, "defaultIcon", "iconType") === "KEEP",
    )!;
    expect(pin.isToggled).toBe(false);
    const token = at(pin, "defaultServiceEndpoint", "feedbackEndpoint", "feedbackToken");
    const r = await api(emu, "feedback", { feedbackTokens: [token] }, auth);
    expect(at(r.json, "feedbackResponses", 0, "isProcessed")).toBe(true);
    const after = await listenAgain();
    const videoId = (c: Json) =>
      at(c, "musicTwoRowItemRenderer", "navigationEndpoint", "watchEndpoint", "videoId");
    expect(videoId(after[0]!)).toBe(videoId(last));
    const pinned = (findAll(after[0], "toggleMenuServiceItemRenderer") as Json[]).find(
      (t) => at(t, "defaultIcon", "iconType") === "KEEP",
    )!;
    expect(pinned.isToggled).toBe(true);
  });

  it("subscribes one artist at a time and lists it in subscriptions", async () => {
    const artist = (
      emu.state.store.sqlite
        .prepare("SELECT channel_id AS c FROM artists WHERE kind = 'artist' ORDER BY id DESC LIMIT 1")
        .get() as { c: string }
    ).c;
    const subs = async () =>
      findAll(
        (await api(emu, "browse", { browseId: "FEmusic_library_corpus_artists" }, auth)).json,
        "browseId",
      );
    expect(await subs()).not.toContain(artist);
    await api(emu, "subscription/subscribe", { channelIds: [artist] }, auth);
    expect(await subs()).toContain(artist);
    const page = await api(emu, "browse", { browseId: artist }, auth);
    expect(
      at(
        page.json,
        "header",
        "musicImmersiveHeaderRenderer",
        "subscriptionButton",
        "subscribeButtonRenderer",
        "subscribed",
      ),
    ).toBe(true);
    await api(emu, "subscription/unsubscribe", { channelIds: [artist] }, auth);
    expect(await subs()).not.toContain(artist);
    expect((await api(emu, "subscription/subscribe", { channelIds: [artist, artist] }, auth)).status).toBe(
      400,
    );
  });
});

describe("history, episodes, uploads", () => {
  it("records a play through the player's tracking URL and removes it with its history token", async () => {
    const [s] = songs(1, 140);
    const player = await api(
      emu,
      "player",
      { video_id: s, playbackContext: { contentPlaybackContext: { signatureTimestamp: 1 } } },
      auth,
    );
    const url = String(at(player.json, "playbackTracking", "videostatsPlaybackUrl", "baseUrl"));
    expect(url.startsWith(emu.url)).toBe(true);
    const u = new URL(url);
    u.searchParams.set("ver", "2");
    u.searchParams.set("c", "WEB_REMIX");
    u.searchParams.set("cpn", "abcdefghijklmnop");
    const fresh = await headersFor(emu, 1);
    const hit = await call(emu, u.pathname + u.search, { headers: fresh });
    expect(hit.status).toBe(204);
    const history = await api(emu, "browse", { browseId: "FEmusic_history" }, fresh);
    const today = at(history.json, ...SECTION_LIST, "contents", 0, "musicShelfRenderer") as Json;
    expect(at(today, "title", "runs", 0, "text")).toBe("Today");
    const first = at(today, "contents", 0, "musicResponsiveListItemRenderer") as Json;
    expect(at(first, "playlistItemData", "videoId")).toBe(s);
    const item = (at(first, "menu", "menuRenderer", "items") as Json[]).find(
      (i) => at(i, "menuServiceItemRenderer", "icon", "iconType") === "REMOVE_FROM_HISTORY",
    );
    const token = at(item, "menuServiceItemRenderer", "serviceEndpoint", "feedbackEndpoint", "feedbackToken");
    const removed = await api(emu, "feedback", { feedbackTokens: [token] }, fresh);
    expect(at(removed.json, "feedbackResponses", 0, "isProcessed")).toBe(true);
    const after = await api(emu, "browse", { browseId: "FEmusic_history" }, fresh);
    const firstAfter = at(
      after.json,
      ...SECTION_LIST,
      "contents",
      0,
      "musicShelfRenderer",
      "contents",
      0,
      "musicResponsiveListItemRenderer",
      "playlistItemData",
      "videoId",
    );
    expect(firstAfter).not.toBe(s);
  });

  it("saves an episode for later and removes it", async () => {
    const ep = (
      emu.state.store.sqlite.prepare("SELECT video_id AS v FROM episodes LIMIT 1").get() as { v: string }
    ).v;
    const add = await edit("SE", [{ action: "ACTION_ADD_VIDEO", addedVideoId: ep }]);
    expect(at(add.json, "status")).toBe("STATUS_SUCCEEDED");
    expect((await rowsOf("SE")).map((r) => r.videoId)).toEqual([ep]);
    const dup = await edit("SE", [{ action: "ACTION_ADD_VIDEO", addedVideoId: ep }]);
    expect(at(dup.json, "status")).toBe("STATUS_FAILED");
    await edit("SE", [{ action: "ACTION_REMOVE_VIDEO_BY_VIDEO_ID", removedVideoId: ep }]);
    expect(await rowsOf("SE")).toEqual([]);
  });

  it("uploads in two steps, lists the track, refuses the same file twice and deletes it", async () => {
    const start = await call(emu, "/upload/usermusic/http?authuser=0", {
      body: "filename=Some Artist - Some Song.mp3",
      headers: {
        ...auth,
        "content-type": "application/x-www-form-urlencoded;charset=utf-8",
        "x-goog-upload-command": "start",
        "x-goog-upload-header-content-length": "32000",
        "x-goog-upload-protocol": "resumable",
      },
    });
    expect(start.status).toBe(200);
    const target = new URL(String(start.headers["x-goog-upload-url"]));
    const send = () =>
      call(emu, target.pathname + target.search, {
        body: Buffer.alloc(32000, 7),
        headers: { ...auth, "x-goog-upload-command": "upload, finalize", "x-goog-upload-offset": "0" },
      });
    expect((await send()).status).toBe(200);
    const list = await api(emu, "browse", { browseId: "FEmusic_library_privately_owned_tracks" }, auth);
    const entity = findAll(list.json, "musicDeletePrivatelyOwnedEntityCommand")[0] as Json;
    expect(String(entity.entityId)).toMatch(/^t_po_/);
    expect(JSON.stringify(list.json)).toContain("Some Song");

    const again = await call(emu, "/upload/usermusic/http?authuser=0", {
      body: "filename=Some Artist - Some Song.mp3",
      headers: { ...auth, "x-goog-upload-command": "start", "x-goog-upload-header-content-length": "32000" },
    });
    const t2 = new URL(String(again.headers["x-goog-upload-url"]));
    const second = await call(emu, t2.pathname + t2.search, {
      body: Buffer.alloc(32000, 7),
      headers: { ...auth, "x-goog-upload-command": "upload, finalize", "x-goog-upload-offset": "0" },
    });
    expect(second.status).toBe(409);

    const del = await api(emu, "music/delete_privately_owned_entity", { entityId: entity.entityId }, auth);
    expect(at(del.json, "error")).toBeUndefined();
    const empty = await api(emu, "browse", { browseId: "FEmusic_library_privately_owned_tracks" }, auth);
    expect(findAll(empty.json, "musicDeletePrivatelyOwnedEntityCommand")).toEqual([]);
    expect(
      (await api(emu, "music/delete_privately_owned_entity", { entityId: entity.entityId }, auth)).status,
    ).toBe(404);
  });

  it("refuses uploads without cookie credentials", async () => {
    const r = await call(emu, "/upload/usermusic/http", {
      body: "filename=x.mp3",
      headers: { "x-goog-upload-command": "start", "x-goog-upload-header-content-length": "10" },
    });
    expect(r.status).toBe(401);
  });
});
