import { describe, expect, it } from "vitest";
import { ArgumentError, AuthError, type MusicClient, ParseError, ServiceError } from "../../../src/index.js";
import { describeWithFixtures, loadResponse } from "../../support/fixtures.js";
import { classicPage, ctoken, fields, startService } from "../support/library.js";

// ── synthetic pages in the captured shapes ─────────────────────────────────────────────────────

const runs = (...texts: string[]) => ({ runs: texts.map((text) => ({ text })) });
const flex = (text: unknown) => ({ musicResponsiveListItemFlexColumnRenderer: { text } });

function trackRow(n: number, album = "Album") {
  const videoId = `video${n}`;
  return {
    musicResponsiveListItemRenderer: {
      overlay: {
        musicItemThumbnailOverlayRenderer: {
          content: { musicPlayButtonRenderer: { playNavigationEndpoint: { watchEndpoint: { videoId } } } },
        },
      },
      flexColumns: [
        flex({ runs: [{ text: `Track ${n}`, navigationEndpoint: { watchEndpoint: { videoId } } }] }),
        flex({
          runs: [
            {
              text: album,
              navigationEndpoint: {
                browseEndpoint: {
                  browseId: "MPREb_album",
                  browseEndpointContextSupportedConfigs: {
                    browseEndpointContextMusicConfig: { pageType: "MUSIC_PAGE_TYPE_ALBUM" },
                  },
                },
              },
            },
          ],
        }),
      ],
      fixedColumns: [{ musicResponsiveListItemFixedColumnRenderer: { text: runs("1:00") } }],
      menu: { menuRenderer: { items: [] } },
    },
  };
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

function continuationItem(token: string, nested = false) {
  const endpoint = nested
    ? {
        commandExecutorCommand: {
          commands: [
            { playlistVotingRefreshPopupCommand: {} },
            { continuationCommand: { token, request: "CONTINUATION_REQUEST_TYPE_BROWSE" } },
          ],
        },
      }
    : { continuationCommand: { token, request: "CONTINUATION_REQUEST_TYPE_BROWSE" } };
  return { continuationItemRenderer: { continuationEndpoint: endpoint } };
}

/** A 2024+ playlist page (not owned) with the given shelf contents. */
function playlistPage(contents: unknown[], extra: Record<string, unknown> = {}) {
  return {
    contents: {
      twoColumnBrowseResultsRenderer: {
        tabs: [
          {
            tabRenderer: {
              content: {
                sectionListRenderer: {
                  contents: [
                    {
                      musicResponsiveHeaderRenderer: {
                        title: runs("Mix"),
                        subtitle: runs("Playlist", " • ", "2025"),
                        secondSubtitle: runs(`${contents.length} tracks`, " • ", "1 hour"),
                        buttons: [
                          { toggleButtonRenderer: {} },
                          {
                            musicPlayButtonRenderer: {
                              playNavigationEndpoint: { watchEndpoint: { playlistId: "PLmix" } },
                            },
                          },
                        ],
                      },
                    },
                  ],
                },
              },
            },
          },
        ],
        secondaryContents: {
          sectionListRenderer: { contents: [{ musicPlaylistShelfRenderer: { contents } }], ...extra },
        },
      },
    },
  };
}

function appended(items: unknown[]) {
  return { onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: items } }] };
}

// ── writes ─────────────────────────────────────────────────────────────────────────────────────

describe("playlist writes without credentials", () => {
  const calls: Array<[string, (c: MusicClient) => Promise<unknown>]> = [
    ["createPlaylist", (c) => c.createPlaylist("t", "d")],
    ["editPlaylist", (c) => c.editPlaylist("PL1", { title: "t" })],
    ["deletePlaylist", (c) => c.deletePlaylist("PL1")],
    ["addPlaylistItems", (c) => c.addPlaylistItems("PL1", ["v"])],
    ["removePlaylistItems", (c) => c.removePlaylistItems("PL1", [{ videoId: "v", setVideoId: "s" }])],
  ];
  for (const [name, call] of calls) {
    it(`${name} fails with AUTH_REQUIRED before any request`, async () => {
      const service = await startService(() => ({ body: {} }), { anonymous: true });
      const error = await call(service.client).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).code).toBe("AUTH_REQUIRED");
      expect(service.api()).toHaveLength(0);
    });
  }
});

describe("playlist text and option checks", () => {
  const long = (n: number) => "x".repeat(n);
  const cases: Array<[string, string, (c: MusicClient) => Promise<unknown>]> = [
    ["a title with <", "title", (c) => c.createPlaylist("a <b>", "d")],
    ["a title with >", "title", (c) => c.editPlaylist("PL1", { title: "a > b" })],
    ["a title over 150 characters", "title", (c) => c.createPlaylist(long(151), "d")],
    ["an empty title", "title", (c) => c.createPlaylist("  ", "d")],
    ["a description with <", "description", (c) => c.createPlaylist("t", "<script>")],
    [
      "a description over 5,000 characters",
      "description",
      (c) => c.editPlaylist("PL1", { description: long(5001) }),
    ],
    [
      "an unknown privacy",
      "privacyStatus",
      (c) => c.createPlaylist("t", "d", { privacyStatus: "SECRET" as never }),
    ],
    [
      "an unknown privacy on edit",
      "privacyStatus",
      (c) => c.editPlaylist("PL1", { privacyStatus: "public" as never }),
    ],
    ["an edit without changes", "options", (c) => c.editPlaylist("PL1")],
    ["an unknown sort order", "sortOrder", (c) => c.editPlaylist("PL1", { sortOrder: "RANDOM" as never })],
    ["a malformed moveItem", "moveItem", (c) => c.editPlaylist("PL1", { moveItem: ["a"] as never })],
    [
      "a malformed move in moveItems",
      "moveItems[1]",
      (c) => c.editPlaylist("PL1", { moveItems: ["a", [1, 2] as never] }),
    ],
    ["an add without videos or source", "videoIds", (c) => c.addPlaylistItems("PL1", [])],
    ["an empty playlist id", "playlistId", (c) => c.deletePlaylist("")],
    ["remove without items", "videos", (c) => c.removePlaylistItems("PL1", [])],
  ];
  for (const [what, argument, call] of cases) {
    it(`refuses ${what} (${argument})`, async () => {
      const service = await startService(() => ({ body: {} }));
      const error = await call(service.client).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as ArgumentError).argument).toBe(argument);
      expect(service.api()).toHaveLength(0);
    });
  }

  it("accepts a title of exactly 150 characters (counted as characters, not UTF-16 units)", async () => {
    const service = await startService(() => ({ body: { playlistId: "PLnew" } }));
    expect(await service.client.createPlaylist("é".repeat(150), "d")).toBe("PLnew");
    expect(await service.client.createPlaylist("🎵".repeat(150), "d")).toBe("PLnew");
  });
});

describe("createPlaylist", () => {
  it("sends title, description, privacy (default PRIVATE), videos and source, and returns the new id", async () => {
    const service = await startService(() => ({ body: { playlistId: "PLnew" } }));
    expect(await service.client.createPlaylist("Road trip", "Songs for the car")).toBe("PLnew");
    expect(
      await service.client.createPlaylist("Road trip", "", {
        privacyStatus: "UNLISTED",
        videoIds: ["a", "b"],
        sourcePlaylist: "VLPLsource",
      }),
    ).toBe("PLnew");
    const [plain, full] = service.api();
    expect(plain?.path).toBe("/youtubei/v1/playlist/create");
    expect(fields(plain)).toEqual({
      title: "Road trip",
      description: "Songs for the car",
      privacyStatus: "PRIVATE",
    });
    expect(fields(full)).toEqual({
      title: "Road trip",
      description: "",
      privacyStatus: "UNLISTED",
      videoIds: ["a", "b"],
      sourcePlaylistId: "PLsource",
    });
  });

  it("raises a GATED error when the service only opens a feature-enablement panel", async () => {
    const gated = {
      actions: [{ showEngagementPanelEndpoint: { identifier: { tag: "PAfeature_enablement" } } }],
    };
    const service = await startService(() => ({ body: gated }));
    const error = await service.client.createPlaylist("t", "d").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe("GATED");
    expect((error as ServiceError).message).toContain("PAfeature_enablement");
  });

  it("returns the whole response when no playlist was created", async () => {
    const failed = { status: "STATUS_FAILED", error: { reason: "quota" } };
    const service = await startService(() => ({ body: failed }));
    expect(await service.client.createPlaylist("t", "d")).toEqual(failed);
  });
});

describe("editPlaylist", () => {
  it("sends every change as an action, in the web client's order, for the id without VL", async () => {
    const service = await startService(() => ({ body: { status: "STATUS_SUCCEEDED" } }));
    const result = await service.client.editPlaylist("VLPL1", {
      voteOption: "COLLABORATORS_ONLY",
      addToTop: false,
      sortOrder: "TOP_VOTED",
      addPlaylistId: "PL2",
      moveItem: ["set-a", "set-b"],
      collaboration: false,
      privacyStatus: "PUBLIC",
      description: "new description",
      title: "new title",
    });
    expect(result).toBe("STATUS_SUCCEEDED");
    const [request] = service.api();
    expect(request?.path).toBe("/youtubei/v1/browse/edit_playlist");
    expect(fields(request)).toEqual({
      playlistId: "PL1",
      actions: [
        { action: "ACTION_SET_PLAYLIST_NAME", playlistName: "new title" },
        { action: "ACTION_SET_PLAYLIST_DESCRIPTION", playlistDescription: "new description" },
        { action: "ACTION_SET_PLAYLIST_PRIVACY", playlistPrivacy: "PUBLIC" },
        { action: "ACTION_SET_CLOSED_TO_CONTRIBUTIONS", closedToContributions: true },
        { action: "ACTION_MOVE_VIDEO_BEFORE", setVideoId: "set-a", movedSetVideoIdSuccessor: "set-b" },
        { action: "ACTION_ADD_PLAYLIST", addedFullListId: "PL2" },
        { action: "ACTION_SET_PLAYLIST_VIDEO_ORDER", playlistVideoOrder: 6 },
        { action: "ACTION_SET_ADD_TO_TOP", addToTop: "false" },
        { action: "ACTION_SET_ALLOW_ITEM_VOTE", itemVotePermission: 2 },
      ],
    });
  });

  it("moves an item to the end when no successor is given", async () => {
    const service = await startService(() => ({ body: { status: "STATUS_SUCCEEDED" } }));
    await service.client.editPlaylist("PL1", { moveItem: "set-a" });
    expect(fields(service.api()[0]).actions).toEqual([
      { action: "ACTION_MOVE_VIDEO_BEFORE", setVideoId: "set-a" },
    ]);
  });

  it("sends several moves in one request, in order, with moveItems", async () => {
    const service = await startService(() => ({ body: { status: "STATUS_SUCCEEDED" } }));
    await service.client.editPlaylist("PL1", { moveItem: "set-z", moveItems: [["set-a", "set-b"], "set-c"] });
    expect(service.api()).toHaveLength(1);
    expect(fields(service.api()[0]).actions).toEqual([
      { action: "ACTION_MOVE_VIDEO_BEFORE", setVideoId: "set-z" },
      { action: "ACTION_MOVE_VIDEO_BEFORE", setVideoId: "set-a", movedSetVideoIdSuccessor: "set-b" },
      { action: "ACTION_MOVE_VIDEO_BEFORE", setVideoId: "set-c" },
    ]);
  });

  it("returns the join token of the invite link when opening the playlist to collaborators", async () => {
    const service = await startService(() => ({
      body: {
        status: "STATUS_SUCCEEDED",
        collaborationInviteLink: "https://music.youtube.com/playlist?list=PL1&jct=JOIN-TOKEN",
      },
    }));
    expect(await service.client.editPlaylist("PL1", { collaboration: true })).toEqual({
      status: "STATUS_SUCCEEDED",
      joinCollaborationToken: "JOIN-TOKEN",
    });
    expect(fields(service.api()[0]).actions).toEqual([{ action: "ACTION_CREATE_COLLABORATION_INVITE_LINK" }]);
  });

  it("raises a ParseError when a successful collaboration answer has no invite link", async () => {
    const service = await startService(() => ({ body: { status: "STATUS_SUCCEEDED" } }));
    const error = await service.client.editPlaylist("PL1", { collaboration: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).path).toBe("collaborationInviteLink");
  });

  it("reports a failed status in a 200 body as the whole response, never as success", async () => {
    const failed = { status: "STATUS_FAILED", actions: [{ addToToastAction: {} }] };
    const service = await startService(() => ({ body: failed }));
    expect(await service.client.editPlaylist("PL1", { title: "t" })).toEqual(failed);
    expect(await service.client.deletePlaylist("PL1")).toEqual(failed);
    expect(await service.client.removePlaylistItems("PL1", [{ videoId: "v", setVideoId: "s" }])).toEqual(
      failed,
    );
  });
});

describe("deletePlaylist", () => {
  it("posts the id without VL to playlist/delete", async () => {
    const service = await startService(() => ({ body: { status: "STATUS_SUCCEEDED" } }));
    expect(await service.client.deletePlaylist("VLPL1")).toBe("STATUS_SUCCEEDED");
    const [request] = service.api();
    expect(request?.path).toBe("/youtubei/v1/playlist/delete");
    expect(fields(request)).toEqual({ playlistId: "PL1" });
  });
});

describe("addPlaylistItems", () => {
  const added = (videoId: string, setVideoId: string) => ({
    playlistEditVideoAddedResultData: { videoId, setVideoId, multiSelectData: {} },
  });

  it("returns the status and the new setVideoId of each video", async () => {
    const service = await startService(() => ({
      body: { status: "STATUS_SUCCEEDED", playlistEditResults: [added("a", "SET-A"), added("b", "SET-B")] },
    }));
    const result = await service.client.addPlaylistItems("PL1", ["a", "b"]);
    expect(result).toEqual({
      status: "STATUS_SUCCEEDED",
      playlistEditResults: [
        { videoId: "a", setVideoId: "SET-A", multiSelectData: {} },
        { videoId: "b", setVideoId: "SET-B", multiSelectData: {} },
      ],
    });
    expect(fields(service.api()[0])).toEqual({
      playlistId: "PL1",
      actions: [
        { action: "ACTION_ADD_VIDEO", addedVideoId: "a" },
        { action: "ACTION_ADD_VIDEO", addedVideoId: "b" },
      ],
    });
  });

  it("without duplicates returns the service's refusal when a video is already there", async () => {
    // The service adds nothing and says so in a 200: a failed status and a dialog.
    const refusal = {
      status: "STATUS_FAILED",
      actions: [
        {
          confirmDialogEndpoint: {
            content: { confirmDialogRenderer: { title: { runs: [{ text: "Already added" }] } } },
          },
        },
      ],
    };
    const service = await startService(() => ({ body: refusal }));
    expect(await service.client.addPlaylistItems("PL1", ["a"])).toEqual(refusal);
  });

  it("with duplicates asks the service to skip its duplicate check", async () => {
    const service = await startService(() => ({
      body: { status: "STATUS_SUCCEEDED", playlistEditResults: [added("a", "S")] },
    }));
    await service.client.addPlaylistItems("PL1", ["a"], { duplicates: true });
    expect(fields(service.api()[0]).actions).toEqual([
      { action: "ACTION_ADD_VIDEO", addedVideoId: "a", dedupeOption: "DEDUPE_OPTION_SKIP" },
    ]);
  });

  it("adds a source playlist, with an empty video action to get the results back", async () => {
    const service = await startService(() => ({
      body: { status: "STATUS_SUCCEEDED", playlistEditResults: [] },
    }));
    await service.client.addPlaylistItems("PL1", null, { sourcePlaylist: "VLPL2" });
    await service.client.addPlaylistItems("PL1", ["a"], { sourcePlaylist: "PL2" });
    const [only, both] = service.api();
    expect(fields(only).actions).toEqual([
      { action: "ACTION_ADD_PLAYLIST", addedFullListId: "PL2" },
      { action: "ACTION_ADD_VIDEO", addedVideoId: null },
    ]);
    expect(fields(both).actions).toEqual([
      { action: "ACTION_ADD_VIDEO", addedVideoId: "a" },
      { action: "ACTION_ADD_PLAYLIST", addedFullListId: "PL2" },
    ]);
  });
});

describe("removePlaylistItems", () => {
  it("names the item that has no setVideoId, before any request", async () => {
    const service = await startService(() => ({ body: {} }));
    const error = await service.client
      .removePlaylistItems("PL1", [{ videoId: "a", setVideoId: "SA" }, { videoId: "b" }])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as ArgumentError).argument).toBe("videos");
    expect((error as ArgumentError).message).toContain("item 1 (videoId b)");
    expect(service.api()).toHaveLength(0);
  });

  it("sends one remove action per item", async () => {
    const service = await startService(() => ({ body: { status: "STATUS_SUCCEEDED" } }));
    const result = await service.client.removePlaylistItems("VLPL1", [
      { videoId: "a", setVideoId: "SA", title: "ignored" },
      { videoId: "b", setVideoId: "SB" },
    ]);
    expect(result).toBe("STATUS_SUCCEEDED");
    expect(fields(service.api()[0])).toEqual({
      playlistId: "PL1",
      actions: [
        { setVideoId: "SA", removedVideoId: "a", action: "ACTION_REMOVE_VIDEO" },
        { setVideoId: "SB", removedVideoId: "b", action: "ACTION_REMOVE_VIDEO" },
      ],
    });
  });
});

// ── getPlaylist ────────────────────────────────────────────────────────────────────────────────

describe("getPlaylist", () => {
  it("refuses bad options before any request", async () => {
    const service = await startService(() => ({ body: {} }), { anonymous: true });
    for (const [options, argument] of [
      [{ limit: -1 }, "limit"],
      [{ suggestionsLimit: null }, "suggestionsLimit"],
      [{ related: "yes" }, "related"],
    ] as const) {
      const error = await service.client.getPlaylist("PL1", options as never).catch((e: unknown) => e);
      expect((error as ArgumentError).argument).toBe(argument);
    }
    expect(service.api()).toHaveLength(0);
  });

  it("follows shape C continuations until the limit, body {continuation} only", async () => {
    const service = await startService(
      (r) => {
        const token = (r.json as { continuation?: string }).continuation;
        if (token === undefined)
          return { body: playlistPage([...range(1, 3).map((n) => trackRow(n)), continuationItem("c1")]) };
        if (token === "c1")
          return { body: appended([...range(4, 3).map((n) => trackRow(n)), continuationItem("c2")]) };
        return { body: appended(range(7, 3).map((n) => trackRow(n))) };
      },
      { anonymous: true },
    );
    const some = await service.client.getPlaylist("VLPLmix", { limit: 4 });
    expect(some.tracks.map((t) => t.videoId)).toEqual(range(1, 6).map((n) => `video${n}`));
    const sent = service.api();
    expect(fields(sent[0])).toEqual({ browseId: "VLPLmix" });
    expect(fields(sent[1])).toEqual({ continuation: "c1" });
    expect(sent[1]?.query).not.toContain("ctoken");
    expect(sent).toHaveLength(2);

    const all = await service.client.getPlaylist("PLmix", { limit: null });
    expect(all.tracks).toHaveLength(9);
    expect(all.duration_seconds).toBe(9 * 60);
    expect(all.id).toBe("PLmix");
  });

  it("takes the token of a nested browse command (shape C', top-voted playlists)", async () => {
    const service = await startService(
      (r) => {
        const token = (r.json as { continuation?: string }).continuation;
        return token === undefined
          ? { body: playlistPage([trackRow(1), continuationItem("nested-1", true)]) }
          : { body: appended([trackRow(2)]) };
      },
      { anonymous: true },
    );
    const playlist = await service.client.getPlaylist("PLmix", { limit: null });
    expect(playlist.tracks.map((t) => t.videoId)).toEqual(["video1", "video2"]);
    expect(fields(service.api()[1])).toEqual({ continuation: "nested-1" });
  });

  it("builds the header of an album audio playlist that comes without one", async () => {
    const page = {
      contents: {
        twoColumnBrowseResultsRenderer: {
          tabs: [{ tabRenderer: { content: {} } }],
          secondaryContents: {
            sectionListRenderer: {
              contents: [
                {
                  musicPlaylistShelfRenderer: {
                    targetId: "OLAK5uy_album",
                    contents: [trackRow(1, "The Album"), trackRow(2, "The Album")],
                  },
                },
              ],
            },
          },
        },
      },
    };
    const service = await startService(() => ({ body: page }), { anonymous: true });
    const playlist = await service.client.getPlaylist("OLAK5uy_album");
    expect(playlist).toMatchObject({
      owned: false,
      id: "OLAK5uy_album",
      privacy: "PUBLIC",
      title: "The Album",
      trackCount: 2,
      related: [],
      duration_seconds: 120,
    });
    expect(fields(service.api()[0])).toEqual({ browseId: "VLOLAK5uy_album" });
  });

  it("raises a ParseError naming the header path when a playlist page has none", async () => {
    const page = {
      contents: {
        twoColumnBrowseResultsRenderer: {
          tabs: [{ tabRenderer: { content: { sectionListRenderer: { contents: [{}] } } } }],
        },
      },
    };
    const service = await startService(() => ({ body: page }), { anonymous: true });
    const error = await service.client.getPlaylist("PL1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).path).toContain("musicResponsiveHeaderRenderer");
    expect((error as ParseError).operation).toBe("get_playlist");
  });

  it("fetches related playlists of a playlist it does not own", async () => {
    const card = {
      musicTwoRowItemRenderer: {
        title: {
          runs: [{ text: "Similar", navigationEndpoint: { browseEndpoint: { browseId: "VLPLsimilar" } } }],
        },
        subtitle: runs("Playlist", " • ", "YouTube Music"),
      },
    };
    const service = await startService(
      (r) =>
        ctoken(r) === null
          ? {
              body: playlistPage([trackRow(1)], {
                continuations: [{ nextContinuationData: { continuation: "related-1" } }],
              }),
            }
          : {
              body: {
                continuationContents: {
                  sectionListContinuation: {
                    contents: [{ musicCarouselShelfRenderer: { contents: [card] } }],
                  },
                },
              },
            },
      { anonymous: true },
    );
    const playlist = await service.client.getPlaylist("PLmix", { related: true });
    expect(playlist.related).toEqual([
      { title: "Similar", playlistId: "PLsimilar", thumbnails: [], description: "Playlist • YouTube Music" },
    ]);
    const [, related] = service.api();
    expect(ctoken(related)).toBe("related-1");
    expect(fields(related)).toEqual({ browseId: "VLPLmix" });
    expect(playlist.suggestions).toBeUndefined();
  });
});

describe("getLikedSongs", () => {
  it("reads LM with the default limit of 100, and names itself in a ParseError", async () => {
    let page: unknown = playlistPage([...range(1, 3).map((n) => trackRow(n)), continuationItem("more")]);
    const service = await startService(() => ({ body: page }));
    const liked = await service.client.getLikedSongs({ limit: 3 });
    expect(liked.tracks.map((t) => t.videoId)).toEqual(["video1", "video2", "video3"]);
    expect(service.api().map((r) => fields(r))).toEqual([{ browseId: "VLLM" }]);

    page = { contents: {} };
    const error = await service.client.getLikedSongs().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).operation).toBe("get_liked_songs");
  });
});

describeWithFixtures("getPlaylist on real captures", () => {
  it("reads the first page only while the limit is met, and all pages with limit null", async () => {
    const first = loadResponse("yt_get_playlist_20250604");
    const next = loadResponse("yt_get_playlist_continuation_20250604");
    let continuations = 0;
    const service = await startService(
      (r) => {
        const token = (r.json as { continuation?: string }).continuation;
        if (token === undefined) {
          continuations = 0;
          return { body: first };
        }
        return { body: continuations++ === 0 ? next : {} };
      },
      { anonymous: true },
    );
    const hundred = await service.client.getPlaylist("PL0jp-uZ7a4g9FQWW5R_u0pz4yzV4RiOXu");
    expect(hundred.tracks).toHaveLength(102);
    expect(service.api()).toHaveLength(1);
    expect(hundred.author).toEqual({ name: "The Beatles", id: "UCc4K7bAqpdBP8jh1j9XZAww" });
    expect(hundred.views).toBe(36);
    expect(hundred.trackCount).toBe(100);

    const all = await service.client.getPlaylist("PL0jp-uZ7a4g9FQWW5R_u0pz4yzV4RiOXu", { limit: null });
    expect(all.tracks).toHaveLength(204);
    // The continuation page ends with a token again; its answer `{}` ends the list.
    expect(service.api()).toHaveLength(4);
  });

  it("follows the legacy shelf continuation (shape A) with the first body and ctoken parameters", async () => {
    const first = loadResponse("ytm_2024_03_get_playlist");
    const service = await startService((r) =>
      ctoken(r) === null
        ? { body: first }
        : {
            body: classicPage(
              "musicPlaylistShelfContinuation",
              range(1, 5).map((n) => trackRow(n)),
              null,
            ),
          },
    );
    const playlist = await service.client.getPlaylist("PLaZPMsuQNCsWn0iVMtGbaUXO6z-EdZaZm", { limit: 150 });
    expect(playlist.owned).toBe(true);
    expect(playlist.privacy).toBe("PRIVATE");
    expect(playlist.tracks).toHaveLength(105);
    expect(playlist.tracks.slice(-1)[0]?.videoId).toBe("video5");
    const [, second] = service.api();
    expect(fields(second)).toEqual({ browseId: "VLPLaZPMsuQNCsWn0iVMtGbaUXO6z-EdZaZm" });
    expect(ctoken(second)).toMatch(/^4qmFsgL5ARIkVkxQTGFaUE1zdVFOQ3NX/);
  });

  it("fetches suggestions (reloading the shelf) and related playlists of an owned playlist", async () => {
    const first = loadResponse("yt_get_playlist_20240624");
    const suggestionShelf = (from: number) => ({
      contents: range(from, 7).map((n) => trackRow(n)),
      continuations: [{ reloadContinuationData: { continuation: `reload-${from}` } }],
    });
    const service = await startService((r) => {
      const token = ctoken(r);
      if (token === null) return { body: first };
      if (token.startsWith("4qmFsgI8")) {
        return {
          body: {
            continuationContents: {
              sectionListContinuation: {
                contents: [{ musicShelfRenderer: suggestionShelf(100) }],
                continuations: [{ nextContinuationData: { continuation: "related-token" } }],
              },
            },
          },
        };
      }
      if (token.startsWith("reload-"))
        return { body: { continuationContents: { musicShelfContinuation: suggestionShelf(200) } } };
      return {
        body: {
          continuationContents: {
            sectionListContinuation: {
              contents: [
                {
                  musicCarouselShelfRenderer: {
                    contents: [
                      {
                        musicTwoRowItemRenderer: {
                          title: {
                            runs: [
                              {
                                text: "Related",
                                navigationEndpoint: { browseEndpoint: { browseId: "VLPLrel" } },
                              },
                            ],
                          },
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        },
      };
    });
    const playlist = await service.client.getPlaylist("PLCZQcydUIP07mpKlgJxBltks_DdmrMmnb", {
      suggestionsLimit: 10,
      related: true,
    });
    expect(playlist.tracks).toHaveLength(5);
    expect(playlist.suggestions?.map((s) => s.videoId)).toEqual([
      ...range(100, 7).map((n) => `video${n}`),
      ...range(200, 7).map((n) => `video${n}`),
    ]);
    expect(playlist.related.map((p) => p.playlistId)).toEqual(["PLrel"]);
    expect(service.api().map((r) => ctoken(r)?.slice(0, 8) ?? null)).toEqual([
      null,
      "4qmFsgI8",
      "reload-1",
      "related-",
    ]);
  });

  it("gives the tracks of an owned playlist their setVideoId, ready for removePlaylistItems", async () => {
    const first = loadResponse("yt_get_playlist_20240624");
    const service = await startService((r) =>
      r.path.endsWith("/browse") ? { body: first } : { body: { status: "STATUS_SUCCEEDED" } },
    );
    const playlist = await service.client.getPlaylist("PLCZQcydUIP07mpKlgJxBltks_DdmrMmnb");
    expect(playlist.tracks.every((t) => typeof t.setVideoId === "string")).toBe(true);
    await service.client.removePlaylistItems(playlist.id ?? "", playlist.tracks.slice(0, 2));
    const actions = fields(service.api()[1]).actions as Array<Record<string, unknown>>;
    expect(actions.map((a) => a.removedVideoId)).toEqual(playlist.tracks.slice(0, 2).map((t) => t.videoId));
  });

  it("gives the episode rows of an episode playlist as `episodes` (getSavedEpisodes)", async () => {
    // "Episodes for Later" is an episode playlist like "New Episodes": MMRIR rows in a plain shelf.
    const page = loadResponse("yt_get_new_episodes_20240830");
    const service = await startService(() => ({ body: page }));
    const saved = await service.client.getSavedEpisodes();
    expect(fields(service.api()[0])).toEqual({ browseId: "VLSE" });
    expect(saved.tracks).toEqual([]);
    expect(saved.episodes?.length).toBeGreaterThan(0);
    for (const episode of saved.episodes ?? []) {
      expect(episode.title).not.toBe("");
      expect(episode.browseId).toMatch(/^MPED/);
      expect(episode.videoType).toBe("MUSIC_VIDEO_TYPE_PODCAST_EPISODE");
    }
    expect(saved.duration_seconds).toBe(0);
  });
});
