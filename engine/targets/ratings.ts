/**
 * Ratings the person set by hand are theirs: a LIKE recipe does not like a song the person disliked,
 * and a DISLIKE recipe does not dislike a song the person liked, unless the recipe says
 * `policy: { override_ratings: true }`. Such items are skipped with the reason in the plan.
 *
 * How the engine knows (docs/ENGINE.md#ratings). The service has no list of disliked songs, and the
 * watch queue's toggle cannot tell DISLIKE from INDIFFERENT (see `WatchTrack.likeStatus`). The one
 * read that gives all three ratings is a song row's like button (`likeButtonRenderer.likeStatus`),
 * which album pages carry for every track. So, for the songs a LIKE recipe would rate (and only
 * those: in a steady state a handful), the engine reads their album pages, one read per album; a
 * song whose source did not name its album is looked up in the watch queue first (one read, which
 * names the album). That works the same for every source type (a static list included) and reads
 * the rating just before the plan, not from a page read minutes earlier. A song with no album page
 * (a music video, an episode) has no such read: its rating is unknown and it is rated as asked.
 * A DISLIKE recipe needs only the liked-songs list, which is complete.
 * A page that came back cut short (fewer tracks than it counts) may have left out the very song: its
 * rating is then unread, not unknown, and the song is skipped until a read is whole (soak seed 1402).
 */
import type { Desired, PlanLine } from "../plan/types.js";
import type { TargetSpec } from "../recipe/types.js";
import type { Item } from "../sources/item.js";
import type { SourceClient } from "../sources/reader.js";
import { cutShort } from "./read.js";

export type Rating = "LIKE" | "DISLIKE" | "INDIFFERENT";

/** The skip reason of a song whose rating a page cut short left unread. */
export const UNREAD_RATING = "its rating could not be read (the page came back cut short)";

/**
 * Why a plan's skips leave the target short of what the recipe wants: songs skipped only because
 * their rating was unread are still wanted, so a run that skipped them has not converged (null: none).
 */
export function unreadRatingsNote(lines: readonly Pick<PlanLine, "op" | "reason">[]): string | null {
  const n = lines.filter((l) => l.op === "skip" && l.reason === UNREAD_RATING).length;
  if (n === 0) return null;
  return `${n} ${n === 1 ? "song was" : "songs were"} not rated: the rating read came back cut short`;
}

/** Reads of the service this needs (a part of `SourceClient`). */
export type RatingsClient = Pick<SourceClient, "getAlbum" | "getWatchPlaylist" | "getLikedSongs">;

/**
 * The items of a likes target the plan would rate: desired, with a videoId, not yet in the target,
 * not quarantined (the plan skips those: no rating of theirs needs reading).
 */
export function toRate(desired: Desired, actualRows: readonly Item[]): Item[] {
  const have = new Set(actualRows.map((r) => r.videoId));
  const quarantined = desired.quarantined;
  return desired.items.filter(
    (i) => i.videoId !== null && !have.has(i.videoId) && !quarantined?.has(i.videoId),
  );
}

function asRating(value: string | null | undefined): Rating | null {
  return value === "LIKE" || value === "DISLIKE" || value === "INDIFFERENT" ? value : null;
}

/**
 * Album browse ids (MPRE…) of the items, each with the songs looked for on it; an item without one
 * is looked up in its watch queue.
 */
async function albumsOf(items: readonly Item[], client: RatingsClient): Promise<Map<string, string[]>> {
  const albums = new Map<string, string[]>();
  for (const item of items) {
    let album = item.album?.id ?? null;
    if (album === null && item.videoId !== null) {
      const watch = await client.getWatchPlaylist({ videoId: item.videoId, limit: 1 });
      const first = watch.tracks.find((t) => t.videoId === item.videoId) ?? watch.tracks[0];
      const ref = first?.album;
      album = ref && typeof ref === "object" ? (ref.id ?? null) : null;
    }
    if (album?.startsWith("MPRE") && item.videoId !== null) {
      albums.set(album, [...(albums.get(album) ?? []), item.videoId]);
    }
  }
  return albums;
}

/** The ratings read, and the songs whose page came back cut short without them (see the file comment). */
export interface ReadRatings {
  ratings: Map<string, Rating>;
  unread: Set<string>;
}

/** The person's rating of each song that can be read (see the file comment); absent = unknown. */
export async function readRatingsOf(items: readonly Item[], client: RatingsClient): Promise<ReadRatings> {
  const read: ReadRatings = { ratings: new Map(), unread: new Set() };
  if (items.length === 0) return read;
  for (const [browseId, songs] of await albumsOf(items, client)) {
    const album = await client.getAlbum(browseId);
    for (const t of album.tracks) {
      const rating = asRating(t.likeStatus);
      if (t.videoId && rating) read.ratings.set(t.videoId, rating);
    }
    if (!cutShort(album.trackCount, album.tracks.length)) continue;
    for (const v of songs) if (!read.ratings.has(v)) read.unread.add(v);
  }
  return read;
}

/** The ratings alone: a song whose page came back cut short is as unknown as one with no page. */
export async function readRatings(
  items: readonly Item[],
  client: RatingsClient,
): Promise<Map<string, Rating>> {
  return (await readRatingsOf(items, client)).ratings;
}

/** The rating a person set that a recipe writing `target` would undo, and how the plan says it. */
function conflict(target: TargetSpec): { rating: Rating; reason: string } | null {
  if (target.type !== "likes") return null;
  return target.rating === "DISLIKE"
    ? { rating: "LIKE", reason: "you liked it" }
    : { rating: "DISLIKE", reason: "you disliked it" };
}

/**
 * Moves the items the person rated the other way from desired to skipped, with the reason. Pure.
 * An item already in the target stays desired: a DISLIKE target's rows are the dislikes the engine
 * remembers, and dropping one the person has since liked would "remove" it, rating it INDIFFERENT
 * and undoing the person's like.
 */
export function keepPersonRatings(
  desired: Desired,
  target: TargetSpec,
  read: ReadRatings,
  actualRows: readonly Item[] = [],
): Desired {
  const c = conflict(target);
  if (c === null || (read.ratings.size === 0 && read.unread.size === 0)) return desired;
  const present = new Set(actualRows.map((r) => r.videoId));
  const items: Item[] = [];
  const skipped = [...desired.skipped];
  for (const item of desired.items) {
    const v = item.videoId;
    const why = v === null || present.has(v) ? null : reasonToKeep(read, v, c);
    if (why !== null) skipped.push({ item, reason: why });
    else items.push(item);
  }
  return { ...desired, items, skipped };
}

/** Why the recipe must not rate `videoId` now: the person rated it the other way, or it is unread. */
function reasonToKeep(
  read: ReadRatings,
  videoId: string,
  c: { rating: Rating; reason: string },
): string | null {
  if (read.ratings.get(videoId) === c.rating) return c.reason;
  if (read.unread.has(videoId)) return UNREAD_RATING;
  return null;
}

/**
 * The person's ratings that matter for this plan: for a LIKE target, those of the songs it would
 * rate; for a DISLIKE target, the liked songs. Empty for other targets or with `override_ratings`.
 */
export async function personRatings(
  target: TargetSpec,
  desired: Desired,
  actualRows: readonly Item[],
  client: RatingsClient,
  override: boolean,
): Promise<ReadRatings> {
  if (target.type !== "likes" || override) return { ratings: new Map(), unread: new Set() };
  if (target.rating === "LIKE") return readRatingsOf(toRate(desired, actualRows), client);
  const liked = await client.getLikedSongs({ limit: null });
  const ratings = new Map(
    liked.tracks.filter((t) => t.videoId).map((t) => [t.videoId as string, "LIKE" as Rating]),
  );
  // A liked list cut short may leave out a song the person liked: the songs it lacks are unread.
  const unread = new Set<string>();
  if (cutShort(liked.trackCount, liked.tracks.length)) {
    for (const i of toRate(desired, actualRows))
      if (i.videoId && !ratings.has(i.videoId)) unread.add(i.videoId);
  }
  return { ratings, unread };
}
