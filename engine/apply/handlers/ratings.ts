/** rate_song (likes targets) and rate_playlist (albums, playlists and podcasts in the library). */
import { makeItem } from "../../sources/item.js";
import { type Rating, readRatings } from "../../targets/ratings.js";
import { type ApplySession, disown, keysOf, own, reread, verifying } from "../session.js";
import { type ActionOf, checkedHandler } from "./handler.js";

/**
 * Whether a song now holds `rating`, read back. The liked-songs list is complete, so it answers
 * LIKE (in it), and INDIFFERENT from a LIKE target, which promises only "not liked" (not in it).
 * It says nothing about a DISLIKE, nor about an INDIFFERENT that undoes one: a song neither liked
 * nor disliked is absent from it too. Those are read from the song's own like button on its album
 * page (`readRatings`). A song with no album page (a music video, an episode) cannot be read so:
 * its write stays unconfirmed, the action fails, and the next run sends it again.
 */
async function songRated(s: ApplySession, videoId: string, rating: Rating): Promise<boolean> {
  const likeTarget = s.spec.type === "likes" && s.spec.rating === "LIKE";
  if (rating === "LIKE" || (rating === "INDIFFERENT" && likeTarget)) {
    return keysOf(await reread(s)).has(videoId) === (rating === "LIKE");
  }
  const song = makeItem({ videoId, source: "target", rank: 1 });
  const ratings = await verifying(() => readRatings([song], s.ctx.client));
  return ratings.get(videoId) === rating;
}

/** A rating owns the item (so a sync removes only what it rated); INDIFFERENT lets it go. */
async function recordRating(s: ApplySession, key: string, rating: string): Promise<void> {
  if (rating === "INDIFFERENT") disown(s, [{ itemKey: key }]);
  else own(s, [{ videoId: key, setVideoId: null }]);
}

export const rateSong = checkedHandler<ActionOf<"rate_song">>({
  kind: "rate_song",
  request:
    (s, { videoId, rating }) =>
    () =>
      s.ctx.client.rateSong(videoId, rating),
  verify: (s, { videoId, rating }) => songRated(s, videoId, rating),
  record: (s, { videoId, rating }) => recordRating(s, videoId, rating),
});

export const ratePlaylist = checkedHandler<ActionOf<"rate_playlist">>({
  kind: "rate_playlist",
  request:
    (s, { playlistId, rating }) =>
    () =>
      s.ctx.client.ratePlaylist(playlistId, rating),
  // A liked album, playlist or podcast is one in the library list this target reads, and only then
  // (rate_playlist has no DISLIKE): that list answers LIKE and INDIFFERENT exactly.
  verify: async (s, { playlistId, rating }) =>
    keysOf(await reread(s)).has(playlistId) === (rating === "LIKE"),
  record: (s, { playlistId, rating }) => recordRating(s, playlistId, rating),
});
