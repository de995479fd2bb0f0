/**
 * The soak's model of the person's edits, its pure parts: what a removal by hand leaves the engine
 * free to do, judged the way the soak judges a run (docs/ENGINE.md#modes, #ownership).
 */
import { describe, expect, it } from "vitest";
import type { RecipeSpec } from "./generate.js";
import { type Claim, checkSetDesired, type Model, newModel } from "./invariants.js";
import { removedByHand } from "./person.js";

const episodes = ["ep000000001", "ep000000002", "ep000000003"];
const NO_CHANGES: Claim = { outcome: "no_changes", guards: [], errors: [] };

function savedEpisodes(onDrift: "adopt" | "revert"): Model {
  const spec: RecipeSpec = {
    id: "model-episodes",
    mode: "sync",
    target: { type: "saved_episodes" },
    source: { type: "static", ids: episodes },
    dedupe: true,
    limit: null,
    policy: { order: "source", on_drift: onDrift, batch_size: 5, max_removals: 100 },
  };
  const m = newModel(spec);
  for (const e of episodes) m.everDesired.add(e);
  return m;
}

/** The state database lost with every episode saved: each one's owner is unknown from then on. */
function stateLost(m: Model): void {
  m.tombstones.clear();
  for (const e of episodes) m.orphans.add(e);
}

const without = (gone: string) => new Set(episodes.filter((e) => e !== gone));

describe("the soak's model: a saved episode of unknown owner, removed by hand", () => {
  it("is added again (the engine cannot know it added it); once the engine has, a second removal is a tombstone under adopt", () => {
    const m = savedEpisodes("adopt");
    stateLost(m);
    removedByHand(m, "ep000000002", "set-a", true);
    expect(m.tombstones.has("ep000000002")).toBe(false);
    expect(m.ambiguous.has("ep000000002")).toBe(false);
    // The next run must add it back: a run that leaves it out and says no_changes breaks the promise.
    expect(checkSetDesired(m, episodes, without("ep000000002"), NO_CHANGES)).toHaveLength(1);
    // The engine added it (a confirmed add, recorded as its own), then the person removed it again.
    expect(checkSetDesired(m, episodes, new Set(episodes), NO_CHANGES)).toEqual([]);
    removedByHand(m, "ep000000002", "set-b", true);
    expect(m.tombstones.has("ep000000002")).toBe(true);
    expect(checkSetDesired(m, episodes, without("ep000000002"), NO_CHANGES)).toEqual([]);
  });

  it("under revert is added back after the second removal too", () => {
    const m = savedEpisodes("revert");
    stateLost(m);
    removedByHand(m, "ep000000003", "set-a", true);
    removedByHand(m, "ep000000003", "set-b", true);
    expect(m.tombstones.size).toBe(0);
    expect(checkSetDesired(m, episodes, without("ep000000003"), NO_CHANGES)).toHaveLength(1);
  });

  it("after a run that did not finish, the second removal's owner is not knowable", () => {
    const m = savedEpisodes("adopt");
    stateLost(m);
    removedByHand(m, "ep000000001", "set-a", true);
    removedByHand(m, "ep000000001", "set-b", false);
    expect(m.tombstones.has("ep000000001")).toBe(false);
    expect(m.ambiguous.has("ep000000001")).toBe(true);
    expect(checkSetDesired(m, episodes, without("ep000000001"), NO_CHANGES)).toEqual([]);
  });
});
