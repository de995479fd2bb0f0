/**
 * Pages about one track: lyrics (`MPLY…`, capture yt_get_lyrics_20231219), related (`MPTR…`: rows
 * like home's, no tabs), credits (`MPTC…`: a popup of dialog sections), and the user channel page
 * (`musicVisualHeaderRenderer`, capture yt_get_user_20250707); the taste-profile picker.
 */
import type { ArtistRow, PlaylistRow, SongRow } from "../store/rows.js";
import {
  browse,
  carousel,
  dotted,
  imageSizes,
  type Json,
  musicThumbnail,
  run,
  singleColumn,
  text,
} from "./common.js";
import { artistCard, type Marks, playlistCard, songCard, videoCard } from "./items.js";

export const USER_PLAYLISTS_PARAMS = "6gPiAUdxWUJXcFlCQ3BNQkNpUjVkRjl3WVdkbFgzTnVZWEJ6YUc5MFgyMTFj";
/** The params of a user's full video list (same channel id, other params). */
export const USER_VIDEOS_PARAMS = "6gPiAUdxWUJXcFlCQ3BNQkNpUjVkRjl3WVdkbFgzWnBaR1Z2YzE5d1lXZGxY";

export interface UserChannel {
  name: string;
  channelId: string;
  /** The viewer's like states, for the video cards' menus. */
  marks: Marks;
}

export function lyricsPage(lines: string, source: string): Json {
  return {
    contents: {
      sectionListRenderer: {
        contents: [
          {
            musicDescriptionShelfRenderer: {
              description: text(lines),
              maxCollapsedLines: 0,
              maxExpandedLines: 0,
              footer: text(source),
            },
          },
        ],
      },
    },
  };
}

/**
 * Timed lyrics, served only to the ANDROID_MUSIC client (docs/PROTOCOL.md#browsing): an element renderer whose
 * model holds one cue per line, times in milliseconds as strings.
 */
export function timedLyricsPage(lines: string[], source: string, durationSeconds: number): Json {
  const step = Math.floor((durationSeconds * 1000) / (lines.length + 1));
  return {
    contents: {
      elementRenderer: {
        newElement: {
          type: {
            componentType: {
              model: {
                timedLyricsModel: {
                  lyricsData: {
                    timedLyricsData: lines.map((lyricLine, i) => ({
                      lyricLine,
                      cueRange: {
                        startTimeMilliseconds: String((i + 1) * step),
                        endTimeMilliseconds: String((i + 2) * step),
                        metadata: { id: String(i + 1) },
                      },
                    })),
                    sourceMessage: source.replace(/^Source: /, ""),
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}

/** A song without lyrics: a message section where the lyrics shelf would be. */
export function noLyricsPage(): Json {
  return {
    contents: {
      messageRenderer: { text: text("Lyrics not available") },
    },
  };
}

export function relatedPage(songs: SongRow[], artists: ArtistRow[], about: string): Json {
  return {
    contents: {
      sectionListRenderer: {
        contents: [
          carousel(
            "You might also like",
            songs.map((s) => songCard(s)),
          ),
          carousel(
            "Similar artists",
            artists.map((a) => artistCard(a)),
          ),
          { musicDescriptionShelfRenderer: { header: text("About the artist"), description: text(about) } },
        ],
      },
    },
  };
}

export function creditsPage(s: SongRow): Json {
  const section = (title: string, names: { name: string; id?: string }[]) => ({
    dismissableDialogContentSectionRenderer: {
      title: text(title),
      subtitle: {
        runs: dotted(
          names.map((n) => run(n.name, n.id ? browse(n.id, "MUSIC_PAGE_TYPE_ARTIST") : undefined)),
        ).map((r) => (r.text === " • " ? { text: "\n" } : r)),
      },
    },
  });
  return {
    onResponseReceivedActions: [
      {
        openPopupAction: {
          popup: {
            dismissableDialogRenderer: {
              title: text("Song credits"),
              sections: [
                section("Performed by", [{ name: s.artistName, id: s.channelId }]),
                section("Written by", [{ name: s.artistName }]),
                section("Produced by", [{ name: `${s.artistName} Productions` }]),
                section("Music metadata provided by", [{ name: "The Emulator Music Group" }]),
              ],
            },
          },
          popupType: "DIALOG",
        },
      },
    ],
  };
}

/**
 * A user's channel page: a videos carousel, then a playlists carousel (capture
 * yt_get_user_20250707), each with a "More" link to its full list (same browse id, own params).
 */
export function userPage(user: UserChannel, videos: SongRow[], playlists: PlaylistRow[]): Json {
  const { name, channelId } = user;
  const sections: Json[] = [];
  if (videos.length) {
    sections.push(
      carousel(
        "Videos",
        videos.map((v) => videoCard(v, undefined, user)),
        browse(channelId, undefined, USER_VIDEOS_PARAMS),
      ),
    );
  }
  if (playlists.length) {
    sections.push(
      carousel(
        "Playlists",
        playlists.map((p) => playlistCard(p, null, false)),
        browse(channelId, undefined, USER_PLAYLISTS_PARAMS),
      ),
    );
  }
  return {
    header: {
      musicVisualHeaderRenderer: {
        title: text(name),
        menu: {
          menuRenderer: {
            topLevelButtons: [
              {
                buttonRenderer: {
                  style: "STYLE_DARK_ON_WHITE",
                  text: text("Share"),
                  icon: { iconType: "SHARE" },
                  command: {
                    shareEntityEndpoint: {
                      serializedShareEntity: Buffer.from(channelId).toString("base64"),
                      sharePanelType: "SHARE_PANEL_TYPE_UNIFIED_SHARE_PANEL",
                    },
                  },
                },
              },
            ],
          },
        },
        thumbnail: musicThumbnail(imageSizes(channelId, [540, 1080])),
        foregroundThumbnail: musicThumbnail(imageSizes(channelId, [60, 120])),
      },
    },
    ...singleColumn({ sectionListRenderer: { contents: sections } }),
  };
}

export function userPlaylistsPage(playlists: PlaylistRow[]): Json {
  return singleColumn({
    sectionListRenderer: {
      contents: [{ gridRenderer: { items: playlists.map((p) => playlistCard(p, null, false)) } }],
    },
  });
}

/**
 * A user's full video list: the user's name as the page header, one grid under a "Videos" header
 * (capture yt_get_user_videos_20250707).
 */
export function userVideosPage(user: UserChannel, videos: SongRow[]): Json {
  const page = singleColumn({
    sectionListRenderer: {
      contents: [
        {
          gridRenderer: {
            items: videos.map((v) => videoCard(v, undefined, user)),
            header: { gridHeaderRenderer: { title: text("Videos") } },
          },
        },
      ],
    },
  });
  return { header: { musicHeaderRenderer: { title: text(user.name) } }, ...page };
}

export function tasteProfilePage(artists: ArtistRow[]): Json {
  const lists: Json[] = [];
  for (let i = 0; i < artists.length; i += 15) {
    lists.push({
      tastebuilderItemListRenderer: {
        contents: artists.slice(i, i + 15).map((a) => ({
          tastebuilderItemRenderer: {
            title: text(a.name),
            thumbnailRenderer: {
              musicArtistThumbnailRenderer: { thumbnail: { thumbnails: imageSizes(a.channelId, [60, 120]) } },
            },
            selectionFormValue: `tastebuilder_selection=/m/${a.channelId.slice(2, 12)}`,
            impressionFormValue: `tastebuilder_impression=/m/${a.channelId.slice(2, 12)}`,
          },
        })),
        collapsedItemCount: 3,
      },
    });
  }
  return {
    contents: {
      tastebuilderRenderer: {
        title: text("Pick 5 artists you like"),
        subtitle: text("To get you started, we've included some of the artists you already listen to"),
        contents: lists,
        acceptButton: {
          buttonRenderer: {
            text: text("DONE"),
            navigationEndpoint: {
              browseEndpoint: { browseId: "FEmusic_home", params: "ggMCEAHqBAxGRW11c2ljX2hvbWU%3D" },
            },
          },
        },
        itemsNeeded: 0,
      },
    },
  };
}
