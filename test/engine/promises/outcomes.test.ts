/**
 * docs/ENGINE.md#outcomes-and-exit-codes and docs/ENGINE.md#ratings, through the real `musicsync` command line (its `main`, output
 * captured): a failure is never shown as "No changes." in any rendering and its exit code says so,
 * a 404 names the source and the id; a likes recipe keeps the ratings the person set by hand.
 */
import { readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { musicsync, writeRecipes } from "../../support/daemon-harness.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

/** A port on 127.0.0.1 that nothing listens on: bound by the system, then closed again. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Every rendering of `plan` and of `sync --dry-run` for the harness's project. */
async function renderings(project: string) {
  const p = ["-p", project];
  return {
    text: await musicsync(["plan", ...p]),
    markdown: await musicsync(["plan", "--markdown", ...p]),
    json: await musicsync(["plan", "--json", ...p]),
    dry: await musicsync(["sync", "--dry-run", ...p]),
  };
}

/** The promise of docs/ENGINE.md#outcomes-and-exit-codes for one failing recipe: listed with its reason everywhere, never "No changes.". */
function expectListedAsFailed(r: Awaited<ReturnType<typeof renderings>>, id: string, reason: RegExp) {
  for (const [label, out] of Object.entries(r)) {
    expect(out.stdout, label).not.toMatch(/No changes\./);
    expect(out.stdout, label).not.toMatch(/No recipes to plan/);
    expect(out.stdout, label).toContain(id);
  }
  expect(r.text.stdout).toMatch(
    new RegExp(`^${id}: playlist "${id}" \\(new\\) \\[mirror\\]\\n  ! error: `, "m"),
  );
  expect(r.text.stdout).toMatch(reason);
  expect(r.text.stdout).toMatch(/^Failed: 1 of 1 recipe \(/m);
  expect(r.markdown.stdout).toMatch(new RegExp(`^\\| ${id} \\| .* \\| \\*\\*failed\\*\\* \\|$`, "m"));
  expect(r.markdown.stdout).toMatch(/^\*\*Failed: 1 of 1 recipe/m);
  expect(r.markdown.stdout).toMatch(new RegExp(`^> \\*\\*${id} failed\\*\\*: `, "m"));
  const doc = JSON.parse(r.json.stdout);
  expect(doc.plans).toEqual([]);
  expect(doc.failed).toHaveLength(1);
  expect(doc.failed[0]).toMatchObject({ recipe: id, mode: "mirror", target: { type: "playlist" } });
  expect(doc.failed[0].error).toMatch(reason);
  expect(r.dry.stdout).toMatch(/^Failed: 1 of 1 recipe/m);
}

describe("failures are never shown as No changes", () => {
  // docs/ENGINE.md#outcomes-and-exit-codes
  it("a missing auth file: every rendering lists the recipe with the reason, exit 1", async () => {
    h = await startHarness();
    await writeRecipes(h.dir, [{ id: "mine", ids: catalogueSongs(h, 3) }]);
    await writeFile(
      h.projectFile,
      (await readFile(h.projectFile, "utf8")).replace("auth: headers.json", "auth: no-such-headers.json"),
    );
    const r = await renderings(h.projectFile);
    expectListedAsFailed(
      r,
      "mine",
      /accounts\.default\.auth: the file .*no-such-headers\.json does not exist or cannot be read/,
    );
    for (const out of Object.values(r)) expect(out.code).toBe(1);
    const sync = await musicsync(["sync", "-p", h.projectFile, "--json"]);
    expect(sync.code).toBe(1);
    expect(JSON.parse(sync.stdout).runs[0]).toMatchObject({ recipe: "mine", outcome: "failed" });
    expect(await h.writes()).toBe(0);
  });

  // docs/ENGINE.md#outcomes-and-exit-codes
  it("a 401: every rendering lists the recipe as refused credentials, exit 4, no credential shown", async () => {
    h = await startHarness();
    await writeRecipes(h.dir, [{ id: "mine", ids: catalogueSongs(h, 3) }]);
    const sapisid = /SAPISID=([^;]+)/.exec(h.headers.cookie ?? "")![1]!;
    const wrong = "notTheRightOne0000";
    await writeFile(
      join(h.dir, "headers.json"),
      JSON.stringify({ ...h.headers, cookie: h.headers.cookie!.replaceAll(sapisid, wrong) }),
    );
    const r = await renderings(h.projectFile);
    expectListedAsFailed(r, "mine", /refused the credentials/);
    for (const out of Object.values(r)) {
      expect(out.code).toBe(4);
      expect(out.stdout + out.stderr).not.toContain(wrong);
      expect(out.stdout + out.stderr).not.toContain(sapisid);
    }
    const sync = await musicsync(["sync", "-p", h.projectFile]);
    expect(sync.code).toBe(4);
    expect(sync.stdout).toMatch(/^mine: Not applied: .*refused the credentials/m);
    expect(sync.stdout).toMatch(/^Failed: 1 of 1 recipe \(mine\)\.$/m);
  });

  // docs/ENGINE.md#outcomes-and-exit-codes
  it("a refused connection: every rendering lists the recipe with the connection error, exit 1", async () => {
    h = await startHarness();
    await writeRecipes(h.dir, [{ id: "mine", ids: catalogueSongs(h, 3) }]);
    const port = await deadPort();
    const text = await readFile(h.projectFile, "utf8");
    await writeFile(h.projectFile, text.replace(h.emulator.url, `http://127.0.0.1:${port}`));
    const r = await renderings(h.projectFile);
    expectListedAsFailed(r, "mine", /connection failed|ECONNREFUSED/);
    for (const out of Object.values(r)) expect(out.code).toBe(1);
    const sync = await musicsync(["sync", "-p", h.projectFile, "--json"]);
    expect(sync.code).toBe(1);
    expect(JSON.parse(sync.stdout).runs[0].error).toMatch(/ECONNREFUSED|connection failed/);
  });

  // docs/ENGINE.md#outcomes-and-exit-codes
  it("a 404 names the source (id and type) and the id that was not found", async () => {
    h = await startHarness();
    await writeRecipes(h.dir, [
      {
        id: "mine",
        ids: catalogueSongs(h, 2),
        sources: ["{ id: theirs, type: playlist, playlistId: PLgoneGone0000 }"],
      },
    ]);
    const r = await renderings(h.projectFile);
    const reason =
      /source "theirs": playlist PLgoneGone0000 was not found \(get_playlist answered HTTP 404\)/;
    expectListedAsFailed(r, "mine", reason);
    expect(r.text.stderr).toMatch(reason);
    const sync = await musicsync(["sync", "-p", h.projectFile, "--json"]);
    expect(sync.code).toBe(1);
    expect(JSON.parse(sync.stdout).runs[0].error).toMatch(reason);
  });

  // docs/ENGINE.md#outcomes-and-exit-codes
  it("two failing recipes and one good one: Markdown lists all three and says they failed, exit 1", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 4);
    await writeRecipes(h.dir, [
      { id: "good", ids: songs },
      { id: "gone", ids: songs, sources: ["{ id: src, type: playlist, playlistId: PLgoneGone0000 }"] },
      { id: "lost", ids: songs, sources: ["{ id: alb, type: album, browseId: MPREb_gone00000 }"] },
    ]);
    const p = ["-p", h.projectFile];
    expect((await musicsync(["sync", "-r", "good", ...p])).code).toBe(0);
    // "good" has nothing left to do: before the fix the page said only that, "No changes.".
    const planFile = join(h.dir, "plan.json");
    const md = await musicsync(["plan", "--markdown", "-o", planFile, ...p]);
    expect(md.code).toBe(1);
    expect(md.stdout).not.toMatch(/No changes/);
    expect(md.stdout).toMatch(/^\| good \| .* \| no changes \|$/m);
    expect(md.stdout).toMatch(/^\| gone \| .* \| \*\*failed\*\* \|$/m);
    expect(md.stdout).toMatch(/^\| lost \| .* \| \*\*failed\*\* \|$/m);
    expect(md.stdout).toMatch(/^\*\*Failed: 2 of 3 recipes \\\(gone, lost\\\)\.\*\*$/m);
    expect(md.stdout).toMatch(/^> \*\*gone failed\*\*: source "src": playlist PLgoneGone0000 was not found/m);
    expect(md.stdout).toMatch(/^> \*\*lost failed\*\*: source "alb": album MPREb\\_gone00000 was not found/m);
    const text = await musicsync(["plan", ...p]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^Failed: 2 of 3 recipes \(gone, lost\)\.$/m);
    // The saved plan carries the failures too, and the plans it has can still be applied.
    const saved = JSON.parse(await readFile(planFile, "utf8"));
    expect(saved.plans.map((x: { recipe: { id: string } }) => x.recipe.id)).toEqual(["good"]);
    expect(saved.failed.map((x: { recipe: string }) => x.recipe)).toEqual(["gone", "lost"]);
    const applied = await musicsync(["apply", planFile, ...p]);
    expect(applied.code, applied.stderr).toBe(0);
  });

  // docs/ENGINE.md#outcomes-and-exit-codes
  it("failure wins over changes: plan exits 1, sync that wrote for others exits 3", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 4);
    await writeRecipes(h.dir, [
      { id: "good", ids: songs },
      { id: "gone", ids: songs, sources: ["{ id: src, type: playlist, playlistId: PLgoneGone0000 }"] },
    ]);
    const p = ["-p", h.projectFile];
    const planned = await musicsync(["plan", ...p]);
    expect(planned.code).toBe(1);
    expect(planned.stdout).toMatch(/^Plan: 4 to add/m);
    expect(planned.stdout).toMatch(/^Failed: 1 of 2 recipes \(gone\)\.$/m);
    expect((await musicsync(["sync", "--dry-run", ...p])).code).toBe(1);
    const synced = await musicsync(["sync", ...p]);
    expect(synced.code).toBe(3);
    expect(synced.stdout).toMatch(/^good: Applied: .*converged\.$/m);
    expect(synced.stdout).toMatch(/^Failed: 1 of 2 recipes \(gone\)\.$/m);
  });
});

/** A likes recipe over a static list of songs (the static source carries no rating of its own). */
function likesRecipe(id: string, rating: "LIKE" | "DISLIKE", ids: readonly string[], override = false) {
  return [
    "apiVersion: musicsync/v1",
    "kind: Recipe",
    `id: ${id}`,
    "sources:",
    `  - { id: list, type: static, videoIds: [${ids.join(", ")}] }`,
    "target: { type: likes, rating: " + rating + " }",
    "mode: append",
    ...(override ? ["policy: { override_ratings: true }"] : []),
    "",
  ].join("\n");
}

describe("a likes recipe keeps the ratings the person set", () => {
  const ratingOf = (videoId: string) => h!.emulator.state.store.library.rating(1, videoId);

  // docs/ENGINE.md#ratings
  it("skips a song the person disliked, saying so, and likes the others", async () => {
    h = await startHarness();
    const [disliked, other] = catalogueSongs(h, 2) as [string, string];
    await h.person.rateSong(disliked, "DISLIKE");
    await writeRecipes(h.dir, { "likes.yaml": likesRecipe("likes", "LIKE", [disliked, other]) });
    const p = ["-p", h.projectFile];
    const planned = await musicsync(["plan", ...p]);
    expect(planned.code, planned.stderr).toBe(2);
    expect(planned.stdout).toMatch(new RegExp(`^  ! skip .*${disliked}.* \\(you disliked it\\)$`, "m"));
    expect(planned.stdout).toMatch(new RegExp(`^  \\* rate .*${other}`, "m"));
    const synced = await musicsync(["sync", ...p]);
    expect(synced.code, synced.stderr).toBe(0);
    expect(ratingOf(disliked)).toBe("DISLIKE");
    expect(ratingOf(other)).toBe("LIKE");
    // The next plan still keeps the dislike, with nothing to write.
    const again = await musicsync(["plan", ...p]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/\(you disliked it\)/);
  });

  // docs/ENGINE.md#ratings
  it("overrides the person's dislike only with policy override_ratings: true", async () => {
    h = await startHarness();
    const [disliked] = catalogueSongs(h, 1) as [string];
    await h.person.rateSong(disliked, "DISLIKE");
    await writeRecipes(h.dir, { "likes.yaml": likesRecipe("likes", "LIKE", [disliked], true) });
    const synced = await musicsync(["sync", "-p", h.projectFile]);
    expect(synced.code, synced.stderr).toBe(0);
    expect(ratingOf(disliked)).toBe("LIKE");
  });

  // docs/ENGINE.md#ratings
  it("a DISLIKE recipe skips a song the person liked", async () => {
    h = await startHarness();
    const [liked, other] = catalogueSongs(h, 2) as [string, string];
    await h.person.rateSong(liked, "LIKE");
    await writeRecipes(h.dir, { "dislikes.yaml": likesRecipe("dislikes", "DISLIKE", [liked, other]) });
    const p = ["-p", h.projectFile];
    const planned = await musicsync(["plan", ...p]);
    expect(planned.stdout).toMatch(new RegExp(`^  ! skip .*${liked}.* \\(you liked it\\)$`, "m"));
    expect((await musicsync(["sync", ...p])).code).toBe(0);
    expect(ratingOf(liked)).toBe("LIKE");
    expect(ratingOf(other)).toBe("DISLIKE");
  });

  // docs/ENGINE.md#ratings
  it("a LIKE and a DISLIKE recipe of one account write different targets; two LIKE recipes conflict", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 2);
    await writeRecipes(h.dir, {
      "likes.yaml": likesRecipe("likes", "LIKE", songs.slice(0, 1)),
      "dislikes.yaml": likesRecipe("dislikes", "DISLIKE", songs.slice(1)),
    });
    const ok = await musicsync(["validate", "-p", h.projectFile]);
    expect(ok.code, ok.stderr).toBe(0);
    await writeRecipes(h.dir, { "more-likes.yaml": likesRecipe("more-likes", "LIKE", songs.slice(1)) });
    const clash = await musicsync(["validate", "-p", h.projectFile]);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toMatch(/more-likes|likes/);
  });
});
