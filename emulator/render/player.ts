/**
 * The `player` response: the five top-level keys clients keep (PROTOCOL §6.1) with a
 * `playbackTracking` whose URLs point at the emulator.
 */
import type { EmulatorState } from "../context.js";
import type { EpisodeRow, SongRow } from "../store/rows.js";
import { imageSizes, type Json } from "./common.js";
import { signatureTimestamp } from "./pages.js";

function tracking(base: string, path: string, videoId: string, seconds: number): Json {
  const q = new URLSearchParams({
    cl: "700000000",
    docid: videoId,
    ei: Buffer.from(videoId).toString("base64url"),
    fexp: "",
    ns: "yt",
    plid: "AAYemulator",
    el: "detailpage",
    len: String(seconds),
    of: "emu",
    vm: "CAEQAQ",
  });
  return {
    baseUrl: `${base}${path}?${q}`,
    headers: [{ headerType: "USER_AUTH" }, { headerType: "VISITOR_ID" }, { headerType: "PLUS_PAGE_ID" }],
  };
}

export function playerResponse(
  state: EmulatorState,
  videoId: string,
  song: SongRow | null,
  episode: EpisodeRow | null,
  _accountId: number | null,
): Json {
  if (!song && !episode) {
    return {
      playabilityStatus: { status: "ERROR", reason: "Video unavailable" },
      videoDetails: undefined,
    };
  }
  const title = song?.title ?? episode!.title;
  const author = song?.artistName ?? episode!.channelName;
  const channelId = song?.channelId ?? episode!.channelId;
  const seconds = song?.durationSeconds ?? episode!.durationSeconds;
  const videoType = song?.videoType ?? "MUSIC_VIDEO_TYPE_PODCAST_EPISODE";
  const playable = song ? song.available : true;
  const base = state.baseUrl;
  const expires = 21540;
  const format = (itag: number, mime: string, bitrate: number) => ({
    itag,
    url: `${base}/videoplayback?id=${videoId}&itag=${itag}&sts=${signatureTimestamp(state.now())}`,
    mimeType: mime,
    bitrate,
    averageBitrate: Math.floor(bitrate * 0.9),
    initRange: { start: "0", end: "722" },
    indexRange: { start: "723", end: "1200" },
    lastModified: "1700000000000000",
    contentLength: String(Math.floor((seconds * bitrate) / 8)),
    quality: "tiny",
    projectionType: "RECTANGULAR",
    highReplication: true,
    audioQuality: itag === 251 ? "AUDIO_QUALITY_MEDIUM" : "AUDIO_QUALITY_LOW",
    approxDurationMs: String(seconds * 1000),
    audioSampleRate: "48000",
    audioChannels: 2,
    loudnessDb: -5.2,
  });
  return {
    playabilityStatus: playable
      ? {
          status: "OK",
          playableInEmbed: true,
          audioOnlyPlayability: {
            audioOnlyPlayabilityRenderer: { audioOnlyAvailability: "FEATURE_AVAILABILITY_ALLOWED" },
          },
          miniplayer: { miniplayerRenderer: { playbackMode: "PLAYBACK_MODE_ALLOW" } },
          contextParams: "Q0FFU0FnZ0I=",
        }
      : { status: "UNPLAYABLE", reason: "This video is not available" },
    streamingData: playable
      ? {
          expiresInSeconds: String(expires),
          adaptiveFormats: [
            format(140, 'audio/mp4; codecs="mp4a.40.2"', 130000),
            format(251, 'audio/webm; codecs="opus"', 140000),
          ],
        }
      : undefined,
    playbackTracking: {
      videostatsPlaybackUrl: tracking(base, "/api/stats/playback", videoId, seconds),
      videostatsDelayplayUrl: tracking(base, "/api/stats/delayplay", videoId, seconds),
      videostatsWatchtimeUrl: tracking(base, "/api/stats/watchtime", videoId, seconds),
      ptrackingUrl: tracking(base, "/ptracking", videoId, seconds),
      qoeUrl: tracking(base, "/api/stats/qoe", videoId, seconds),
      atrUrl: tracking(base, "/api/stats/atr", videoId, seconds),
      videostatsScheduledFlushWalltimeSeconds: [10, 20, 30],
      videostatsDefaultFlushIntervalSeconds: 40,
    },
    storyboards: {
      playerStoryboardSpecRenderer: {
        spec: `${base}/sb/${videoId}/storyboard3_L$L/$N.jpg|48#27#100#10#10#0#default#rs$emu`,
        recommendedLevel: 1,
      },
    },
    attestation: { playerAttestationRenderer: { challenge: "a=6&a2=10&b=emulator", botguardData: {} } },
    videoDetails: {
      videoId,
      title,
      lengthSeconds: String(seconds),
      channelId,
      isOwnerViewing: false,
      isCrawlable: true,
      thumbnail: {
        thumbnails: imageSizes(videoId, [60, 120, 226, 544], videoType !== "MUSIC_VIDEO_TYPE_ATV"),
      },
      allowRatings: true,
      viewCount: String(song?.views ?? 1000),
      author,
      isPrivate: false,
      isUnpluggedCorpus: false,
      musicVideoType: videoType,
      isLiveContent: false,
    },
    microformat: {
      microformatDataRenderer: {
        urlCanonical: `https://music.youtube.com/watch?v=${videoId}`,
        title: `${title} - YouTube Music`,
        description: `Provided to YouTube by the emulator\n\n${title} · ${author}`,
        thumbnail: { thumbnails: imageSizes(videoId, [544]) },
        siteName: "YouTube Music",
        appName: "YouTube Music",
        androidPackage: "com.google.android.apps.youtube.music",
        iosAppStoreId: "1017492454",
        iosAppArguments: `https://music.youtube.com/watch?v=${videoId}`,
        ogType: "video.other",
        schemaDotOrgType: "http://schema.org/VideoObject",
        noindex: false,
        unlisted: false,
        videoDetails: { durationIso8601: `PT${Math.floor(seconds / 60)}M${seconds % 60}S` },
      },
    },
  };
}
