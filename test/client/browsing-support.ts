import { MusicClient, type MusicClientOptions } from "../../src/index.js";
import { TEST_BROWSER_AUTH } from "../support/fixtures.js";
import {
  endpointOf,
  type Handler,
  type SeenRequest,
  START_PAGE,
  startServer,
  type TestServer,
} from "../support/replay-server.js";

/**
 * Helpers for the search and browsing tests: a local server answering InnerTube requests from a list
 * of pages, and builders of hand-written responses in the captured renderer shapes.
 */

export interface Served {
  client: MusicClient;
  server: TestServer;
  /** The InnerTube requests received so far (visitor-id page loads left out). */
  innertube(): SeenRequest[];
  close(): Promise<void>;
}

/** Serves `pages` in order to InnerTube requests (then `{}`); `other` answers any other path. */
export async function serve(
  pages: readonly unknown[],
  options: { auth?: boolean; other?: Handler; client?: Partial<MusicClientOptions> } = {},
): Promise<Served> {
  let next = 0;
  const server = await startServer((request) => {
    if (endpointOf(request.path) === null) {
      if (options.other !== undefined && request.path !== "/") return options.other(request);
      return { body: START_PAGE };
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
    close: () => server.close(),
  };
}

/** The body a request sent, without `context`. */
export function bodyOf(request: SeenRequest | undefined): Record<string, unknown> {
  const { context: _context, ...body } = (request?.json ?? {}) as Record<string, unknown>;
  return body;
}

const DOT = { text: " \u2022 " };

export function browseRun(text: string, browseId: string, pageType?: string): Record<string, unknown> {
  return {
    text,
    navigationEndpoint: {
      browseEndpoint: {
        browseId,
        ...(pageType
          ? { browseEndpointContextSupportedConfigs: { browseEndpointContextMusicConfig: { pageType } } }
          : {}),
      },
    },
  };
}

export function watchRun(text: string, videoId: string, playlistId?: string): Record<string, unknown> {
  return { text, navigationEndpoint: { watchEndpoint: { videoId, ...(playlistId ? { playlistId } : {}) } } };
}

/** Runs separated by DOT runs. */
export function dotted(...runs: Array<Record<string, unknown> | string>): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  runs.forEach((run, i) => {
    if (i > 0) out.push({ ...DOT });
    out.push(typeof run === "string" ? { text: run } : run);
  });
  return out;
}

export function thumbs(size = 60): Record<string, unknown> {
  return {
    musicThumbnailRenderer: {
      thumbnail: { thumbnails: [{ url: `https://img.invalid/${size}`, width: size, height: size }] },
    },
  };
}

/** A card (MTRIR). */
export function card(fields: {
  title: Record<string, unknown>;
  subtitle?: Array<Record<string, unknown>>;
  navigationEndpoint?: Record<string, unknown>;
  menuItems?: unknown[];
}): Record<string, unknown> {
  return {
    musicTwoRowItemRenderer: {
      title: { runs: [fields.title] },
      subtitle: { runs: fields.subtitle ?? [] },
      thumbnailRenderer: thumbs(226),
      ...(fields.navigationEndpoint ? { navigationEndpoint: fields.navigationEndpoint } : {}),
      ...(fields.menuItems ? { menu: { menuRenderer: { items: fields.menuItems } } } : {}),
    },
  };
}

/** A row (MRLIR) with the given flex columns' runs. */
export function row(
  columns: Array<Array<Record<string, unknown>>>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    musicResponsiveListItemRenderer: {
      flexColumns: columns.map((runs) => ({ musicResponsiveListItemFlexColumnRenderer: { text: { runs } } })),
      ...extra,
    },
  };
}

/** A play-button overlay for a row. */
export function playOverlay(videoId: string, videoType = "MUSIC_VIDEO_TYPE_ATV"): Record<string, unknown> {
  return {
    musicItemThumbnailOverlayRenderer: {
      content: {
        musicPlayButtonRenderer: {
          playNavigationEndpoint: {
            watchEndpoint: {
              videoId,
              watchEndpointMusicSupportedConfigs: { watchEndpointMusicConfig: { musicVideoType: videoType } },
            },
          },
        },
      },
    },
  };
}

export function carousel(
  title: string | Record<string, unknown>,
  contents: unknown[],
  extra: Record<string, unknown> = {},
) {
  return {
    musicCarouselShelfRenderer: {
      header: {
        musicCarouselShelfBasicHeaderRenderer: {
          title: { runs: [typeof title === "string" ? { text: title } : title] },
        },
      },
      contents,
      ...extra,
    },
  };
}

export function nextToken(token: string): Array<Record<string, unknown>> {
  return [{ nextContinuationData: { continuation: token } }];
}

/** A single-column browse page around `sections`. */
export function singleColumn(
  sections: unknown[],
  sectionList: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    contents: {
      singleColumnBrowseResultsRenderer: {
        tabs: [{ tabRenderer: { content: { sectionListRenderer: { contents: sections, ...sectionList } } } }],
      },
    },
  };
}
