/**
 * The modes' table of docs/ENGINE.md#modes against the emulator, with the person editing the playlist by hand
 * between runs: what each mode does with rows the person added and with rows the engine added that
 * the person then removed (tombstones, `on_drift: adopt | revert`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planRecipe } from "../../../engine/run/runner.js";
import {
  catalogueSongs,
  converge,
  type Harness,
  playlistRows,
  recipe,
  startHarness,
} from "../../support/sync-harness.js";

let h: Harness;
let env: ReturnType<Harness["env"]>;
let songs: string[];
beforeAll(async () => {
  h = await startHarness({ catalogueSize: 300 });
  env = h.env();
  songs = catalogueSongs(h, 120);
});
afterAll(async () => {
  await h?.stop();
});

const yaml = (id: string, ids: readonly string[], mode: string, policy = "") => `apiVersion: musicsync/v1
kind: Recipe
id: ${id}
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { title: "${id}", privacy: PRIVATE }
mode: ${mode}
${policy ? `policy: ${policy}\n` : ""}`;

/** The person's edits: add `add` at the end, remove the first row holding `remove`. */
async function byHand(pid: string, edits: { add?: string[]; remove?: string[] }) {
  if (edits.add) await h.person.addPlaylistItems(pid, edits.add);
  const rows = await playlistRows(h, pid);
  const gone = (edits.remove ?? []).map((id) => rows.find((r) => r.videoId === id)!);
  if (gone.length > 0) await h.person.removePlaylistItems(pid, gone);
}

async function ids(pid: string): Promise<string[]> {
  return (await playlistRows(h, pid)).map((r) => r.videoId);
}

describe("modes, with the person editing between runs", () => {
  it("mirror removes the rows the person added and re-adds the ones the person removed, in order", async () => {
    const want = songs.slice(0, 8);
    const loaded = recipe(h.project, yaml("m-mirror", want, "mirror"));
    const { run } = await converge(h, env, loaded);
    const pid = run.apply!.playlistId!;
    await byHand(pid, { add: [songs[50]!], remove: [want[3]!] });
    const second = await converge(h, env, loaded);
    expect(second.run.plan!.summary).toMatchObject({ add: 1, remove: 1 });
    expect(second.run.plan!.lines.find((l) => l.videoId === songs[50])).toMatchObject({
      op: "remove",
      reason: "not desired",
    });
    expect(await ids(pid)).toEqual(want);
  });

  it("sync with on_drift adopt: keeps the person's rows, remembers a removed row as a tombstone", async () => {
    const want = songs.slice(10, 18);
    const loaded = recipe(h.project, yaml("m-adopt", want, "sync", "{ on_drift: adopt }"));
    const pid = (await converge(h, env, loaded)).run.apply!.playlistId!;
    await byHand(pid, { add: [songs[51]!], remove: [want[2]!] });
    const second = await converge(h, env, loaded, ["no_changes"]);
    expect(second.run.plan!.tombstones).toEqual([want[2]]);
    expect(await env.state.tombstones("default", `playlist/${pid}`)).toEqual(new Set([want[2]]));
    expect(second.run.plan!.lines.find((l) => l.videoId === songs[51])).toMatchObject({
      op: "keep",
      reason: "added outside the engine",
    });
    // Dropped from the recipe later: its own rows go, the person's row and the tombstone stay.
    const fewer = recipe(h.project, yaml("m-adopt", want.slice(0, 6), "sync", "{ on_drift: adopt }"));
    const third = await converge(h, env, fewer);
    expect(third.run.plan!.summary.remove).toBe(2);
    const now = await ids(pid);
    expect(now).toContain(songs[51]);
    expect(now).not.toContain(want[2]);
    expect(now.filter((v) => v !== songs[51])).toEqual(want.slice(0, 6).filter((v) => v !== want[2]));
    expect((await planRecipe(fewer, env)).plan.lines.find((l) => l.videoId === want[2])?.reason).toBe(
      "tombstoned",
    );
  });

  it("sync with on_drift revert: re-adds the row the person removed, keeps the person's own", async () => {
    const want = songs.slice(20, 28);
    const loaded = recipe(h.project, yaml("m-revert", want, "sync", "{ on_drift: revert }"));
    const pid = (await converge(h, env, loaded)).run.apply!.playlistId!;
    await byHand(pid, { add: [songs[52]!], remove: [want[5]!] });
    const second = await converge(h, env, loaded);
    expect(second.run.plan!.summary).toMatchObject({ add: 1, remove: 0 });
    expect(second.run.plan!.tombstones).toEqual([]);
    const now = await ids(pid);
    expect(now.filter((v) => v !== songs[52])).toEqual(want);
    expect(now).toContain(songs[52]);
  });

  it("append never removes, and never re-adds what the person removed", async () => {
    const want = songs.slice(30, 38);
    const loaded = recipe(h.project, yaml("m-append", want, "append"));
    const pid = (await converge(h, env, loaded)).run.apply!.playlistId!;
    await byHand(pid, { remove: [want[0]!] });
    // The recipe now wants fewer songs and two new ones: only the new ones are appended.
    const next = [...want.slice(0, 4), songs[40]!, songs[41]!];
    const changed = recipe(h.project, yaml("m-append", next, "append"));
    const second = await converge(h, env, changed);
    expect(second.run.plan!.summary).toMatchObject({ add: 2, remove: 0, move: 0 });
    expect(second.run.plan!.lines.find((l) => l.videoId === want[0])).toMatchObject({
      op: "skip",
      reason: "removed outside the engine; not re-added",
    });
    expect(await ids(pid)).toEqual([...want.slice(1), songs[40], songs[41]]);
  });
});
