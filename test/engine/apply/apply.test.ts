/**
 * apply against the emulator: the journal, ownership, split-and-quarantine, refusals verified by
 * reading back, saved plans applied exactly or refused when stale, a lost database, the lock.
 */
import { rm } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { QUARANTINE_TARGET } from "../../../engine/apply/apply.js";
import { parsePlansJson, renderPlansJson } from "../../../engine/render/json.js";
import {
  applySavedPlan,
  LockedError,
  planRecipe,
  StalePlanError,
  syncRecipe,
  withLock,
} from "../../../engine/run/runner.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  playlistsTitled,
  recipe,
  startHarness,
} from "../../support/sync-harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

const yaml = (ids: readonly string[], mode = "sync", batch = 100) => `apiVersion: musicsync/v1
kind: Recipe
id: mine
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { title: "Mine", description: "Kept by a test.", privacy: PRIVATE }
mode: ${mode}
policy: { batch_size: ${batch} }
`;

describe("apply", () => {
  it("journals every action before sending and confirms it with the service's answer", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 12);
    const run = await syncRecipe(recipe(h.project, yaml(songs.slice(0, 12), "sync", 5)), env);
    expect(run.outcome).toBe("converged");
    const [last] = await env.state.runs("mine", 1);
    expect(last).toMatchObject({ kind: "sync", result: "converged" });
    const journal = await env.state.journal(last!.id);
    expect(journal.map((j) => [j.seq, j.kind, j.status, j.attempt])).toEqual([
      [1, "create_playlist", "confirmed", 1],
      [2, "add_playlist_items", "confirmed", 1],
      [3, "add_playlist_items", "confirmed", 1],
    ]);
    const pid = run.apply!.playlistId!;
    const rows = await playlistRows(h, pid);
    // The confirmation carries the new rows' ids as the service gave them.
    const answers = journal.map((j) => (j.result as { added: Record<string, string> }).added);
    expect(answers.map((a) => Object.keys(a))).toEqual([
      songs.slice(0, 5),
      songs.slice(5, 10),
      songs.slice(10, 12),
    ]);
    const added = Object.assign({}, ...answers) as Record<string, string>;
    for (const r of rows) expect(added[r.videoId]).toBe(r.setVideoId);
    // Ownership: the playlist (with its marker) and every row it added.
    expect((await env.state.ownedPlaylist("default", "mine"))?.playlistId).toBe(pid);
    const owned = await env.state.ownedRows("default", `playlist/${pid}`);
    expect(owned.map((o) => o.itemKey).sort()).toEqual([...songs.slice(0, 12)].sort());
    // A snapshot of the target as left, for drift: its fingerprint is what a fresh plan reads.
    const snapshot = await env.state.snapshot("default", `playlist/${pid}`);
    expect(snapshot?.rows.map((r) => r.setVideoId)).toEqual(rows.map((r) => r.setVideoId));
    expect(snapshot?.fingerprint).toBe(
      (await planRecipe(recipe(h.project, yaml(songs.slice(0, 12))), env)).plan.target.fingerprint,
    );
    const conditions = await env.state.conditions("mine");
    expect(conditions.map((c) => [c.type, c.status])).toEqual([
      ["AuthValid", "True"],
      // docs/ENGINE.md#status-history-and-drift: a one-shot sync says whether the recipe is degraded too.
      ["Degraded", "False"],
      ["Ready", "True"],
      ["SourceComplete", "True"],
    ]);
    const info = await h.person.getPlaylist(pid, { limit: 0 });
    expect(info.description).toBe("Kept by a test.\n\n[musicsync:mine]");
  });

  it("splits a batch refused for one bad id, quarantines the id, and reports partial", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 20);
    await syncRecipe(recipe(h.project, yaml(songs.slice(0, 4))), env);
    // An id of the right shape that the catalogue does not have: the service refuses the whole add.
    const bad = "zzzzzzzzzzz";
    const ids = [...songs.slice(0, 4), ...songs.slice(4, 9), bad, ...songs.slice(9, 12)];
    const loaded = recipe(h.project, yaml(ids));
    const run = await syncRecipe(loaded, env);
    expect(run.outcome).toBe("partial");
    expect(run.apply!.quarantined).toEqual([bad]);
    const rows = await playlistRows(h, run.apply!.playlistId!);
    expect(rows.map((r) => r.videoId)).toEqual(songs.slice(0, 12));
    expect(await env.state.tombstones("default", QUARANTINE_TARGET)).toEqual(new Set([bad]));
    // Next time the id is skipped with its reason and nothing is left to do.
    const again = await planRecipe(loaded, env);
    expect(again.plan.actions).toEqual([]);
    expect(again.plan.lines.find((l) => l.videoId === bad)?.reason).toMatch(/quarantined/);
  });

  it("keeps a row of an id another recipe had quarantined: only its add is skipped", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 8);
    const held = songs[2]!;
    const lacking = songs[7]!;
    const ids = [...songs.slice(0, 6), lacking];
    await syncRecipe(recipe(h.project, yaml(songs.slice(0, 6), "mirror")), env);
    // Refused for another recipe of the account: the quarantine is account-wide.
    await env.state.addTombstones("default", QUARANTINE_TARGET, "other", [held, lacking], env.clock.now());
    const loaded = recipe(h.project, yaml(ids, "mirror"));
    const planned = await planRecipe(loaded, env);
    expect(planned.plan.actions).toEqual([]);
    const line = (id: string) => planned.plan.lines.find((l) => l.videoId === id);
    expect(line(held)).toMatchObject({ op: "keep", reason: null });
    expect(line(lacking)).toMatchObject({ op: "skip", reason: "quarantined: the service refused to add it" });
    const run = await syncRecipe(loaded, env);
    expect(run.outcome).toBe("no_changes");
    expect((await playlistRows(h, planned.plan.target.playlistId!)).map((r) => r.videoId)).toEqual(
      songs.slice(0, 6),
    );
  });

  it("creates the playlist without a bad id the create was refused for", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 6);
    const bad = "yyyyyyyyyyy";
    const run = await syncRecipe(
      recipe(h.project, yaml([...songs.slice(0, 3), bad, ...songs.slice(3)])),
      env,
    );
    expect(run.outcome).toBe("partial");
    expect(run.apply!.quarantined).toEqual([bad]);
    expect(await playlistsTitled(h, "Mine")).toHaveLength(1);
    expect((await playlistRows(h, run.apply!.playlistId!)).map((r) => r.videoId)).toEqual(songs);
    expect((await planRecipe(recipe(h.project, yaml([...songs, bad])), env)).plan.actions).toEqual([]);
  });

  it("verifies a write refused with HTTP 200 and a failed status by reading back", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 10);
    const r1 = await syncRecipe(recipe(h.project, yaml(songs.slice(0, 6), "mirror")), env);
    const pid = r1.apply!.playlistId!;
    // The remove is refused: reading back shows the rows still there, so the action failed.
    await h.faults({ queue: [{ kind: "failed-status", endpoint: "browse/edit_playlist" }] });
    const loaded = recipe(h.project, yaml(songs.slice(0, 3), "mirror"));
    const r2 = await syncRecipe(loaded, env);
    expect(r2.outcome).toBe("partial");
    expect(r2.apply!.outcomes[0]).toMatchObject({ kind: "remove_playlist_items", status: "failed" });
    expect(await playlistRows(h, pid)).toHaveLength(6);
    // A refused add is read back too: nothing was added, so it is sent again in halves.
    await h.faults({ queue: [{ kind: "failed-status", endpoint: "browse/edit_playlist" }] });
    const r3 = await syncRecipe(recipe(h.project, yaml(songs.slice(0, 10), "mirror")), env);
    expect(r3.outcome).toBe("converged");
    expect(r3.apply!.outcomes.find((o) => o.kind === "add_playlist_items")?.requests).toBe(3);
    expect((await playlistRows(h, pid)).map((r) => r.videoId)).toEqual(songs.slice(0, 10));
  });

  it("reads back an add whose answer was lost, and sends only what did not arrive", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 8);
    await syncRecipe(recipe(h.project, yaml(songs.slice(0, 4))), env);
    await h.faults({ queue: [{ kind: "cut", endpoint: "browse/edit_playlist" }] });
    const run = await syncRecipe(recipe(h.project, yaml(songs)), env);
    expect(run.outcome, run.error ?? "").toBe("converged");
    expect(run.apply!.outcomes).toEqual([
      expect.objectContaining({ kind: "add_playlist_items", requests: 2 }),
    ]);
    expect((await playlistRows(h, run.apply!.playlistId!)).map((r) => r.videoId)).toEqual(songs);
  });

  it("applies a saved plan exactly, and refuses one whose target changed since", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 20);
    const r1 = await syncRecipe(recipe(h.project, yaml(songs.slice(0, 5))), env);
    const pid = r1.apply!.playlistId!;
    const loaded = recipe(h.project, yaml(songs.slice(0, 8)));
    const saved = parsePlansJson(renderPlansJson([(await planRecipe(loaded, env)).plan])).plans[0]!;
    const before = await h.writes();
    const applied = await applySavedPlan(saved, env);
    expect(applied.outcome).toBe("converged");
    expect(await h.writes()).toBe(before + saved.actions.length);
    expect((await playlistRows(h, pid)).map((r) => r.videoId)).toEqual(songs.slice(0, 8));

    // Planned, then the person edits the playlist: the plan is stale and nothing is written.
    const stale = (await planRecipe(recipe(h.project, yaml(songs.slice(0, 12))), env)).plan;
    await h.person.addPlaylistItems(pid, [songs[15]!]);
    const writes = await h.writes();
    await expect(applySavedPlan(stale, env)).rejects.toBeInstanceOf(StalePlanError);
    expect(await h.writes()).toBe(writes);
  });

  it("finds its playlist by the marker when the database is lost: never a second playlist", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 10);
    const loaded = recipe(h.project, yaml(songs.slice(0, 6)));
    const first = h.env();
    await syncRecipe(loaded, first);
    await first.close();
    await rm(h.stateFile);
    const fresh = h.env();
    const run = await syncRecipe(loaded, fresh);
    expect(run.plan!.actions).toEqual([]);
    expect(await playlistsTitled(h, "Mine")).toHaveLength(1);
    expect((await fresh.state.ownedPlaylist("default", "mine"))?.playlistId).toBe(
      run.plan!.target.playlistId,
    );
  });

  // Soak seed 1689 (PostgreSQL): after the database was lost, `plan -o` then `apply` wrote the plan
  // and left the playlist unrecorded; the next run looked for it by marker again, two identical
  // short listings of the library hid it (renamed by hand), and a second playlist was made.
  it("records the playlist a saved plan found by its marker, so later runs read it by id", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 10);
    const first = h.env();
    const made = await syncRecipe(recipe(h.project, yaml(songs.slice(0, 6))), first);
    const pid = made.apply!.playlistId!;
    await first.close();
    await rm(h.stateFile);
    const fresh = h.env();
    const loaded = recipe(h.project, yaml(songs.slice(0, 8)));
    const saved = parsePlansJson(renderPlansJson([(await planRecipe(loaded, fresh)).plan])).plans[0]!;
    expect(saved.target.playlistId).toBe(pid);
    expect(await fresh.state.ownedPlaylist("default", "mine")).toBeNull();
    expect((await applySavedPlan(saved, fresh)).outcome).toBe("converged");
    expect((await fresh.state.ownedPlaylist("default", "mine"))?.playlistId).toBe(pid);
    await h.person.editPlaylist(pid, { title: "Renamed" });
    const again = await syncRecipe(loaded, fresh);
    expect(again.outcome, again.error ?? "").toBe("converged");
    expect(again.plan!.target.playlistId).toBe(pid);
    expect(again.plan!.actions.map((a) => a.kind)).not.toContain("create_playlist");
  });

  it("refuses to run while another live process holds the account's lock", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 3);
    await withLock(env, "default", async () => {
      const other = h!.env();
      await expect(syncRecipe(recipe(h!.project, yaml(songs)), other)).rejects.toBeInstanceOf(LockedError);
    });
    // Released afterwards.
    expect((await syncRecipe(recipe(h.project, yaml(songs)), env)).outcome).toBe("converged");
  });
});
