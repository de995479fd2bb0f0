import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArgumentError, AuthError, type MusicClient, ParseError, ServiceError } from "../../../src/index.js";
import type { Reply, SeenRequest } from "../../support/replay-server.js";
import { ctoken, fields, startService } from "../support/library.js";

let dir: string;
let song: string;
const SONG_BYTES = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7) % 256));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "musicapi-uploads-"));
  song = join(dir, "Track One.mp3");
  await writeFile(song, SONG_BYTES);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An upload host: step 1 hands out a session URL (on `sessionOrigin`), step 2 answers `finalStatus`. */
function uploadHost(base: () => string, finalStatus = 200, sessionOrigin?: () => string) {
  return (r: SeenRequest): Reply => {
    if (r.path === "/upload/usermusic/http") {
      return {
        status: 200,
        headers: { "x-goog-upload-url": `${(sessionOrigin ?? base)()}/upload/session/s1` },
      };
    }
    if (r.path === "/upload/session/s1")
      return { status: finalStatus, body: finalStatus === 200 ? "" : "already uploaded" };
    return { body: {} };
  };
}

describe("uploadSong", () => {
  it("starts a resumable upload, then streams the file to the session URL", async () => {
    let url = "";
    const service = await startService(uploadHost(() => url));
    url = service.server.url;
    expect(await service.client.uploadSong(song)).toBe("STATUS_SUCCEEDED");
    const [start, upload] = service.other();
    expect(start?.method).toBe("POST");
    expect(start?.query).toBe("authuser=0");
    expect(start?.headers["content-type"]).toBe("application/x-www-form-urlencoded;charset=utf-8");
    expect(start?.headers["x-goog-upload-command"]).toBe("start");
    expect(start?.headers["x-goog-upload-header-content-length"]).toBe(String(SONG_BYTES.length));
    expect(start?.headers["x-goog-upload-protocol"]).toBe("resumable");
    expect(start?.headers.authorization).toMatch(/^SAPISIDHASH /);
    expect(start?.headers.cookie).toContain("__Secure-3PAPISID=");
    expect(start?.headers["content-encoding"]).toBeUndefined();
    expect(start?.text).toBe("filename=Track One.mp3");

    expect(upload?.path).toBe("/upload/session/s1");
    expect(upload?.headers["x-goog-upload-command"]).toBe("upload, finalize");
    expect(upload?.headers["x-goog-upload-offset"]).toBe("0");
    expect(upload?.headers.authorization).toMatch(/^SAPISIDHASH /);
    expect(service.api()).toHaveLength(0);
  });

  it("sends the file's exact bytes", async () => {
    let received: Buffer | undefined;
    let url = "";
    const host = uploadHost(() => url);
    const service = await startService((r) => {
      if (r.path === "/upload/session/s1") received = Buffer.from(r.text, "utf8");
      return host(r);
    });
    url = service.server.url;
    const ascii = join(dir, "ascii.flac");
    const content = Buffer.from("fLaC-not-really-audio-".repeat(5000), "ascii");
    await writeFile(ascii, content);
    expect(await service.client.uploadSong(ascii)).toBe("STATUS_SUCCEEDED");
    expect(received?.equals(content)).toBe(true);
    expect(service.other()[1]?.headers["content-length"]).toBe(String(content.length));
  });

  it("returns the host's status and body when the upload is refused (409: already uploaded)", async () => {
    let url = "";
    const service = await startService(uploadHost(() => url, 409));
    url = service.server.url;
    expect(await service.client.uploadSong(song)).toEqual({ status: 409, body: "already uploaded" });
  });

  it("never sends the file to a session URL off the upload host", async () => {
    let url = "";
    const service = await startService(
      uploadHost(
        () => url,
        200,
        () => "http://127.0.0.2:9",
      ),
    );
    url = service.server.url;
    const error = await service.client.uploadSong(song).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(service.other()).toHaveLength(1);
  });

  it("checks the extension, the file and its size before anything is sent", async () => {
    const service = await startService(() => ({ body: {} }));
    const wav = join(dir, "song.wav");
    await writeFile(wav, "x");
    const big = join(dir, "big.ogg");
    await writeFile(big, "");
    // A sparse file: exactly the limit, which is already too large.
    await truncate(big, 314_572_800);
    for (const path of [wav, join(dir, "missing.mp3"), big, dir, join(dir, "noextension")]) {
      const error = await service.client.uploadSong(path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as ArgumentError).argument).toBe("filepath");
    }
    const upper = join(dir, "LOUD.M4A");
    await writeFile(upper, "x");
    const accepted = await service.client.uploadSong(upper).catch((e: unknown) => e);
    // Upper-case extensions are accepted (this host then gives no session URL).
    expect(accepted).toBeInstanceOf(ServiceError);
  });

  it("needs credentials, and browser ones", async () => {
    const anonymous = await startService(() => ({ body: {} }), { anonymous: true });
    const missing = await anonymous.client.uploadSong(song).catch((e: unknown) => e);
    expect((missing as AuthError).code).toBe("AUTH_REQUIRED");

    const oauth = await startService(() => ({ body: {} }), {
      auth: {
        access_token: "ya29.test",
        refresh_token: "1//refresh",
        token_type: "Bearer",
        scope: "https://www.googleapis.com/auth/youtube",
        expires_at: Math.floor(Date.now() / 1000) + 3600,
        expires_in: 3600,
      },
      oauthCredentials: { clientId: "id.apps.googleusercontent.com", clientSecret: "secret" },
    });
    const refused = await oauth.client.uploadSong(song).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AuthError);
    expect((refused as AuthError).code).toBe("AUTH_INVALID");
    expect(anonymous.other()).toHaveLength(0);
    expect(oauth.other()).toHaveLength(0);
  });
});

describe("deleteUploadEntity", () => {
  it("accepts a track entity id and an album browseId (prefix removed)", async () => {
    const service = await startService(() => ({ body: { actions: [] } }));
    expect(await service.client.deleteUploadEntity("t_po_TRACK")).toBe("STATUS_SUCCEEDED");
    expect(
      await service.client.deleteUploadEntity("FEmusic_library_privately_owned_release_detailb_po_ALBUM"),
    ).toBe("STATUS_SUCCEEDED");
    const [track, album] = service.api();
    expect(track?.path).toBe("/youtubei/v1/music/delete_privately_owned_entity");
    expect(fields(track)).toEqual({ entityId: "t_po_TRACK" });
    expect(fields(album)).toEqual({ entityId: "b_po_ALBUM" });
  });

  it("returns the service's error value when the body has one", async () => {
    const service = await startService(() => ({ body: { error: { code: 404, reason: "not found" } } }));
    expect(await service.client.deleteUploadEntity("t_po_GONE")).toEqual({ code: 404, reason: "not found" });
  });
});

describe("upload lists", () => {
  const calls: Array<[string, (c: MusicClient) => Promise<unknown>]> = [
    ["getLibraryUploadSongs", (c) => c.getLibraryUploadSongs()],
    ["getLibraryUploadArtists", (c) => c.getLibraryUploadArtists()],
    ["getLibraryUploadAlbums", (c) => c.getLibraryUploadAlbums()],
    [
      "getLibraryUploadArtist",
      (c) => c.getLibraryUploadArtist("FEmusic_library_privately_owned_artist_detaila_po_X"),
    ],
    [
      "getLibraryUploadAlbum",
      (c) => c.getLibraryUploadAlbum("FEmusic_library_privately_owned_release_detailb_po_X"),
    ],
    ["uploadSong", (c) => c.uploadSong(song)],
    ["deleteUploadEntity", (c) => c.deleteUploadEntity("t_po_X")],
  ];
  for (const [name, call] of calls) {
    it(`${name} fails with AUTH_REQUIRED before any request`, async () => {
      const service = await startService(() => ({ body: {} }), { anonymous: true });
      const error = await call(service.client).catch((e: unknown) => e);
      expect((error as AuthError).code).toBe("AUTH_REQUIRED");
      expect(service.server.requests.filter((r) => r.path !== "/")).toHaveLength(0);
    });
  }

  it("reads an uploaded artist's tracks, dropping the shuffle row and following continuations to the limit", async () => {
    const row = (n: number) => ({
      musicResponsiveListItemRenderer: {
        flexColumns: [
          { musicResponsiveListItemFlexColumnRenderer: { text: { runs: [{ text: `Upload ${n}` }] } } },
        ],
        menu: {
          menuRenderer: {
            items: [
              {
                menuServiceItemRenderer: {
                  serviceEndpoint: { queueAddEndpoint: { queueTarget: { videoId: `v${n}` } } },
                },
              },
              {
                menuNavigationItemRenderer: {
                  navigationEndpoint: {
                    confirmDialogEndpoint: {
                      content: {
                        confirmDialogRenderer: {
                          confirmButton: {
                            buttonRenderer: {
                              command: { musicDeletePrivatelyOwnedEntityCommand: { entityId: `t_po_${n}` } },
                            },
                          },
                        },
                      },
                    },
                  },
                },
              },
            ],
          },
        },
      },
    });
    const shuffle = { musicResponsiveListItemRenderer: { flexColumns: [] } };
    const service = await startService((r) => {
      if (ctoken(r) === null) {
        const shelf = {
          contents: [shuffle, row(1), row(2)],
          continuations: [{ nextContinuationData: { continuation: "u1" } }],
        };
        const page = { sectionListRenderer: { contents: [{ musicShelfRenderer: shelf }] } };
        return {
          body: {
            contents: { singleColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { content: page } }] } },
          },
        };
      }
      return { body: { continuationContents: { musicShelfContinuation: { contents: [row(3), row(4)] } } } };
    });
    const tracks = await service.client.getLibraryUploadArtist(
      "FEmusic_library_privately_owned_artist_detaila_po_X",
      {
        limit: 3,
      },
    );
    expect(tracks.map((t) => [t.videoId, t.entityId])).toEqual([
      ["v1", "t_po_1"],
      ["v2", "t_po_2"],
      ["v3", "t_po_3"],
      ["v4", "t_po_4"],
    ]);
    const [first, second] = service.api();
    expect(fields(first)).toEqual({ browseId: "FEmusic_library_privately_owned_artist_detaila_po_X" });
    expect(fields(second)).toEqual(fields(first));
    expect(ctoken(second)).toBe("u1");
  });

  it("raises a ParseError naming the legacy header path when an uploaded album page has none", async () => {
    const service = await startService(() => ({ body: { contents: {} } }));
    const error = await service.client
      .getLibraryUploadAlbum("FEmusic_library_privately_owned_release_detailb_po_X")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).path).toBe("header.musicDetailHeaderRenderer");
    expect((error as ParseError).operation).toBe("get_library_upload_album");
  });
});
