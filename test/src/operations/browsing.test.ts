import { afterEach, describe, expect, it } from "vitest";
import { ArgumentError, ParseError } from "../../../src/errors.js";
import { albumBrowseIdOfPage } from "../../../src/operations/browsing.js";
import { parseMixedContent } from "../../../src/parsers/home.js";
import { collectNotes } from "../../../src/parsers/notes.js";
import { bodyOf, type Served, serve } from "../../support/page-server.js";
import {
  browseRun,
  card,
  carousel,
  dotted,
  nextToken,
  playOverlay,
  row,
  singleColumn,
  thumbs,
  watchRun,
} from "../support/browsing.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const ALBUM = "MUSIC_PAGE_TYPE_ALBUM";
const ARTIST = "MUSIC_PAGE_TYPE_ARTIST";
const PLAYLIST = "MUSIC_PAGE_TYPE_PLAYLIST";

function albumCard(n: number, subtitle = dotted("Album", browseRun("Artist", "UCartist", ARTIST))) {
  return card({ title: browseRun(`Album ${n}`, `MPREb_${n}`, ALBUM), subtitle });
}

function homeRows(count: number, from: number) {
  return Array.from({ length: count }, (_, i) => carousel(`Row ${from + i}`, [albumCard(from + i)]));
}

describe("getHome", () => {
  it("counts rows against the limit across continuation pages", async () => {
    served = await serve([
      singleColumn(homeRows(3, 0), { continuations: nextToken("h1") }),
      {
        continuationContents: {
          sectionListContinuation: { contents: homeRows(2, 3), continuations: nextToken("h2") },
        },
      },
      { continuationContents: { sectionListContinuation: { contents: homeRows(2, 5) } } },
    ]);
    const rows = await served.client.getHome({ limit: 4 });
    expect(rows.map((r) => r.title)).toEqual(["Row 0", "Row 1", "Row 2", "Row 3", "Row 4"]);
    const sent = served.innertube();
    expect(sent).toHaveLength(2);
    expect(bodyOf(sent[0])).toEqual({ browseId: "FEmusic_home" });
    expect(bodyOf(sent[1])).toEqual({ browseId: "FEmusic_home" });
    expect(sent[1]?.query).toContain("ctoken=h1&continuation=h1");
  });

  it("asks for nothing more when the first page fills the default limit of 3", async () => {
    served = await serve([singleColumn(homeRows(3, 0), { continuations: nextToken("h1") })]);
    expect(await served.client.getHome()).toHaveLength(3);
    expect(served.innertube()).toHaveLength(1);
  });

  it("with a null limit reads every page", async () => {
    served = await serve([
      singleColumn(homeRows(1, 0), { continuations: nextToken("h1") }),
      { continuationContents: { sectionListContinuation: { contents: homeRows(1, 1) } } },
    ]);
    expect(await served.client.getHome({ limit: null })).toHaveLength(2);
  });

  it("raises a ParseError naming the path when the page has no section list", async () => {
    served = await serve([{ contents: {} }]);
    const error = await served.client.getHome().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).path).toContain("singleColumnBrowseResultsRenderer");
    expect((error as ParseError).operation).toBe("get_home");
  });

  it("refuses a negative limit before any request", async () => {
    served = await serve([]);
    await expect(served.client.getHome({ limit: -2 })).rejects.toBeInstanceOf(ArgumentError);
    expect(served.innertube()).toHaveLength(0);
  });
});

describe("getSongRelated (no capture: hand-written response in the captured shapes)", () => {
  const related = {
    contents: {
      sectionListRenderer: {
        contents: [
          carousel("You might also like", [
            card({
              title: { text: "Song A" },
              subtitle: dotted("Song", browseRun("Singer", "UCsinger", ARTIST), "1.1M views"),
              navigationEndpoint: { watchEndpoint: { videoId: "songAAAAAAA", playlistId: "RDAMVMsongA" } },
            }),
            albumCard(1),
            { musicPromoRenderer: {} },
          ]),
          carousel("Recommended playlists", [
            card({
              title: browseRun("Mix", "VLPLmix", PLAYLIST),
              subtitle: dotted("Someone", "25 songs"),
            }),
            card({ title: browseRun("Weird", "FEweird", "MUSIC_PAGE_TYPE_SOMETHING_NEW") }),
          ]),
          {
            musicDescriptionShelfRenderer: {
              header: { runs: [{ text: "About the artist" }] },
              description: { runs: [{ text: "A singer." }] },
            },
          },
        ],
      },
    },
  };

  it("sends the browse id and parses carousels and the description shelf like home rows", async () => {
    served = await serve([related]);
    const rows = await served.client.getSongRelated("MPTRt_abc");
    expect(bodyOf(served.innertube()[0])).toEqual({ browseId: "MPTRt_abc" });
    expect(rows).toHaveLength(3);
    expect(rows[0]?.title).toBe("You might also like");
    expect(rows[0]?.contents).toEqual([
      {
        title: "Song A",
        videoId: "songAAAAAAA",
        playlistId: "RDAMVMsongA",
        thumbnails: [{ url: "https://img.invalid/226", width: 226, height: 226 }],
        artists: [{ name: "Singer", id: "UCsinger" }],
        views: "1.1M",
      },
      {
        title: "Album 1",
        artists: [{ name: "Artist", id: "UCartist" }],
        browseId: "MPREb_1",
        audioPlaylistId: null,
        thumbnails: [{ url: "https://img.invalid/226", width: 226, height: 226 }],
        isExplicit: false,
        type: "Album",
      },
    ]);
    expect(rows[1]?.contents).toEqual([
      {
        title: "Mix",
        playlistId: "PLmix",
        thumbnails: [{ url: "https://img.invalid/226", width: 226, height: 226 }],
        owned: false,
        description: "Someone \u2022 25 songs",
        count: "25",
        author: [{ name: "Someone", id: null }],
      },
      null,
    ]);
    expect(rows[2]).toEqual({ title: "About the artist", contents: "A singer." });
  });

  it("reports the renderer it skipped", () => {
    const notes = collectNotes();
    parseMixedContent(related.contents.sectionListRenderer.contents, notes);
    expect(notes.unknown.map((n) => n.renderer)).toEqual(["musicPromoRenderer"]);
  });

  it("refuses an empty browse id before any request", async () => {
    served = await serve([]);
    await expect(served.client.getSongRelated("")).rejects.toBeInstanceOf(ArgumentError);
    expect(served.innertube()).toHaveLength(0);
  });
});

describe("getAlbum", () => {
  it("refuses a browse id that is not an album's before any request", async () => {
    served = await serve([]);
    const error = await served.client.getAlbum("VLPL123").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as ArgumentError).argument).toBe("browseId");
    expect(served.innertube()).toHaveLength(0);
  });

  it("raises a ParseError naming the header path for a page without one", async () => {
    served = await serve([{ contents: { twoColumnBrowseResultsRenderer: { tabs: [] } } }]);
    const error = await served.client.getAlbum("MPREb_x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).path).toContain("musicResponsiveHeaderRenderer");
    expect((error as ParseError).operation).toBe("get_album");
  });
});

describe("getAlbum layouts", () => {
  const trackRow = (n: number, artists: Array<Record<string, unknown>>) =>
    row([[watchRun(`Track ${n}`, `trk${n}`)], artists, [{ text: `${n}K plays` }]], {
      overlay: playOverlay(`trk${n}`),
      index: { runs: [{ text: String(n) }] },
      fixedColumns: [
        { musicResponsiveListItemFixedColumnRenderer: { text: { runs: [{ text: `${n}:00` }] } } },
      ],
    });

  it("reads a pre-2024 page: legacy header and tracks in the single column", async () => {
    served = await serve([
      {
        ...singleColumn([
          {
            musicShelfRenderer: {
              contents: [trackRow(1, []), trackRow(2, [browseRun("Guest", "UCguest", ARTIST)])],
            },
          },
        ]),
        header: {
          musicDetailHeaderRenderer: {
            title: { runs: [{ text: "Old LP" }] },
            subtitle: { runs: dotted("Album", browseRun("Band", "UCband", ARTIST), "1999") },
            secondSubtitle: { runs: dotted("2 songs", "3 minutes") },
            description: { runs: [{ text: "Liner notes" }] },
            subtitleBadges: [
              {
                musicInlineBadgeRenderer: { accessibilityData: { accessibilityData: { label: "Explicit" } } },
              },
            ],
            menu: {
              menuRenderer: {
                topLevelButtons: [
                  {
                    buttonRenderer: {
                      navigationEndpoint: { watchPlaylistEndpoint: { playlistId: "OLAKold" } },
                    },
                  },
                  { buttonRenderer: { defaultServiceEndpoint: { likeEndpoint: { status: "INDIFFERENT" } } } },
                ],
              },
            },
          },
        },
      },
    ]);
    const album = await served.client.getAlbum("MPREb_old");
    expect(album).toMatchObject({
      title: "Old LP",
      type: "Album",
      isExplicit: true,
      description: "Liner notes",
      year: "1999",
      artists: [{ name: "Band", id: "UCband" }],
      trackCount: 2,
      duration: "3 minutes",
      audioPlaylistId: "OLAKold",
      likeStatus: "LIKE",
      duration_seconds: 180,
    });
    expect(album.tracks.map((t) => [t.title, t.album, t.trackNumber, t.views, t.artists?.[0]?.name])).toEqual(
      [
        ["Track 1", "Old LP", 1, "1K plays", "Band"],
        ["Track 2", "Old LP", 2, "2K plays", "Guest"],
      ],
    );
  });

  it("reads the 2024 singular subtitleBadge and files carousels by item size", async () => {
    const header = {
      musicResponsiveHeaderRenderer: {
        title: { runs: [{ text: "New LP" }] },
        subtitle: { runs: dotted("EP", "2024") },
        secondSubtitle: { runs: [{ text: "9 minutes" }] },
        straplineTextOne: { runs: [browseRun("Band", "UCband", ARTIST)] },
        subtitleBadge: [{ musicInlineBadgeRenderer: { icon: { iconType: "MUSIC_EXPLICIT_BADGE" } } }],
        buttons: [
          { toggleButtonRenderer: { defaultServiceEndpoint: { likeEndpoint: { status: "LIKE" } } } },
          {
            musicPlayButtonRenderer: { playNavigationEndpoint: { watchEndpoint: { playlistId: "OLAKnew" } } },
          },
        ],
      },
    };
    const small = carousel("Fans might also like", [albumCard(7)], {
      itemSize: "COLLECTION_STYLE_ITEM_SIZE_SMALL",
    });
    const medium = carousel("Other versions", [albumCard(8)], {
      itemSize: "COLLECTION_STYLE_ITEM_SIZE_MEDIUM",
    });
    served = await serve([
      {
        contents: {
          twoColumnBrowseResultsRenderer: {
            tabs: [{ tabRenderer: { content: { sectionListRenderer: { contents: [header] } } } }],
            secondaryContents: {
              sectionListRenderer: {
                contents: [{ musicShelfRenderer: { contents: [trackRow(3, [])] } }, small, medium],
              },
            },
          },
        },
      },
    ]);
    const album = await served.client.getAlbum("MPREb_new");
    expect(album).toMatchObject({
      title: "New LP",
      type: "EP",
      isExplicit: true,
      year: "2024",
      duration: "9 minutes",
      audioPlaylistId: "OLAKnew",
      likeStatus: "INDIFFERENT",
      description: "",
      duration_seconds: 180,
    });
    expect(album.trackCount).toBeUndefined();
    expect(album.tracks[0]?.artists).toEqual([{ name: "Band", id: "UCband" }]);
    expect(album.related_recommendations?.map((a) => a.browseId)).toEqual(["MPREb_7"]);
    expect(album.other_versions?.map((a) => a.browseId)).toEqual(["MPREb_8"]);
  });
});

describe("getAlbumBrowseId (no capture: a local playlist page)", () => {
  it("finds the first MPRE token after undoing the page's escapes", async () => {
    const page =
      "<html><script>var a = '\\x7b\\x22browseId\\x22:\\x22MPREb_first\\x22\\x7d'; " +
      'var b = {"browseId":"MPREb_second"};</script></html>';
    served = await serve([], { other: () => ({ body: page }) });
    expect(await served.client.getAlbumBrowseId("OLAK5uy_abc")).toBe("MPREb_first");
    const request = served.server.requests.find((r) => r.path === "/playlist");
    expect(request?.query).toBe("list=OLAK5uy_abc");
    expect(request?.method).toBe("GET");
  });

  it("answers null when the page names no album", async () => {
    served = await serve([], { other: () => ({ body: "<html>nothing here</html>" }) });
    expect(await served.client.getAlbumBrowseId("OLAK5uy_abc")).toBeNull();
  });

  it("reads \\u escapes too", () => {
    expect(albumBrowseIdOfPage('x \\u0022MPREb_u\\u0022 y "MPREb_later"')).toBe("MPREb_u");
  });
});

describe("getArtist", () => {
  it("removes a leading MPLA from the id it sends", async () => {
    served = await serve(
      [singleColumn([], {})].map((page) => ({
        ...page,
        header: { musicImmersiveHeaderRenderer: { title: { runs: [{ text: "A" }] } } },
      })),
    );
    const artist = await served.client.getArtist("MPLAUCabc");
    expect(bodyOf(served.innertube()[0])).toEqual({ browseId: "UCabc" });
    expect(artist.name).toBe("A");
    expect(artist.songs).toEqual({ browseId: null });
  });

  it("raises a ParseError naming the header path for a page without an artist header", async () => {
    served = await serve([singleColumn([])]);
    const error = await served.client.getArtist("UCa").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).path).toBe("header.musicImmersiveHeaderRenderer");
    expect((error as ParseError).operation).toBe("get_artist");
  });

  it("files carousels by their exact title, keeps the list link, and skips unknown items", async () => {
    const albumsTitle = {
      text: "Albums",
      navigationEndpoint: { browseEndpoint: { browseId: "MPADUCa", params: "ggMx" } },
    };
    served = await serve([
      {
        ...singleColumn([
          carousel(albumsTitle, [albumCard(1), { musicPromoRenderer: {} }]),
          carousel("Playlists by A", [albumCard(2)]),
          carousel("Fans might also like", [
            card({ title: browseRun("B", "UCb", ARTIST), subtitle: [{ text: "12K subscribers" }] }),
          ]),
        ]),
        header: { musicImmersiveHeaderRenderer: { title: { runs: [{ text: "A" }] } } },
      },
    ]);
    const artist = await served.client.getArtist("UCa");
    expect(artist.albums?.browseId).toBe("MPADUCa");
    expect(artist.albums?.params).toBe("ggMx");
    expect(artist.albums?.results.map((a) => a.browseId)).toEqual(["MPREb_1"]);
    expect(artist.playlists).toBeUndefined();
    expect(artist.related).toEqual({
      browseId: null,
      results: [
        {
          title: "B",
          browseId: "UCb",
          subscribers: "12K",
          thumbnails: [{ url: "https://img.invalid/226", width: 226, height: 226 }],
        },
      ],
    });
  });

  it("reads the radio id from either endpoint of the Mix button", async () => {
    const header = (endpoint: Record<string, unknown>) => ({
      musicImmersiveHeaderRenderer: {
        title: { runs: [{ text: "A" }] },
        startRadioButton: { buttonRenderer: { navigationEndpoint: endpoint } },
      },
    });
    served = await serve([
      { ...singleColumn([]), header: header({ watchEndpoint: { playlistId: "RDEMold" } }) },
      { ...singleColumn([]), header: header({ watchPlaylistEndpoint: { playlistId: "RDEMnew" } }) },
    ]);
    expect((await served.client.getArtist("UCa")).radioId).toBe("RDEMold");
    expect((await served.client.getArtist("UCa")).radioId).toBe("RDEMnew");
  });
});

function artistAlbumCard(n: number) {
  return card({
    title: browseRun(`Album ${n}`, `MPREb_${n}`, ALBUM),
    subtitle: dotted("Album", String(2000 + n)),
    menuItems: [
      {
        menuNavigationItemRenderer: {
          navigationEndpoint: { watchPlaylistEndpoint: { playlistId: `OLAK${n}` } },
        },
      },
    ],
  });
}

describe("getArtistAlbums", () => {
  const grid = (from: number, count: number, token?: string) => ({
    items: Array.from({ length: count }, (_, i) => artistAlbumCard(from + i)),
    ...(token ? { continuations: nextToken(token) } : {}),
  });

  it("parses grid cards and follows grid continuations up to the limit", async () => {
    served = await serve([
      singleColumn([{ gridRenderer: grid(0, 2, "g1") }]),
      { continuationContents: { gridContinuation: grid(2, 2, "g2") } },
      { continuationContents: { gridContinuation: grid(4, 2) } },
    ]);
    const albums = await served.client.getArtistAlbums("MPADUCx", "ggMI", { limit: 3 });
    expect(albums).toHaveLength(4);
    expect(albums[0]).toEqual({
      browseId: "MPREb_0",
      playlistId: "OLAK0",
      title: "Album 0",
      thumbnails: [{ url: "https://img.invalid/226", width: 226, height: 226 }],
      type: "Album",
      year: "2000",
    });
    const sent = served.innertube();
    expect(sent).toHaveLength(2);
    expect(bodyOf(sent[0])).toEqual({ browseId: "MPADUCx", params: "ggMI" });
    expect(sent[1]?.query).toContain("ctoken=g1&continuation=g1");
  });

  it("reads the carousel form of the page (no continuations)", async () => {
    served = await serve([singleColumn([carousel("Albums", [artistAlbumCard(1), artistAlbumCard(2)])])]);
    const albums = await served.client.getArtistAlbums("MPADUCx", "ggMI");
    expect(albums.map((a) => a.browseId)).toEqual(["MPREb_1", "MPREb_2"]);
    expect(served.innertube()).toHaveLength(1);
  });

  it("with an order requests the sort option's reload token and reads its section", async () => {
    const option = (title: string, token: string) => ({
      musicMultiSelectMenuItemRenderer: {
        title: { runs: [{ text: title }] },
        selectedCommand: {
          commandExecutorCommand: {
            commands: [
              { other: {} },
              {
                browseSectionListReloadEndpoint: {
                  continuation: { reloadContinuationData: { continuation: token } },
                },
              },
            ],
          },
        },
      },
    });
    served = await serve([
      singleColumn([{ gridRenderer: grid(0, 1) }], {
        header: {
          musicSideAlignedItemRenderer: {
            endItems: [
              {
                musicSortFilterButtonRenderer: {
                  menu: {
                    musicMultiSelectMenuRenderer: {
                      options: [option("Recency", "r"), option("Popularity", "p")],
                    },
                  },
                },
              },
            ],
          },
        },
      }),
      { continuationContents: { sectionListContinuation: { contents: [{ gridRenderer: grid(5, 2) }] } } },
    ]);
    const albums = await served.client.getArtistAlbums("MPADUCx", "ggMI", { order: "popularity" });
    expect(albums.map((a) => a.title)).toEqual(["Album 5", "Album 6"]);
    const sent = served.innertube();
    expect(sent).toHaveLength(2);
    expect(sent[1]?.query).toContain("ctoken=p&continuation=p");
  });

  it("refuses an unknown order before any request", async () => {
    served = await serve([]);
    const error = await served.client
      .getArtistAlbums("MPADUCx", "ggMI", { order: "Loudest" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as ArgumentError).argument).toBe("order");
    expect(served.innertube()).toHaveLength(0);
  });

  it("raises a ParseError when the page has neither grid nor carousel", async () => {
    served = await serve([singleColumn([{ musicShelfRenderer: {} }])]);
    const error = await served.client.getArtistAlbums("MPADUCx", "ggMI").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).path).toContain("gridRenderer");
  });
});

describe("getUserPlaylists / getUserVideos (no playlist capture: hand-written grid)", () => {
  it("parses the playlist grid with ownership from the menu", async () => {
    served = await serve([
      singleColumn([
        {
          gridRenderer: {
            items: [
              card({
                title: browseRun("Mine", "VLPLmine", PLAYLIST),
                subtitle: dotted("Playlist", "12 views"),
                menuItems: [
                  {
                    menuNavigationItemRenderer: {
                      navigationEndpoint: { playlistEditorEndpoint: { playlistId: "PLmine" } },
                    },
                  },
                ],
              }),
              card({ title: browseRun("Theirs", "VLPLtheirs", PLAYLIST), subtitle: dotted("Playlist") }),
            ],
          },
        },
      ]),
    ]);
    const playlists = await served.client.getUserPlaylists("UCuser", "6gPi");
    expect(bodyOf(served.innertube()[0])).toEqual({ browseId: "UCuser", params: "6gPi" });
    expect(playlists.map((p) => [p.playlistId, p.owned, p.description])).toEqual([
      ["PLmine", true, "Playlist \u2022 12 views"],
      ["PLtheirs", false, "Playlist"],
    ]);
  });

  it("answers [] for a page without a grid", async () => {
    served = await serve([singleColumn([])]);
    expect(await served.client.getUserPlaylists("UCuser", "6gPi")).toEqual([]);
  });

  it("parses video cards, taking the video id from the queue menu when the card has none", async () => {
    served = await serve([
      singleColumn([
        {
          gridRenderer: {
            items: [
              card({
                title: { text: "Clip" },
                subtitle: dotted(browseRun("Me", "UCme", "MUSIC_PAGE_TYPE_USER_CHANNEL"), "5 views"),
                menuItems: [
                  {
                    menuServiceItemRenderer: {
                      serviceEndpoint: { queueAddEndpoint: { queueTarget: { videoId: "clip0000001" } } },
                    },
                  },
                ],
              }),
            ],
          },
        },
      ]),
    ]);
    const [video] = await served.client.getUserVideos("UCuser", "8gYE");
    expect(video).toMatchObject({
      title: "Clip",
      videoId: "clip0000001",
      artists: [{ name: "Me", id: "UCme" }],
      views: "5",
    });
  });
});

describe("home quick picks (flat song rows)", () => {
  it("parses a flat song row with the type word skipped and the album column", () => {
    const rows = [
      carousel("Quick picks", [
        row(
          [
            [watchRun("Tune", "tune0000001")],
            dotted("Song", browseRun("Band", "UCband", ARTIST), "2.2K plays"),
            [browseRun("Record", "MPREb_rec", ALBUM)],
          ],
          { overlay: playOverlay("tune0000001"), thumbnail: thumbs() },
        ),
      ]),
    ];
    const [home] = parseMixedContent(rows, collectNotes());
    expect(home?.contents).toEqual([
      {
        title: "Tune",
        videoId: "tune0000001",
        videoType: "MUSIC_VIDEO_TYPE_ATV",
        thumbnails: [{ url: "https://img.invalid/60", width: 60, height: 60 }],
        isExplicit: false,
        artists: [{ name: "Band", id: "UCband" }],
        views: "2.2K",
        album: { name: "Record", id: "MPREb_rec" },
      },
    ]);
  });
});
