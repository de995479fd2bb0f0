/**
 * Podcast (`MPSP…`), episode (`MPED…`) and podcast-channel pages (captures yt_get_podcast_20240830,
 * yt_get_episode_20240830, yt_get_channel_20240830).
 */
import type { ArtistRow, EpisodeRow, PodcastRow } from "../store/rows.js";
import { continuationToken } from "../tokens.js";
import { subscribeButton } from "./artist.js";
import {
  addToPlaylistItem,
  browse,
  carousel,
  downloadVideoItem,
  imageSizes,
  type Json,
  likeToggleButton,
  musicThumbnail,
  navItem,
  nextContinuation,
  PAGE,
  playButton,
  queueItems,
  run,
  saveCollectionItem,
  shareItem,
  singleColumn,
  text,
  watch,
  watchPlaylist,
} from "./common.js";
import { categoryTitle } from "./display.js";
import { clock, type DateStyle, episodeDate, totalDuration } from "./format.js";
import { episodeLength, episodeRow, markPlayedItem, podcastCard } from "./items.js";

export const PODCAST_PAGE_SIZE = 10;
export const CHANNEL_EPISODES_PARAMS = "6gPmAUdxa0JXcGtCQ3BZQkNpUjVkRjl3WVdkbFg";

function twoColumn(header: Json, secondary: Json[], listHeader?: Json): Json {
  const list: Json = { contents: secondary };
  if (listHeader) list.header = listHeader;
  return {
    contents: {
      twoColumnBrowseResultsRenderer: {
        secondaryContents: { sectionListRenderer: list },
        tabs: [{ tabRenderer: { content: { sectionListRenderer: { contents: [header] } } } }],
      },
    },
  };
}

export function podcastPage(
  p: PodcastRow,
  episodes: EpisodeRow[],
  offset: number,
  total: number,
  saved: boolean,
  dates?: DateStyle,
): Json {
  const header = {
    musicResponsiveHeaderRenderer: {
      thumbnail: musicThumbnail(imageSizes(p.playlistId, [226, 544])),
      buttons: [
        {
          buttonRenderer: {
            text: text("Play"),
            icon: { iconType: "PLAY_ARROW" },
            navigationEndpoint: watchPlaylist(p.playlistId),
          },
        },
        likeToggleButton(p.playlistId, saved),
        {
          menuRenderer: {
            items: [
              saveCollectionItem(p.playlistId, saved, "podcast"),
              ...queueItems({ playlistId: p.playlistId }, "Podcast"),
              shareItem(`\u0012${p.playlistId}`),
            ],
          },
        },
      ],
      title: text(p.title),
      subtitle: { runs: [] },
      straplineTextOne: { runs: [run(p.channelName, browse(p.channelId, PAGE.channel))] },
      straplineThumbnail: musicThumbnail(imageSizes(p.channelId, [60])),
      description: {
        musicDescriptionShelfRenderer: {
          description: text(p.description),
          moreButton: {
            toggleButtonRenderer: { isToggled: false, defaultText: text("More"), toggledText: text("Less") },
          },
        },
      },
    },
  };
  // The episode list has a sort chip (newest / oldest) above it.
  const sortChips = {
    chipCloudRenderer: {
      chips: [
        {
          chipCloudChipRenderer: {
            text: text("Newest"),
            navigationEndpoint: {
              openPopupAction: {
                popup: {
                  menuPopupRenderer: {
                    items: ["Newest", "Oldest"].map((label) =>
                      navItem(label, "SORT", browse(`MPSP${p.playlistId}`)),
                    ),
                  },
                },
                popupType: "DROPDOWN",
              },
            },
          },
        },
      ],
    },
  };
  const page = twoColumn(header, [podcastShelf(p, episodes, offset, total, false, dates)], sortChips);
  page.background = musicThumbnail(imageSizes(p.playlistId, [544]));
  return page;
}

export function podcastShelf(
  p: PodcastRow,
  episodes: EpisodeRow[],
  offset: number,
  total: number,
  continuation: boolean,
  dates?: DateStyle,
): Json {
  const body: Json = { contents: episodes.map((e, i) => episodeRow(e, offset + i, dates)) };
  const next = offset + episodes.length;
  if (next < total) {
    body.continuations = nextContinuation(continuationToken({ k: "podcast", id: p.playlistId, o: next }));
  }
  if (continuation) return { continuationContents: { musicShelfContinuation: body } };
  body.shelfDivider = { musicShelfDividerRenderer: { hidden: true } };
  return { musicShelfRenderer: body };
}

export function episodePage(e: EpisodeRow, saved: boolean, signedIn = true, dates?: DateStyle): Json {
  const header = {
    musicResponsiveHeaderRenderer: {
      thumbnail: musicThumbnail(imageSizes(e.videoId, [], true)),
      buttons: [
        {
          toggleButtonRenderer: {
            isToggled: saved,
            isDisabled: false,
            defaultIcon: { iconType: "BOOKMARK_BORDER" },
            toggledIcon: { iconType: "BOOKMARK" },
            defaultServiceEndpoint: {
              playlistEditEndpoint: {
                playlistId: "SE",
                actions: [
                  {
                    addedVideoId: e.videoId,
                    action: "ACTION_ADD_VIDEO",
                    dedupeOption: "DEDUPE_OPTION_CHECK",
                  },
                ],
              },
            },
            toggledServiceEndpoint: {
              playlistEditEndpoint: {
                playlistId: "SE",
                actions: [{ action: "ACTION_REMOVE_VIDEO_BY_VIDEO_ID", removedVideoId: e.videoId }],
              },
            },
          },
        },
        {
          musicPlayButtonRenderer: playButton(
            watch(e.videoId, { videoType: "MUSIC_VIDEO_TYPE_PODCAST_EPISODE" }),
          ).musicPlayButtonRenderer,
        },
        {
          menuRenderer: {
            items: [
              markPlayedItem(e.videoId),
              ...queueItems({ videoId: e.videoId }, "Episode"),
              downloadVideoItem(e.videoId),
              // Capture yt_get_episode_20240830: the header menu offers the episode to a playlist.
              addToPlaylistItem({ videoId: e.videoId }, signedIn),
              navItem("Go to podcast", "BROADCAST", browse(`MPSP${e.podcastPlaylistId}`, PAGE.podcast)),
              shareItem(e.videoId),
            ],
          },
        },
      ],
      title: text(e.title),
      subtitle: text(episodeDate(e.publishedDay * 86_400_000, dates)),
      progress: {
        musicPlaybackProgressRenderer: {
          playbackProgressPercentage: 0,
          playbackProgressText: { runs: [{ text: " • " }, { text: episodeLength(e.durationSeconds) }] },
          durationText: { runs: [{ text: " • " }, { text: episodeLength(e.durationSeconds) }] },
        },
      },
      straplineTextOne: { runs: [run(e.podcastTitle, browse(`MPSP${e.podcastPlaylistId}`, PAGE.podcast))] },
    },
  };
  const page = twoColumn(header, [
    {
      musicDescriptionShelfRenderer: {
        description: episodeDescription(e),
        header: text("Episode description"),
      },
    },
  ]);
  page.background = musicThumbnail(imageSizes(e.videoId, [544]));
  return page;
}

/**
 * An episode's description as the service sends it (capture yt_get_episode_20240830): plain text
 * runs, URLs turned into runs holding a `urlEndpoint`, and timestamps into runs holding a
 * `watchEndpoint` of the episode itself with `startTimeSeconds`. The generated text is followed
 * by the show's site and a few chapters spread over the episode's length, derived from the row
 * so that the same episode always reads the same.
 */
export function episodeDescription(e: EpisodeRow): Json {
  const site = `https://${e.channelName.toLowerCase().replace(/[^a-z0-9]+/g, "")}.example.org/`;
  const link = (url: string) => run(url, { urlEndpoint: { url, target: "TARGET_NEW_WINDOW" } });
  const at = (seconds: number) =>
    run(clock(seconds), {
      watchEndpoint: { videoId: e.videoId, continuePlayback: true, startTimeSeconds: seconds },
    });
  const chapters = ["Introduction", "The main topic", "Questions from listeners"];
  const items: Json[] = [{ text: `${e.description}\n\nMore from ${e.channelName}: ` }, link(site)];
  items.push({ text: "\n\nTimestamps\n" });
  chapters.forEach((name, i) => {
    // Chapters start at 0 and at a third and two thirds of the episode, on whole seconds.
    items.push(at(Math.floor((e.durationSeconds * i) / chapters.length)));
    items.push({ text: ` ${name}${i < chapters.length - 1 ? "\n" : ""}` });
  });
  return { runs: items };
}

export function channelPage(
  c: ArtistRow,
  episodes: EpisodeRow[],
  podcasts: PodcastRow[],
  subscribed: boolean,
  language = "en",
  dates?: DateStyle,
): Json {
  const more = browse(c.channelId, undefined, CHANNEL_EPISODES_PARAMS);
  const sections: Json[] = [];
  if (episodes.length)
    sections.push(
      carousel(
        categoryTitle("episodes", language),
        episodes.map((e, i) => episodeRow(e, i, dates)),
        more,
      ),
    );
  if (podcasts.length)
    sections.push(
      carousel(
        categoryTitle("podcasts", language),
        podcasts.map((p) => podcastCard(p)),
      ),
    );
  return {
    header: {
      musicVisualHeaderRenderer: {
        title: text(c.name),
        subscriptionButton: subscribeButton(c.channelId, c.subscribers, subscribed),
        thumbnail: musicThumbnail(imageSizes(c.channelId, [540, 1080])),
        foregroundThumbnail: musicThumbnail(imageSizes(c.channelId, [226])),
      },
    },
    ...singleColumn({ sectionListRenderer: { contents: sections } }),
  };
}

export function channelEpisodesPage(c: ArtistRow, episodes: EpisodeRow[], dates?: DateStyle): Json {
  return {
    header: { musicHeaderRenderer: { title: text(`${c.name}: episodes`) } },
    ...singleColumn({
      sectionListRenderer: {
        contents: [{ gridRenderer: { items: episodes.map((e, i) => episodeRow(e, i, dates)) } }],
      },
    }),
  };
}

/** The "New episodes" auto playlist (`VLRDPN`, capture yt_get_new_episodes_20240830). */
export function newEpisodesPage(
  episodes: EpisodeRow[],
  owner: { name: string; channelId: string },
  year: number,
  dates?: DateStyle,
): Json {
  const seconds = episodes.reduce((n, e) => n + e.durationSeconds, 0);
  // The play button starts the newest episode inside the auto playlist, and the strapline links the
  // owner's channel (capture yt_get_new_episodes_20240830).
  const first = episodes[0];
  const play = first
    ? watch(first.videoId, { playlistId: "RDPN", videoType: "MUSIC_VIDEO_TYPE_PODCAST_EPISODE" })
    : watchPlaylist("RDPN");
  const header = {
    musicResponsiveHeaderRenderer: {
      thumbnail: musicThumbnail(imageSizes("RDPN", [226, 544])),
      buttons: [
        {
          downloadButtonRenderer: {
            style: "STYLE_DEFAULT",
            command: {
              offlinePlaylistEndpoint: {
                playlistId: "RDPN",
                action: "ACTION_ADD",
                offlineability: { offlineabilityRenderer: { offlineable: true } },
              },
            },
          },
        },
        {
          musicPlayButtonRenderer: playButton(play, "MUSIC_PLAY_BUTTON_SIZE_LARGE").musicPlayButtonRenderer,
        },
        {
          menuRenderer: {
            items: [...queueItems({ playlistId: "RDPN" }, "Playlist"), shareItem("\u0012RDPN")],
          },
        },
      ],
      title: text("New episodes"),
      subtitle: { runs: [{ text: "Auto playlist" }, { text: " • " }, { text: String(year) }] },
      straplineTextOne: { runs: [run(owner.name, browse(owner.channelId, PAGE.channel))] },
      straplineThumbnail: musicThumbnail(imageSizes(owner.name, [60])),
      description: {
        musicDescriptionShelfRenderer: {
          description: text("New episodes from the podcasts you saved"),
          moreButton: {
            toggleButtonRenderer: { isToggled: false, defaultText: text("More"), toggledText: text("Less") },
          },
        },
      },
      secondSubtitle: {
        runs: [
          { text: `${episodes.length} episode${episodes.length === 1 ? "" : "s"}` },
          { text: " • " },
          { text: totalDuration(seconds) },
        ],
      },
    },
  };
  const page = twoColumn(header, [
    {
      musicShelfRenderer: {
        contents: episodes.map((e, i) => episodeRow(e, i, dates)),
        shelfDivider: { musicShelfDividerRenderer: { hidden: true } },
      },
    },
  ]);
  page.background = musicThumbnail(imageSizes("RDPN", [544]));
  return page;
}
