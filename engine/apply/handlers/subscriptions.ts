/** subscribe_artists / unsubscribe_artists, verified against the subscriptions list read back. */
import { disown, keysOf, own, reread } from "../session.js";
import { type ActionOf, checkedHandler } from "./handler.js";

export const subscribeArtists = checkedHandler<ActionOf<"subscribe_artists">>({
  kind: "subscribe_artists",
  request:
    (s, { channelIds }) =>
    () =>
      s.ctx.client.subscribeArtists(channelIds),
  verify: async (s, { channelIds }) => {
    const keys = keysOf(await reread(s));
    return channelIds.every((c) => keys.has(c));
  },
  record: (s, { channelIds }) =>
    own(
      s,
      channelIds.map((videoId) => ({ videoId, setVideoId: null })),
    ),
});

export const unsubscribeArtists = checkedHandler<ActionOf<"unsubscribe_artists">>({
  kind: "unsubscribe_artists",
  request:
    (s, { channelIds }) =>
    () =>
      s.ctx.client.unsubscribeArtists(channelIds),
  verify: async (s, { channelIds }) => {
    const keys = keysOf(await reread(s));
    return channelIds.every((c) => !keys.has(c));
  },
  record: (s, { channelIds }) =>
    disown(
      s,
      channelIds.map((itemKey) => ({ itemKey })),
    ),
});
