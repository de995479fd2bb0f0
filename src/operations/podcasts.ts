import { ArgumentError } from "../errors.js";
import { classicToken } from "../parsers/continuation-tokens.js";
import {
  parseChannel,
  parseChannelEpisodes,
  parseEpisodeContinuation,
  parseEpisodePage,
  parseEpisodesPlaylist,
  parsePodcast,
} from "../parsers/podcasts.js";
import type { OperationContext } from "../transport/operation-context.js";
import type { Channel, Episode, EpisodePage, EpisodesPlaylist, Podcast } from "../types/podcasts.js";
import { browsePage, parseFor } from "./context.js";
import { followClassic } from "./continuations.js";
import { requireId } from "./library-arguments.js";

/** Podcast operations (docs/PROTOCOL.md#podcasts). */

/** `prefix` + `id`, unless the id already carries it (a browse id passed where a bare id is expected). */
function withPrefix(prefix: string, id: string): string {
  return id.startsWith(prefix) ? id : `${prefix}${id}`;
}

export async function getChannel(ctx: OperationContext, channelId: string): Promise<Channel> {
  const operation = "get_channel";
  requireId("channelId", channelId, operation);
  return browsePage(ctx, operation, { browseId: channelId }, parseChannel);
}

export async function getChannelEpisodes(
  ctx: OperationContext,
  channelId: string,
  params: string,
): Promise<Episode[]> {
  const operation = "get_channel_episodes";
  requireId("channelId", channelId, operation);
  requireId("params", params, operation);
  return browsePage(ctx, operation, { browseId: channelId, params }, parseChannelEpisodes);
}

export interface GetPodcastOptions {
  /** The least number of episodes wanted; `null` for all. Default 100. */
  limit?: number | null;
}

export async function getPodcast(
  ctx: OperationContext,
  playlistId: string,
  options: GetPodcastOptions = {},
): Promise<Podcast> {
  const operation = "get_podcast";
  requireId("playlistId", playlistId, operation);
  const limit = options.limit === undefined ? 100 : options.limit;
  if (limit !== null && (!Number.isInteger(limit) || limit < 1)) {
    throw new ArgumentError("limit", "must be a positive integer, or null for every episode", { operation });
  }
  const body = { browseId: withPrefix("MPSP", playlistId) };
  const response = await ctx.send({ operation, endpoint: "browse", body });
  const notes = ctx.notes(operation);
  const { podcast, shelf } = parseFor(operation, () => parsePodcast(response, notes));
  const more = await followClassic(ctx, {
    operation,
    endpoint: "browse",
    body,
    token: shelf === null ? null : classicToken(shelf),
    type: "musicShelfContinuation",
    limit: limit === null ? null : limit - podcast.episodes.length,
    parse: (page) => parseFor(operation, () => parseEpisodeContinuation(page, notes)),
  });
  for (const episode of more) podcast.episodes.push(episode);
  return podcast;
}

export async function getEpisode(ctx: OperationContext, videoId: string): Promise<EpisodePage> {
  const operation = "get_episode";
  requireId("videoId", videoId, operation);
  return browsePage(ctx, operation, { browseId: withPrefix("MPED", videoId) }, parseEpisodePage);
}

export async function getEpisodesPlaylist(
  ctx: OperationContext,
  playlistId = "RDPN",
): Promise<EpisodesPlaylist> {
  const operation = "get_episodes_playlist";
  requireId("playlistId", playlistId, operation);
  return browsePage(ctx, operation, { browseId: withPrefix("VL", playlistId) }, parseEpisodesPlaylist);
}
