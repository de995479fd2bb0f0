/**
 * The `player` response: the five top-level keys clients keep (docs/PROTOCOL.md#player) with a
 * `playbackTracking` whose URLs point at the emulator.
 */
import type { EmulatorState } from "../context.js";
import type { EpisodeRow, SongRow } from "../store/rows.js";
import { AUDIO_FORMATS, streamLength } from "../stream-bytes.js";
import { streamSecrets } from "../stream-cipher.js";
import { imageSizes, type Json } from "./common.js";
import { PLAYER_VERSION, signatureTimestamp } from "./pages.js";

/** One stats address (`baseUrl` with its query) and the headers the client sends with it. */
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

/** What the response says about one video or episode, gathered from its song or episode row. */
interface Playable {
  videoId: string;
  title: string;
  author: string;
  channelId: string;
  seconds: number;
  videoType: string;
  playable: boolean;
  views: number;
}

/**
 * The player response. It reads the emulator's address and clock from `state` (the stream URLs
 * carry both), never the store: the song or episode comes in from the route.
 */
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
  const v: Playable = {
    videoId,
    title: song?.title ?? episode!.title,
    author: song?.artistName ?? episode!.channelName,
    channelId: song?.channelId ?? episode!.channelId,
    seconds: song?.durationSeconds ?? episode!.durationSeconds,
    videoType: song?.videoType ?? "MUSIC_VIDEO_TYPE_PODCAST_EPISODE",
    playable: song ? song.available : true,
    views: song?.views ?? 1000,
  };
  const base = state.baseUrl;
  return {
    playabilityStatus: playabilityStatus(v.playable),
    streamingData: v.playable ? streamingData(base, v, signatureTimestamp(state.now())) : undefined,
    playbackTracking: playbackTracking(base, videoId, v.seconds),
    storyboards: {
      playerStoryboardSpecRenderer: {
        spec: `${base}/sb/${videoId}/storyboard3_L$L/$N.jpg|48#27#100#10#10#0#default#rs$emu`,
        recommendedLevel: 1,
      },
    },
    attestation: { playerAttestationRenderer: { challenge: "a=6&a2=10&b=emulator", botguardData: {} } },
    videoDetails: videoDetails(v),
    microformat: microformat(v),
  };
}

/** `playabilityStatus`: OK with audio-only and miniplayer allowed, or UNPLAYABLE with its reason. */
function playabilityStatus(playable: boolean): Json {
  if (!playable) return { status: "UNPLAYABLE", reason: "This video is not available" };
  return {
    status: "OK",
    playableInEmbed: true,
    audioOnlyPlayability: {
      audioOnlyPlayabilityRenderer: { audioOnlyAvailability: "FEATURE_AVAILABILITY_ALLOWED" },
    },
    miniplayer: { miniplayerRenderer: { playbackMode: "PLAYBACK_MODE_ALLOW" } },
    contextParams: "Q0FFU0FnZ0I=",
  };
}

/**
 * `streamingData`: two audio formats (AAC and Opus) served from the emulator's address. As for the
 * music web client in the captures (yt_get_song_tracking_url_20240728), each format carries a
 * `signatureCipher` (`s`, `sp=sig`, and a `url` holding `n`) instead of a plain `url`: a client runs
 * the player script's functions on `s` and `n` before `GET /videoplayback` accepts the URL
 * (emulator/README.md "Stream URLs and the player script").
 */
function streamingData(base: string, v: Playable, sts: number): Json {
  const format = (itag: number, mime: string, bitrate: number) => {
    const contentLength = String(streamLength(v.seconds, bitrate));
    const { s, n } = streamSecrets(PLAYER_VERSION, v.videoId, itag);
    const url = new URLSearchParams({
      id: v.videoId,
      itag: String(itag),
      source: "youtube",
      mime: mime.split(";")[0]!,
      clen: contentLength,
      dur: v.seconds.toFixed(3),
      sts: String(sts),
      c: "WEB_REMIX",
      n,
    });
    return {
      itag,
      mimeType: mime,
      bitrate,
      averageBitrate: Math.floor(bitrate * 0.9),
      initRange: { start: "0", end: "722" },
      indexRange: { start: "723", end: "1200" },
      lastModified: "1700000000000000",
      contentLength,
      quality: "tiny",
      projectionType: "RECTANGULAR",
      highReplication: true,
      audioQuality: itag === 251 ? "AUDIO_QUALITY_MEDIUM" : "AUDIO_QUALITY_LOW",
      approxDurationMs: String(v.seconds * 1000),
      audioSampleRate: "48000",
      audioChannels: 2,
      loudnessDb: -5.2,
      signatureCipher: new URLSearchParams({ s, sp: "sig", url: `${base}/videoplayback?${url}` }).toString(),
    };
  };
  return {
    expiresInSeconds: "21540",
    adaptiveFormats: AUDIO_FORMATS.map((f) => format(f.itag, f.mime, f.bitrate)),
  };
}

/** `playbackTracking`: the stats addresses, all on the emulator (docs/PROTOCOL.md#player). */
function playbackTracking(base: string, videoId: string, seconds: number): Json {
  return {
    videostatsPlaybackUrl: tracking(base, "/api/stats/playback", videoId, seconds),
    videostatsDelayplayUrl: tracking(base, "/api/stats/delayplay", videoId, seconds),
    videostatsWatchtimeUrl: tracking(base, "/api/stats/watchtime", videoId, seconds),
    ptrackingUrl: tracking(base, "/ptracking", videoId, seconds),
    qoeUrl: tracking(base, "/api/stats/qoe", videoId, seconds),
    atrUrl: tracking(base, "/api/stats/atr", videoId, seconds),
    videostatsScheduledFlushWalltimeSeconds: [10, 20, 30],
    videostatsDefaultFlushIntervalSeconds: 40,
  };
}

/** `videoDetails`: id, title, length, channel, views and the music video type clients read. */
function videoDetails(v: Playable): Json {
  return {
    videoId: v.videoId,
    title: v.title,
    lengthSeconds: String(v.seconds),
    channelId: v.channelId,
    isOwnerViewing: false,
    isCrawlable: true,
    thumbnail: {
      thumbnails: imageSizes(v.videoId, [60, 120, 226, 544], v.videoType !== "MUSIC_VIDEO_TYPE_ATV"),
    },
    allowRatings: true,
    viewCount: String(v.views),
    author: v.author,
    isPrivate: false,
    isUnpluggedCorpus: false,
    musicVideoType: v.videoType,
    isLiveContent: false,
  };
}

/** `microformat`: the watch page's metadata for sharing and search engines. */
function microformat(v: Playable): Json {
  return {
    microformatDataRenderer: {
      urlCanonical: `https://music.youtube.com/watch?v=${v.videoId}`,
      title: `${v.title} - YouTube Music`,
      description: `Provided to YouTube by the emulator\n\n${v.title} · ${v.author}`,
      thumbnail: { thumbnails: imageSizes(v.videoId, [544]) },
      siteName: "YouTube Music",
      appName: "YouTube Music",
      androidPackage: "com.google.android.apps.youtube.music",
      iosAppStoreId: "1017492454",
      iosAppArguments: `https://music.youtube.com/watch?v=${v.videoId}`,
      ogType: "video.other",
      schemaDotOrgType: "http://schema.org/VideoObject",
      noindex: false,
      unlisted: false,
      videoDetails: { durationIso8601: `PT${Math.floor(v.seconds / 60)}M${v.seconds % 60}S` },
    },
  };
}
