/**
 * Builders of hand-written responses in the captured renderer shapes, for the search and browsing
 * tests (the server they are served from is test/support/page-server.ts).
 */

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
