/**
 * The daemon's pure parts without a service: reloads (which version of each recipe runs on), the
 * per-account queue, the stop that refuses writes but lets reads and the write in flight finish,
 * durations, the drift comparison — and the example recipe repository, which must validate.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { EngineClient } from "../../../engine/apply/client.js";
import { AccountQueue } from "../../../engine/daemon/account-queue.js";
import { mergeReload } from "../../../engine/daemon/recipes.js";
import { InterruptedError, Shutdown } from "../../../engine/daemon/shutdown.js";
import { loadRecipeTexts } from "../../../engine/recipe/load.js";
import type { Snapshot } from "../../../engine/state/types.js";
import { compareWithSnapshot } from "../../../engine/status/drift.js";
import { parseDuration } from "../../../shared/duration.js";
import { musicsync, ROOT } from "../../support/daemon-harness.js";

const recipe = (id: string, cron: string, title = id) =>
  [
    "apiVersion: musicsync/v1",
    "kind: Recipe",
    `id: ${id}`,
    `schedule: { cron: "${cron}" }`,
    "sources: [{ id: s, type: static, videoIds: [aaaaaaaaaaa] }]",
    `target: { type: playlist, playlist: { title: "${title}" } }`,
    "",
  ].join("\n");

function load(files: Record<string, string>) {
  return loadRecipeTexts(Object.entries(files).map(([file, text]) => ({ file, text })));
}

describe("mergeReload", () => {
  const first = load({ "a.yaml": recipe("a", "* * * * *"), "b.yaml": recipe("b", "0 * * * *") }).recipes;

  it("takes new and changed versions, drops recipes gone from files that load", () => {
    const next = load({ "a.yaml": recipe("a", "*/5 * * * *"), "c.yaml": recipe("c", "0 0 * * *") });
    const r = mergeReload(first, next);
    expect(r).toMatchObject({ added: ["c"], changed: ["a"], removed: ["b"], kept: [], issues: [] });
    expect(r.recipes.map((x) => [x.recipe.id, x.recipe.schedule?.cron])).toEqual([
      ["a", "*/5 * * * *"],
      ["c", "0 0 * * *"],
    ]);
  });

  it("keeps the previous version of every recipe of a file that no longer loads", () => {
    const next = load({
      "a.yaml": "apiVersion: musicsync/v1\nkind: Recipe\nid: a\n",
      "b.yaml": recipe("b", "0 * * * *"),
    });
    const r = mergeReload(first, next);
    expect(r.kept).toEqual(["a"]);
    expect(r.removed).toEqual([]);
    expect(r.recipes.find((x) => x.recipe.id === "a")).toBe(first[0]);
    expect(r.issues[0]!.file).toBe("a.yaml");
  });

  it("refuses a cron expression node-cron cannot run, keeping the old version", () => {
    const next = load({ "a.yaml": recipe("a", "61 * * * *"), "b.yaml": recipe("b", "0 * * * *") });
    const r = mergeReload(first, next);
    expect(r.kept).toEqual(["a"]);
    expect(r.issues.map((i) => i.message)).toEqual([
      'schedule.cron: "61 * * * *" is not a valid cron expression: minute "61" is not valid',
    ]);
    // A new recipe with such a schedule is not run at all.
    const fresh = mergeReload([], next);
    expect(fresh.recipes.map((x) => x.recipe.id)).toEqual(["b"]);
  });

  it("reads jitter as seconds; recipes without it keep the hash they had", () => {
    const plain = load({ "a.yaml": recipe("a", "0 7 * * *") }).recipes[0]!;
    expect(plain.recipe.schedule).toEqual({ cron: "0 7 * * *", timezone: null });
    const jittered = load({
      "a.yaml": recipe("a", "0 7 * * *").replace('cron: "0 7 * * *"', 'cron: "0 7 * * *", jitter: 10m'),
    }).recipes[0]!;
    expect(jittered.recipe.schedule?.jitter_seconds).toBe(600);
    expect(jittered.hash).not.toBe(plain.hash);
    const bad = load({
      "a.yaml": recipe("a", "0 7 * * *").replace('cron: "0 7 * * *"', 'cron: "0 7 * * *", jitter: soon'),
    });
    expect(bad.issues[0]!.message).toMatch(/^schedule\.jitter: must match/);
  });
});

describe("AccountQueue", () => {
  it("runs bodies of one account one at a time and other accounts alongside", async () => {
    const q = new AccountQueue();
    const log: string[] = [];
    const step = (name: string, ms: number) => async () => {
      log.push(`${name}+`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`${name}-`);
      return name;
    };
    const done = await Promise.all([
      q.run("x", step("x1", 30)),
      q.run("x", step("x2", 5)),
      q.run("y", step("y1", 5)),
    ]);
    expect(done).toEqual(["x1", "x2", "y1"]);
    expect(log.indexOf("x2+")).toBeGreaterThan(log.indexOf("x1-"));
    expect(log.indexOf("y1-")).toBeLessThan(log.indexOf("x1-"));
    // A failure does not block the queue.
    await expect(q.run("x", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await q.run("x", async () => 1)).toBe(1);
    await q.idle();
    expect(q.pending("x")).toBe(0);
  });
});

describe("Shutdown", () => {
  it("refuses writes once requested, lets reads and the write in flight finish, ends sleeps early", async () => {
    const calls: string[] = [];
    let release!: () => void;
    const fake = {
      getPlaylist: async () => {
        calls.push("read");
        return { tracks: [] };
      },
      addPlaylistItems: async () => {
        calls.push("write");
        await new Promise<void>((r) => (release = r));
        return { status: "STATUS_SUCCEEDED", playlistEditResults: [] };
      },
    } as unknown as EngineClient;
    const s = new Shutdown();
    const client = s.guard(fake);
    const inFlight = client.addPlaylistItems("PL1", ["aaaaaaaaaaa"]);
    const sleeping = s.sleep(60_000);
    s.request("SIGTERM");
    release();
    await expect(inFlight).resolves.toMatchObject({ status: "STATUS_SUCCEEDED" });
    expect(await sleeping).toBe(false);
    await expect(client.addPlaylistItems("PL1", ["bbbbbbbbbbb"])).rejects.toBeInstanceOf(InterruptedError);
    await expect(client.addPlaylistItems("PL1", [])).rejects.toThrow("not sent: interrupted by SIGTERM");
    await client.getPlaylist("PL1");
    expect(calls).toEqual(["write", "read"]);
  });
});

describe("parseDuration", () => {
  it("reads ms, s, m, h and plain milliseconds; refuses the rest", () => {
    expect([parseDuration("250ms", "x"), parseDuration("30s", "x"), parseDuration("5m", "x")]).toEqual([
      250, 30_000, 300_000,
    ]);
    expect(parseDuration("1.5h", "x")).toBe(5_400_000);
    expect(parseDuration("1200", "x")).toBe(1200);
    expect(() => parseDuration("soon", "--lock-wait")).toThrow('--lock-wait: "soon" is not a duration');
  });
});

describe("compareWithSnapshot", () => {
  const snap: Snapshot = {
    account: "default",
    target: "playlist/PL1",
    recipeId: "r",
    runId: 3,
    takenAt: 0,
    fingerprint: "",
    rows: [
      { key: "a", setVideoId: "s1" },
      { key: "b", setVideoId: "s2" },
      { key: "c", setVideoId: "s3" },
    ],
    meta: { playlistId: "PL1", title: "T", description: "d", privacy: "PRIVATE" },
  };
  const row = (key: string, setVideoId: string) => ({ key, setVideoId, title: null });

  it("is empty when nothing changed", () => {
    expect(
      compareWithSnapshot(snap, {
        exists: true,
        rows: [row("a", "s1"), row("b", "s2"), row("c", "s3")],
        meta: snap.meta!,
      }),
    ).toEqual([]);
  });

  it("tells a re-added song (new row id) from the one removed, and a move from an edit", () => {
    const changes = compareWithSnapshot(snap, {
      exists: true,
      rows: [row("c", "s3"), row("a", "s1"), row("b", "s9")],
      meta: { ...snap.meta!, description: "changed" },
    });
    expect(changes).toEqual([
      { kind: "description_changed", from: "d", to: "changed" },
      { kind: "rows_added", rows: [row("b", "s9")] },
      { kind: "rows_removed", rows: [row("b", "s2")] },
      { kind: "order_changed" },
    ]);
  });

  it("counts copies for targets without row ids", () => {
    const likes: Snapshot = { ...snap, target: "likes", meta: null, rows: [{ key: "a", setVideoId: null }] };
    const rows = [row("a", ""), row("a", "")].map((r) => ({ ...r, setVideoId: null }));
    expect(compareWithSnapshot(likes, { exists: true, rows, meta: null })).toEqual([
      { kind: "rows_added", rows: [rows[1]] },
    ]);
  });

  it("reports a deleted playlist alone", () => {
    expect(compareWithSnapshot(snap, { exists: false, rows: [], meta: null })).toEqual([
      { kind: "playlist_deleted", playlistId: "PL1" },
    ]);
  });
});

describe("examples/recipe-repo", () => {
  const repo = join(ROOT, "examples/recipe-repo");

  it("validates, and its recipes are scheduled with time zones and jitter", async () => {
    const r = await musicsync(["validate", "-p", join(repo, "musicsync.yaml")]);
    expect(r).toMatchObject({ code: 0, stdout: "3 recipes valid.\n" });
    const status = await musicsync([
      "status",
      "--json",
      "-p",
      join(repo, "musicsync.yaml"),
      "--state",
      ":memory:",
    ]);
    const report = JSON.parse(status.stdout) as { recipes: { recipe: string; schedule: unknown }[] };
    expect(report.recipes.find((x) => x.recipe === "morning-chart")!.schedule).toEqual({
      cron: "15 7 * * *",
      timezone: "Europe/Berlin",
      jitterSeconds: 600,
    });
  });

  it("has a workflow that validates, plans on pull requests and applies on main, and a unit for the daemon", async () => {
    const wf = parseYaml(await readFile(join(repo, ".github/workflows/musicsync.yml"), "utf8")) as {
      jobs: Record<string, { if?: string; steps: { run?: string }[] }>;
    };
    const runs = (job: string) => wf.jobs[job]!.steps.map((s) => s.run ?? "").join("\n");
    expect(runs("validate")).toContain("npx musicsync validate");
    expect(wf.jobs.plan!.if).toBe("github.event_name == 'pull_request'");
    expect(runs("plan")).toContain("npx musicsync plan --markdown > plan.md");
    expect(runs("plan")).toContain("gh pr comment");
    expect(runs("apply")).toContain("npx musicsync sync");
    const unit = await readFile(join(repo, "deploy/musicsync.service"), "utf8");
    expect(unit).toMatch(/^ExecStart=\S+\/musicsync daemon /m);
    expect(unit).toMatch(/^ExecReload=\/bin\/kill -HUP \$MAINPID$/m);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    const readme = await readFile(join(repo, "README.md"), "utf8");
    for (const f of ["musicsync.yaml", ".github/workflows/musicsync.yml", "deploy/musicsync.service"])
      expect(readme).toContain(f);
  });
});
