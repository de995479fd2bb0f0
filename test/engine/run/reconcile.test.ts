/**
 * Reconciling a killed run's journal against the target read again (engine/run/reconcile.ts): every
 * row an interrupted write put there becomes the engine's, whatever the person did to the others
 * since. Soak seed 2415 found a create whose third id the person had removed: the ids after it were
 * never claimed, stayed "the person's" in a sync recipe, and were never removed once not desired.
 */
import { describe, expect, it } from "vitest";
import type { ActualTarget, PlanAction } from "../../../engine/plan/types.js";
import { reconcile } from "../../../engine/run/reconcile.js";
import { makeItem } from "../../../engine/sources/item.js";
import type { JournalEntry } from "../../../engine/state/types.js";

function sent(seq: number, action: PlanAction): JournalEntry {
  return {
    runId: 1,
    seq,
    kind: action.kind,
    target: "playlist/PLx",
    payload: action,
    status: "sent",
    attempt: 1,
    result: null,
    updatedAt: 0,
  };
}

function playlist(ids: readonly string[], exists = true): ActualTarget {
  return {
    exists,
    playlistId: exists ? "PLx" : null,
    title: "t",
    description: null,
    privacy: "PRIVATE",
    rows: ids.map((videoId, rank) =>
      makeItem({ source: "target", rank, videoId, setVideoId: `S-${videoId}` }),
    ),
    truncated: false,
  };
}

const create = (videoIds: string[]): PlanAction => ({
  kind: "create_playlist",
  title: "t",
  description: "[musicsync:r]",
  privacy: "PRIVATE",
  videoIds,
});

describe("reconcile", () => {
  it("a create whose rows the person partly removed since: every row still there is the engine's", () => {
    const r = reconcile([sent(1, create(["a", "b", "c", "d", "e"]))], playlist(["a", "d", "e", "x"]), [], 7);
    expect(r.ownedAdds.map((o) => [o.itemKey, o.setVideoId])).toEqual([
      ["a", "S-a"],
      ["d", "S-d"],
      ["e", "S-e"],
    ]);
    // Not every id is there: the journal cannot say the create took them all.
    expect(r.verdicts).toEqual([{ runId: 1, seq: 1, status: "failed" }]);
  });

  it("a whole create is confirmed and owns each of its rows once", () => {
    const r = reconcile([sent(1, create(["a", "b"]))], playlist(["a", "b", "a"]), [], 7);
    expect(r.ownedAdds.map((o) => o.itemKey)).toEqual(["a", "b"]);
    expect(r.verdicts[0]?.status).toBe("confirmed");
  });

  it("a create that never made its playlist claims nothing and failed", () => {
    const r = reconcile([sent(1, create(["a"]))], playlist([], false), [], 7);
    expect(r.ownedAdds).toEqual([]);
    expect(r.verdicts[0]?.status).toBe("failed");
  });

  it("subscriptions: a channel missing first does not keep the later ones from being claimed", () => {
    const subs: ActualTarget = {
      ...playlist([]),
      rows: ["UC2", "UC3"].map((browseId, rank) =>
        makeItem({ source: "target", rank, kind: "artist", browseId }),
      ),
    };
    const action: PlanAction = { kind: "subscribe_artists", channelIds: ["UC1", "UC2", "UC3"] };
    const r = reconcile([sent(1, action)], subs, [], 7);
    expect(r.ownedAdds.map((o) => o.itemKey)).toEqual(["UC2", "UC3"]);
    expect(r.verdicts[0]?.status).toBe("failed");
  });

  it("an entry journaled but never sent is failed and claims nothing", () => {
    const entry = { ...sent(1, create(["a"])), status: "pending" as const };
    const r = reconcile([entry], playlist(["a"]), [], 7);
    expect(r.ownedAdds).toEqual([]);
    expect(r.verdicts[0]?.status).toBe("failed");
  });
});
