/**
 * `policy.require_approval` end to end against the emulator: the daemon holds a plan that removes
 * too much (and keeps holding the same one under the same run id), `status` lists it, `approve`
 * applies exactly it once, a plan gone stale is refused, and a one-shot `sync` holds such a plan
 * (exit 5) unless given `--approve`.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import { musicsync as compiled } from "../../support/cli-process.js";
import { type InProcessDaemon, musicsync, startDaemon, writeRecipes } from "../../support/daemon-harness.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  playlistsTitled,
  startHarness,
} from "../../support/sync-harness.js";

let h: Harness | null = null;
let d: InProcessDaemon | null = null;
afterEach(async () => {
  await d?.stop();
  d = null;
  await h?.stop();
  h = null;
});

/** A mirror of `ids` into "Held", holding any plan that removes more than 20 rows (`policy` to change it). */
function heldRecipe(
  ids: readonly string[],
  policy = "policy: { batch_size: 10, require_approval: { removals: 20 } }",
): Record<string, string> {
  const text = [
    "apiVersion: musicsync/v1",
    "kind: Recipe",
    "id: held",
    "sources:",
    `  - { id: list, type: static, videoIds: [${ids.join(", ")}] }`,
    "target:",
    "  type: playlist",
    '  playlist: { title: "Held", privacy: PRIVATE }',
    "mode: mirror",
    policy,
    "",
  ].join("\n");
  return { "held.yaml": text };
}

/** "Held" synced with 30 songs: its next plan that drops over 20 of them is held. */
async function heldAndSynced(harness: Harness): Promise<{ songs: string[]; p: string[] }> {
  const songs = catalogueSongs(harness, 30);
  const p = ["-p", harness.projectFile];
  await writeRecipes(harness.dir, heldRecipe(songs));
  expect((await musicsync(["sync", ...p])).code).toBe(0);
  return { songs, p };
}

async function rowsOfHeld(harness: Harness): Promise<string[]> {
  const [pid] = await playlistsTitled(harness, "Held");
  return (await playlistRows(harness, pid!)).map((r) => r.videoId);
}

interface StatusJson {
  approvals: { recipe: string; runId: number; reason: string; heldAt: string; command: string }[];
}

describe("require_approval", () => {
  it("the daemon holds a big removal; status lists it; approve applies exactly it, once", async () => {
    h = await startHarness();
    const { songs, p } = await heldAndSynced(h);
    expect(await rowsOfHeld(h)).toEqual(songs);

    await writeRecipes(h.dir, heldRecipe(songs.slice(0, 5)));
    d = await startDaemon(h);
    const writes = await h.writes();
    const [first] = await d.daemon.trigger("held");
    expect(first).toMatchObject({ outcome: "pending_approval", attempt: 1 });
    expect(first!.error).toContain("25 removals, over require_approval.removals 20");
    // Planned again, the same plan stays held under the run id the person was told.
    const [second] = await d.daemon.trigger("held");
    expect(second).toMatchObject({ outcome: "pending_approval", attempt: 1 });
    expect(second!.error).toContain(`musicsync approve ${first!.runId}`);
    expect(await h.writes()).toBe(writes);
    expect(await rowsOfHeld(h)).toEqual(songs);
    expect((await d.daemon.state.recipeHealth("held")).consecutiveFailures).toBe(0);
    await d.stop();
    d = null;

    const held = first!.runId!;
    const status = await musicsync(["status", "--json", ...p]);
    expect((JSON.parse(status.stdout) as StatusJson).approvals).toEqual([
      expect.objectContaining({
        recipe: "held",
        runId: held,
        reason: "25 removals, over require_approval.removals 20",
        command: `musicsync approve ${held}`,
      }),
    ]);
    const text = await musicsync(["status", ...p]);
    expect(text.stdout).toContain("Waiting for approval");
    expect(text.stdout).toContain(`held: run #${held} held`);
    expect(text.stdout).toContain(`apply it with: musicsync approve ${held}`);

    // The recipe changes meanwhile: approve applies the plan the person saw, not a new one.
    await writeRecipes(h.dir, heldRecipe(songs.slice(0, 6)));
    const approved = await musicsync(["approve", String(held), ...p]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(await rowsOfHeld(h)).toEqual(songs.slice(0, 5));
    const again = await musicsync(["approve", String(held), ...p]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split("\n")).toHaveLength(1);
    expect(again.stderr).toMatch(
      new RegExp(`run ${held}'s plan was approved already \\(applied by run \\d+\\)`),
    );
    const after = JSON.parse((await musicsync(["status", "--json", ...p])).stdout) as StatusJson;
    expect(after.approvals).toEqual([]);
    const unknown = await musicsync(["approve", "9999", ...p]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("run 9999 holds no plan for approval");
  });

  it("sync holds such a plan (exit 5) and applies it with --approve; approve refuses a stale plan", async () => {
    h = await startHarness();
    const { songs, p } = await heldAndSynced(h);

    await writeRecipes(h.dir, heldRecipe(songs.slice(0, 5)));
    const writes = await h.writes();
    // Shown only, the plan says it would be held, and how to let it through.
    const note =
      "held for approval when applied: 25 removals, over require_approval.removals 20 (sync --approve, or approve the held run)";
    const shown = await musicsync(["plan", ...p]);
    expect(shown.code).toBe(2);
    expect(shown.stdout.split("\n")).toContain(`  ${note}`);
    expect((await musicsync(["sync", "--dry-run", ...p])).stdout).toContain(note);
    const json = JSON.parse((await musicsync(["plan", "--json", ...p])).stdout) as {
      plans: { heldForApproval?: string }[];
    };
    expect(json.plans[0]!.heldForApproval).toBe("25 removals, over require_approval.removals 20");
    const md = (await musicsync(["plan", "--markdown", ...p])).stdout;
    expect(md).toContain("held for approval when applied: 25 removals");
    expect(md).toMatch(/\| held \|.*requests, held for approval \|/);
    expect(await h.writes()).toBe(writes);
    const sync = await compiled(["sync", ...p]);
    expect(sync.code, sync.stderr).toBe(5);
    expect(sync.stdout).toMatch(
      /held: Not applied: held for approval: 25 removals, over require_approval\.removals 20/,
    );
    expect(await h.writes()).toBe(writes);
    const [pending] = (JSON.parse((await musicsync(["status", "--json", ...p])).stdout) as StatusJson)
      .approvals;
    expect(pending?.recipe).toBe("held");

    // The person takes a row out by hand: the held plan no longer fits the playlist.
    const [pid] = await playlistsTitled(h, "Held");
    const [row] = await playlistRows(h, pid!);
    await h.person.removePlaylistItems(pid!, [row!]);
    const stale = await musicsync(["approve", String(pending!.runId), ...p]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("the target changed since the plan was made");
    expect(await rowsOfHeld(h)).toEqual(songs.slice(1));

    // Planned again, the plan differs (it adds back the row the person removed): it replaces the old.
    const again = await musicsync(["sync", ...p]);
    expect(again.code).toBe(5);
    const [newer] = (JSON.parse((await musicsync(["status", "--json", ...p])).stdout) as StatusJson)
      .approvals;
    expect(newer!.runId).toBeGreaterThan(pending!.runId);
    expect(newer!.reason).toBe("25 removals, over require_approval.removals 20");
    const superseded = await musicsync(["approve", String(pending!.runId), ...p]);
    expect(superseded.code).toBe(1);
    expect(superseded.stderr).toContain(`run ${pending!.runId}'s plan was superseded by a newer plan`);

    const forced = await compiled(["sync", "--approve", ...p]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await rowsOfHeld(h)).toEqual(songs.slice(0, 5));
    // A newer plan was applied: the held one can no longer be approved, and status drops it.
    expect(
      (JSON.parse((await musicsync(["status", "--json", ...p])).stdout) as StatusJson).approvals,
    ).toEqual([]);
    const late = await musicsync(["approve", String(newer!.runId), ...p]);
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(/plan is out of date: run \d+ applied a newer plan of recipe held/);
    // The state itself says so: the run that applied marked the held plan superseded.
    const state = openSqliteState(h.stateFile);
    try {
      expect(await state.approval(newer!.runId)).toMatchObject({ status: "superseded" });
      expect(await state.approvals({ recipeId: "held" })).toEqual([]);
    } finally {
      await state.close();
    }
    // With nothing held, a plan shows no such line.
    expect((await musicsync(["plan", ...p])).stdout).not.toContain("held for approval");
  });

  it("apply holds a saved plan as sync does (exit 5, nothing written, approvable); --approve applies it", async () => {
    h = await startHarness();
    const { songs, p } = await heldAndSynced(h);
    await writeRecipes(h.dir, heldRecipe(songs.slice(0, 5)));
    const file = join(h.dir, "plan.json");
    const planned = await compiled(["plan", "-o", file, ...p]);
    expect(planned.stdout).toContain("held for approval when applied: 25 removals");
    const writes = await h.writes();

    const held = await compiled(["apply", file, ...p]);
    expect(held.code, held.stdout + held.stderr).toBe(5);
    const said =
      /held: Not applied: held for approval: 25 removals, over require_approval\.removals 20; apply it with: musicsync approve (\d+) \(or: musicsync apply --approve /;
    expect(held.stdout).toMatch(said);
    expect(await h.writes()).toBe(writes);
    expect(await rowsOfHeld(h)).toEqual(songs);
    const runId = Number(said.exec(held.stdout)![1]);
    const [pending] = (JSON.parse((await musicsync(["status", "--json", ...p])).stdout) as StatusJson)
      .approvals;
    expect(pending).toMatchObject({ recipe: "held", runId, command: `musicsync approve ${runId}` });

    // The note taken out of the file: the recipe's rule still holds it. The rule taken out of the
    // recipe: the note the plan was saved with still holds it.
    const doc = JSON.parse(await readFile(file, "utf8")) as { plans: { heldForApproval?: string }[] };
    delete doc.plans[0]!.heldForApproval;
    const bare = join(h.dir, "bare.json");
    await writeFile(bare, JSON.stringify(doc));
    expect((await compiled(["apply", bare, ...p])).code).toBe(5);
    await writeRecipes(h.dir, heldRecipe(songs.slice(0, 5), "policy: { batch_size: 10 }"));
    expect((await compiled(["apply", file, ...p])).code).toBe(5);
    expect(await h.writes()).toBe(writes);

    const forced = await compiled(["apply", "--approve", file, ...p]);
    expect(forced.code, forced.stdout + forced.stderr).toBe(0);
    expect(await rowsOfHeld(h)).toEqual(songs.slice(0, 5));
    // A plan of the recipe was applied: what was held for it can no longer be approved.
    expect(
      (JSON.parse((await musicsync(["status", "--json", ...p])).stdout) as StatusJson).approvals,
    ).toEqual([]);
  });

  it("an undo saved with -o says it would be held, and apply holds it unless given --approve", async () => {
    h = await startHarness();
    const { songs, p } = await heldAndSynced(h);
    const file = join(h.dir, "undo.json");
    const undo = await compiled(["undo", "1", "-o", file, ...p]);
    expect(undo.code, undo.stderr).toBe(2);
    expect(undo.stdout).toContain("held for approval when applied: 30 removals");
    const writes = await h.writes();
    const held = await compiled(["apply", file, ...p]);
    expect(held.code, held.stdout + held.stderr).toBe(5);
    expect(held.stdout).toContain("held: Not applied: held for approval: 30 removals");
    expect(await h.writes()).toBe(writes);
    expect(await rowsOfHeld(h)).toEqual(songs);
    const forced = await compiled(["apply", "--approve", file, ...p]);
    expect(forced.code, forced.stdout + forced.stderr).toBe(0);
    expect(await rowsOfHeld(h)).toEqual([]);
  });
});
