/**
 * docs/ENGINE.md#ratings: a likes recipe keeps the ratings the person set. A page that came back cut
 * short (fewer rows than it counts) may have left out the very song the person rated: that song is
 * skipped, saying why, not rated as if its rating were known (soak seed 1402: a truncated album page
 * hid a dislike, and a LIKE recipe liked the song).
 */
import { describe, expect, it } from "vitest";
import type { Desired } from "../../../engine/plan/types.js";
import type { TargetSpec } from "../../../engine/recipe/types.js";
import { type Item, makeItem } from "../../../engine/sources/item.js";
import {
  keepPersonRatings,
  personRatings,
  type RatingsClient,
  UNREAD_RATING,
  unreadRatingsNote,
} from "../../../engine/targets/ratings.js";

const ALBUM = "MPREb_cutshort01";

/** A song of ALBUM (named by the source, so no watch queue is read for it). */
const song = (videoId: string, rank: number): Item =>
  makeItem({ videoId, source: "list", rank, album: { name: "Album", id: ALBUM } });

const desiredOf = (items: Item[]): Desired =>
  ({ items, skipped: [], sourceTotal: items.length, truncatedSources: [] }) as unknown as Desired;

/** An album page holding `rows` (each with the person's rating) and counting `count` tracks. */
function client(rows: [string, string][], count: number, liked: string[] = [], likedCount = liked.length) {
  return {
    getAlbum: async () => ({
      trackCount: count,
      tracks: rows.map(([videoId, likeStatus]) => ({ videoId, likeStatus })),
    }),
    getLikedSongs: async () => ({ trackCount: likedCount, tracks: liked.map((videoId) => ({ videoId })) }),
    getWatchPlaylist: async () => {
      throw new Error("the items name their album");
    },
  } as unknown as RatingsClient;
}

const like: TargetSpec = { type: "likes", rating: "LIKE" } as TargetSpec;
const dislike: TargetSpec = { type: "likes", rating: "DISLIKE" } as TargetSpec;

async function plan(target: TargetSpec, c: RatingsClient, items: Item[]) {
  const desired = desiredOf(items);
  const kept = keepPersonRatings(desired, target, await personRatings(target, desired, [], c, false));
  return {
    rated: kept.items.map((i) => i.videoId),
    skipped: kept.skipped.map((s) => [s.item.videoId, s.reason]),
  };
}

describe("ratings read from a page cut short", () => {
  it("a LIKE recipe skips a song its cut-short album page left out, and rates the ones it holds", async () => {
    const page = client(
      [
        ["first000001", "INDIFFERENT"],
        ["second00002", "INDIFFERENT"],
      ],
      4,
    );
    expect(await plan(like, page, [song("first000001", 1), song("fourth00004", 2)])).toEqual({
      rated: ["first000001"],
      skipped: [["fourth00004", "its rating could not be read (the page came back cut short)"]],
    });
  });

  it("a whole page without the song leaves it unknown: rated as asked (a video has no album row)", async () => {
    const page = client(
      [
        ["first000001", "INDIFFERENT"],
        ["second00002", "DISLIKE"],
      ],
      2,
    );
    expect(
      await plan(like, page, [song("first000001", 1), song("second00002", 2), song("video000003", 3)]),
    ).toEqual({
      rated: ["first000001", "video000003"],
      skipped: [["second00002", "you disliked it"]],
    });
  });

  it("a DISLIKE recipe skips the songs a cut-short liked list may have left out", async () => {
    const items = [song("liked000001", 1), song("other000002", 2)];
    expect(await plan(dislike, client([], 0, ["liked000001"], 3), items)).toEqual({
      rated: [],
      skipped: [
        ["liked000001", "you liked it"],
        ["other000002", "its rating could not be read (the page came back cut short)"],
      ],
    });
    expect(await plan(dislike, client([], 0, ["liked000001"], 1), items)).toEqual({
      rated: ["other000002"],
      skipped: [["liked000001", "you liked it"]],
    });
  });
});

describe("a plan's skips for an unread rating", () => {
  const skip = (reason: string) => ({ op: "skip" as const, reason });
  it("are counted as what keeps the run from converging; other skips are not", () => {
    expect(unreadRatingsNote([skip("you liked it"), { op: "keep", reason: null }])).toBeNull();
    expect(unreadRatingsNote([skip(UNREAD_RATING), skip("you liked it")])).toBe(
      "1 song was not rated: the rating read came back cut short",
    );
    expect(unreadRatingsNote([skip(UNREAD_RATING), skip(UNREAD_RATING)])).toMatch(/^2 songs were not rated/);
  });
});
