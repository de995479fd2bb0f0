/**
 * A list without a count cut short (docs/ENGINE.md#guards): its hidden rows look absent, so the
 * plan's adds are believed only when a second read agrees (soak seed 2427 on PostgreSQL).
 */
import { afterEach, describe, expect, it } from "vitest";
import { syncRecipe } from "../../../engine/run/runner.js";
import { type Harness, recipe, startHarness } from "../../support/sync-harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

const librarySync = `apiVersion: musicsync/v1
kind: Recipe
id: keep-library
sources:
  - { id: mine, type: library, kind: songs }
target: { type: library, kind: songs }
mode: sync
`;

describe("a library target read cut short", () => {
  it("adds none of the songs it hid: nothing is written and the run is partial", async () => {
    h = await startHarness();
    const library = await h.person.getLibrarySongs({ limit: null });
    expect(library.length).toBeGreaterThan(10);
    const loaded = recipe(h.project, librarySync);
    const env = h.env();
    const before = await h.writes();
    // The first library read (the target's) loses its continuation and half its page.
    await h.faults({ queue: [{ kind: "truncate", endpoint: "browse" }] });
    const run = await syncRecipe(loaded, env);
    expect(run.plan!.lines.filter((l) => l.op === "add")).toEqual([]);
    expect(run.plan!.actions).toEqual([]);
    expect(run.plan!.guards.map((g) => g.guard)).toContain("target_truncated");
    expect(run.outcome).toBe("partial");
    expect(await h.writes()).toBe(before);
    // Read whole, the library already holds every song the recipe wants.
    const next = await syncRecipe(loaded, env);
    expect(next.outcome, next.error ?? "").toBe("no_changes");
    expect((await h.person.getLibrarySongs({ limit: null })).length).toBe(library.length);
  });
});
