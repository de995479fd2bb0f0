/** Podcasts: channels (non-artist rows of `artists`) with one to three shows of weekly episodes. */
import { ids } from "../random.js";
import { ADJECTIVES, NOUNS } from "../words.js";
import type { Generation } from "./context.js";
import { title } from "./names.js";

/** One channel per 2000 songs (at least 2), numbered after the `artists` artists. */
export function addPodcasts(g: Generation, artists: number): void {
  const { r } = g;
  const channels = Math.max(2, Math.round(g.size / 2000));
  for (let c = 1; c <= channels; c++) {
    const channelId = artists + c;
    const channelName = `${title(r, 2)} Media`;
    g.write.artist({
      id: channelId,
      channelId: g.unique(() => ids.channel(r)),
      name: channelName,
      kind: "channel",
      subscribers: Math.floor(10 ** r.int(3, 6)),
      monthlyListeners: 0,
      description: `${channelName} makes shows about ${r.pick(NOUNS)}s.`,
      searchText: channelName.toLowerCase(),
      latinName: null,
    });
    const shows = r.int(1, 3);
    for (let s = 0; s < shows; s++) addShow(g, channelId, channelName);
  }
  g.summary.artists += channels;
}

/** A show and its episodes, newest first, about a week apart back from the emulator's today. */
function addShow(g: Generation, channelId: number, channelName: string): void {
  const { r, write } = g;
  const podcastId = ++g.summary.podcasts;
  const showTitle = `The ${title(r, 2)} Podcast`;
  write.podcast({
    id: podcastId,
    playlistId: g.unique(() => ids.podcastPlaylist(r)),
    title: showTitle,
    description: `Conversations about ${r.pick(NOUNS)}s and ${r.pick(NOUNS)}s.`,
    channelId,
    searchText: `${showTitle} ${channelName}`.toLowerCase(),
  });
  const count = r.int(5, 30);
  for (let e = 0; e < count; e++) {
    const episodeTitle = `Episode ${count - e}: ${title(r, 3)}`;
    write.episode({
      videoId: g.unique(() => ids.video(r)),
      podcastId,
      title: episodeTitle,
      description: `In this episode we talk about the ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}.`,
      // Days back from the emulator's today, which it adds when it reads them (the newest
      // episode is at most six days old on any day the emulator runs).
      publishedDay: -e * 7 - r.int(0, 6),
      durationSeconds: r.int(900, 5400),
      searchText: `${episodeTitle} ${showTitle}`.toLowerCase(),
    });
    g.summary.episodes++;
  }
}
