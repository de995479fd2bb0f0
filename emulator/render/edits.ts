/**
 * The answers of state-changing endpoints (docs/PROTOCOL.md#library, docs/PROTOCOL.md#playlists): added-row results, toasts,
 * attestation requests, the side guide's new entry, subscribe-button updates. Pure: data in, JSON out.
 */
import type { Rating, TargetKind } from "../store/library-edits.js";
import type { PlaylistRow } from "../store/rows.js";
import type { Json } from "./common.js";

/** One row an edit added, as `playlistEditResults` lists it. */
export function addedResult(videoId: string, setVideoId: string): Json {
  return {
    playlistEditVideoAddedResultData: {
      videoId,
      setVideoId,
      multiSelectData: {
        multiSelectParams: "CAM%3D",
        multiSelectItem: Buffer.from(videoId).toString("base64"),
      },
    },
  };
}

/** After adds the service sends a toast naming the playlist (capture yt_add_playlist_items_20240626). */
export function savedToPlaylistToast(playlistId: string, title: string): Json {
  return {
    addToToastAction: {
      item: {
        notificationActionRenderer: {
          responseText: { runs: [{ text: `Saved to ${title}` }] },
          actionButton: {
            buttonRenderer: {
              text: { runs: [{ text: "View" }] },
              navigationEndpoint: { browseEndpoint: { browseId: `VL${playlistId}` } },
            },
          },
        },
      },
    },
  };
}

/** A toast; with `view`, a View button that opens that page (Liked music, the library). */
function toast(message: string, view: string | null = null): Json {
  const renderer: Record<string, unknown> = { responseText: { runs: [{ text: message }] } };
  if (view) {
    renderer.actionButton = {
      buttonRenderer: {
        style: "STYLE_DEFAULT",
        isDisabled: false,
        text: { runs: [{ text: "View" }] },
        navigationEndpoint: { browseEndpoint: { browseId: view } },
      },
    };
  }
  return { addToToastAction: { item: { notificationActionRenderer: renderer } } };
}

function rateToast(kind: TargetKind, rating: Rating): Json {
  if (rating === "LIKE") {
    return kind === "song"
      ? toast("Saved to your Liked songs", "VLLM")
      : toast("Saved to library", "FEmusic_library_landing");
  }
  if (rating === "DISLIKE") return toast("Got it");
  return toast(`Removed from ${kind === "song" ? "Liked songs" : "library"}`);
}

/** Saving a playlist also adds it to the side guide (capture yt_rate_playlist_like_20240710). */
function guideEntry(saved: PlaylistRow): Json {
  const id = saved.playlistId;
  return {
    addToGuideSectionAction: {
      handlerData: "GUIDE_ACTION_ADD_TO_PLAYLISTS",
      items: [
        {
          guideEntryRenderer: {
            navigationEndpoint: {
              browseEndpoint: {
                browseId: `VL${id}`,
                browseEndpointContextSupportedConfigs: {
                  browseEndpointContextMusicConfig: { pageType: "MUSIC_PAGE_TYPE_PLAYLIST" },
                },
              },
            },
            formattedTitle: { runs: [{ text: saved.title }] },
            formattedSubtitle: { runs: [{ text: saved.authorName }] },
            entryData: { guideEntryData: { guideEntryId: id } },
            mouseOverButton: {
              musicPlayButtonRenderer: {
                playNavigationEndpoint: {
                  watchPlaylistEndpoint: { playlistId: id, params: "wAEB8gECKAE%3D" },
                },
                playIcon: { iconType: "PLAY_ARROW" },
                pauseIcon: { iconType: "PAUSE" },
              },
            },
          },
        },
      ],
    },
  };
}

/**
 * The answer to a like, dislike or removed like: a toast, an attestation request for a song
 * rated, and the side guide's new entry for a user playlist saved (`saved`).
 */
export function rateAnswer(kind: TargetKind, id: string, rating: Rating, saved: PlaylistRow | null): Json {
  const actions: Json[] = [rateToast(kind, rating)];
  if (rating !== "INDIFFERENT" && kind === "song") {
    actions.push({
      runAttestationCommand: {
        ids: [{ encryptedVideoId: id }],
        engagementType: rating === "LIKE" ? "ENGAGEMENT_TYPE_VIDEO_LIKE" : "ENGAGEMENT_TYPE_VIDEO_DISLIKE",
      },
    });
  }
  if (saved) actions.push(guideEntry(saved));
  return { actions };
}

/**
 * The subscribe answer: a text toast, an attestation request and the new button state
 * (capture yt_subscribe_artist_20250704).
 */
export function subscribeAnswer(channelIds: readonly string[], name: string, on: boolean): Json {
  return {
    actions: [
      {
        addToToastAction: {
          item: {
            notificationTextRenderer: {
              successResponseText: {
                runs: [{ text: on ? "Subscribed to " : "Unsubscribed from " }, { text: name }],
              },
            },
          },
        },
      },
      {
        runAttestationCommand: {
          ids: channelIds.map((c) => ({ externalChannelId: c })),
          engagementType: on ? "ENGAGEMENT_TYPE_SUBSCRIBE" : "ENGAGEMENT_TYPE_UNSUBSCRIBE",
        },
      },
      ...channelIds.map((c) => ({
        updateSubscribeButtonAction: { subscribed: on, channelId: c },
      })),
    ],
  };
}
