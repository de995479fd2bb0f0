/**
 * `musicsync import songs.csv --to "Old favourites"` in one line, end to end against the
 * emulator: the recipe written (and valid), matches.yaml drafted, the plan shown, applied on
 * confirmation (a terminal asks, --yes for scripts, neither stops after the plan), and refusals
 * that write nothing.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { loadRecipePaths } from "../../../engine/recipe/load.js";
import { musicsyncInProc as run } from "../../support/musicsync-inproc.js";
import {
  type CatalogueSong,
  type Harness,
  originalSongs,
  playlistRows,
  playlistsTitled,
  startHarness,
} from "../../support/sync-harness.js";

let h: Harness | null = null;
const extra: string[] = [];
afterEach(async () => {
  await h?.stop();
  h = null;
  for (const d of extra.splice(0)) await rm(d, { recursive: true, force: true });
});

/** songs.csv in the project folder, as Exportify writes one. */
async function songsCsv(hh: Harness, list: readonly CatalogueSong[], name = "songs.csv"): Promise<string> {
  const rows = list.map((s) => `"${s.title}","${s.artist}",${s.duration * 1000}`);
  const file = join(hh.dir, name);
  await writeFile(file, `Track Name,Artist Name(s),Duration (ms)\n${rows.join("\n")}\n`);
  return file;
}

/** `musicsync -p <project> import <file> --to <title> …`, as a person types it. */
const importArgs = (hh: Harness, file: string, title: string, ...more: string[]) => [
  "-p",
  hh.projectFile,
  "import",
  file,
  "--to",
  title,
  ...more,
];

const recipeFile = (hh: Harness) => join(hh.dir, "recipes", "old-favourites.yaml");

async function rowsOf(hh: Harness, title: string): Promise<string[]> {
  const [id] = await playlistsTitled(hh, title);
  return id ? (await playlistRows(hh, id)).map((r) => r.videoId) : [];
}

describe("musicsync import", () => {
  it("--yes: writes a valid recipe and matches.yaml, shows the plan and syncs it; a second sync changes nothing", async () => {
    h = await startHarness();
    const list = originalSongs(h, 5);
    const csv = await songsCsv(h, list);
    const r = await run(["-p", h.projectFile, "import", csv, "--to", "Old favourites", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /Wrote .*old-favourites\.yaml: .*songs\.csv into a new private playlist "Old favourites" \(mode: sync/,
    );
    expect(r.stdout).toMatch(/Matched 5 of 5 /);
    expect(r.stdout).toMatch(/\+ add .*\n/);
    expect(r.stdout).toMatch(/old-favourites: .*converged/);
    expect(await rowsOf(h, "Old favourites")).toEqual(list.map((s) => s.videoId));
    // The recipe names the file relative to itself, and validates with the project.
    const text = await readFile(recipeFile(h), "utf8");
    expect(text).toContain("path: ../songs.csv");
    expect(text).toMatch(/^mode: sync$/m);
    const loaded = await loadRecipePaths([join(h.dir, "recipes")], {
      project: h.project,
      projectFile: h.projectFile,
    });
    expect(loaded.issues).toEqual([]);
    expect(loaded.recipes.map((x) => x.recipe.id)).toEqual(["old-favourites"]);
    const drafted = await readFile(join(h.dir, "recipes", "matches.yaml"), "utf8");
    for (const s of list) expect(drafted).toMatch(new RegExp(`^".*": ${s.videoId} {2}# `, "m"));
    expect((await run(["-p", h.projectFile, "validate"])).code).toBe(0);
    const again = await run(["-p", h.projectFile, "sync", "-r", "old-favourites"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(await playlistsTitled(h, "Old favourites")).toHaveLength(1);
  });

  it("without a terminal or --yes: stops after the plan (exit 2), writes nothing to the service, says how to apply", async () => {
    h = await startHarness();
    const list = originalSongs(h, 3);
    const csv = await songsCsv(h, list);
    const before = await h.writes();
    const r = await run(["-p", h.projectFile, "import", csv, "--to", "Old favourites"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toMatch(/\+ add /);
    expect(r.stdout).toContain("Not applied: no terminal to ask on (--yes applies without asking)");
    expect(r.stdout).toContain("musicsync sync -r old-favourites");
    expect(await h.writes()).toBe(before);
    expect(existsSync(recipeFile(h))).toBe(true);
    // What it says to run applies it.
    expect((await run(["-p", h.projectFile, "sync", "-r", "old-favourites"])).code).toBe(0);
    expect(await rowsOf(h, "Old favourites")).toEqual(list.map((s) => s.videoId));
  });

  it("on a terminal it asks: no leaves the plan unapplied, yes applies exactly it", async () => {
    h = await startHarness();
    const list = originalSongs(h, 3);
    const csv = await songsCsv(h, list);
    const answering = (answer: string) => {
      const stdin = Object.assign(new PassThrough(), { isTTY: true });
      const watch = (text: string) => {
        if (text.includes("Apply this plan to account default? [y/N] "))
          setImmediate(() => stdin.write(answer));
      };
      return { stdin, watch };
    };
    const no = await run(["-p", h.projectFile, "import", csv, "--to", "Old favourites"], answering("n\n"));
    expect(no.code, no.stderr).toBe(2);
    expect(no.stdout).toContain("Not applied: not confirmed.");
    expect(await playlistsTitled(h, "Old favourites")).toEqual([]);
    const yes = await run(["-p", h.projectFile, "import", csv, "--to", "Other favourites"], answering("y\n"));
    expect(yes.code, yes.stderr).toBe(0);
    expect(await rowsOf(h, "Other favourites")).toEqual(list.map((s) => s.videoId));
  });

  it("refuses, writing nothing: an existing recipe, a file outside the project folder, a missing file, a bad --id", async () => {
    h = await startHarness();
    const csv = await songsCsv(h, originalSongs(h, 2));
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeFile(recipeFile(h), "# mine\n");
    const taken = await run(["-p", h.projectFile, "import", csv, "--to", "Old favourites", "--yes"]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/old-favourites\.yaml exists already; nothing written \(.*--id/);
    expect(await readFile(recipeFile(h), "utf8")).toBe("# mine\n");

    const away = await mkdtemp(join(tmpdir(), "import-away-"));
    extra.push(away);
    await writeFile(join(away, "songs.csv"), await readFile(csv, "utf8"));
    const outside = await run(importArgs(h, join(away, "songs.csv"), "Elsewhere", "--yes"));
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/is outside the folder .*file_sources\.allow.*; nothing written/);
    const missing = await run(importArgs(h, join(h.dir, "nope.csv"), "Nope", "--yes"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.csv does not exist/);
    const badId = await run(["-p", h.projectFile, "import", csv, "--to", "X", "--id", "../escape", "--yes"]);
    expect(badId.code).toBe(1);
    expect(badId.stderr).toMatch(/--id "\.\.\/escape": use lowercase letters/);
    expect(existsSync(join(h.dir, "recipes", "elsewhere.yaml"))).toBe(false);
    expect(existsSync(join(h.dir, "recipes", "nope.yaml"))).toBe(false);
    expect(existsSync(join(h.dir, "escape.yaml"))).toBe(false);
    expect(await h.writes()).toBe(0);
  });

  it("a file holding a credential stops the import before any search, and takes its recipe away again", async () => {
    h = await startHarness();
    const lines = Object.entries(h.headers).map(([k, v]) => `${k}: ${v}`);
    await writeFile(join(h.dir, "headers.txt"), `${lines.join("\n")}\n`);
    const r = await run(importArgs(h, join(h.dir, "headers.txt"), "Old favourites"));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/headers\.txt:\d+: holds a credential/);
    expect(r.stderr).toContain("removed again: the import stopped before its plan, nothing was synced.");
    expect(existsSync(recipeFile(h))).toBe(false);
    const stats = (await (await fetch(`${h.emulator.url}/_emulator/stats`)).json()) as {
      requests: Record<string, number>;
    };
    expect(stats.requests.search ?? 0).toBe(0);
  });

  it("refuses --json, and a title the service would not take, before anything is written", async () => {
    h = await startHarness();
    const csv = await songsCsv(h, originalSongs(h, 2));
    const json = await run(["-p", h.projectFile, "--json", "import", csv, "--to", "Old favourites"]);
    expect(json.code).toBe(1);
    expect(json.stderr).toMatch(/does not go with --json/);
    const angled = await run(["-p", h.projectFile, "import", csv, "--to", "<b>Old</b>", "--yes"]);
    expect(angled.stderr).toMatch(/--to "<b>Old<\/b>": the service takes no < or > in a title/);
    const long = await run(["-p", h.projectFile, "import", csv, "--to", "x".repeat(151), "--yes"]);
    expect(long.stderr).toMatch(/longer than 150 characters/);
    const control = await run(["-p", h.projectFile, "import", csv, "--to", "Old\u0007", "--yes"]);
    expect(control.stderr).toMatch(/the title holds a control character \(U\+0007\)/);
    for (const r of [angled, long, control]) expect(r.code).toBe(1);
    expect(existsSync(join(h.dir, "recipes"))).toBe(false);
    expect(await h.writes()).toBe(0);
  });

  it("a recipe id or a playlist another recipe has already: refused, and the new recipe taken away", async () => {
    h = await startHarness();
    const csv = await songsCsv(h, originalSongs(h, 2));
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    const other = (id: string, title: string) => `apiVersion: musicsync/v1
kind: Recipe
id: ${id}
sources: [{ id: s, type: static, videoIds: [dQw4w9WgXcQ] }]
target: { type: playlist, playlist: { title: "${title}" } }
`;
    await writeFile(join(h.dir, "recipes", "a.yaml"), other("old-favourites", "Something else"));
    const sameId = await run(["-p", h.projectFile, "import", csv, "--to", "Old favourites", "--yes"]);
    expect(sameId.code).toBe(1);
    expect(sameId.stderr).toMatch(/duplicate recipe id "old-favourites"/);
    expect(sameId.stderr).toContain("removed again");
    expect(existsSync(recipeFile(h))).toBe(false);
    await writeFile(join(h.dir, "recipes", "a.yaml"), other("mine", "Old favourites"));
    const sameTarget = await run(["-p", h.projectFile, "import", csv, "--to", "Old favourites", "--yes"]);
    expect(sameTarget.code).toBe(1);
    expect(sameTarget.stderr).toMatch(/target is already written by recipe "(mine|old-favourites)"/);
    expect(existsSync(recipeFile(h))).toBe(false);
    expect(await h.writes()).toBe(0);
  });

  it("says so when the library already has a playlist of that title (the import would make another)", async () => {
    h = await startHarness();
    const list = originalSongs(h, 2);
    const csv = await songsCsv(h, list);
    const mine = await h.person.createPlaylist("Old favourites", "by hand");
    const r = await run(["-p", h.projectFile, "import", csv, "--to", "Old favourites"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain(`note: your library already has a playlist of this title (${mine})`);
    expect(r.stdout).toContain(`put \`id: ${mine}\` in the recipe's target.playlist`);
  });

  it("a file whose name YAML would misread (quotes, #, a comma, an accent), in a subfolder, is named exactly", async () => {
    h = await startHarness();
    const list = originalSongs(h, 2);
    await mkdir(join(h.dir, "exports"), { recursive: true });
    const csv = await songsCsv(h, list, join("exports", 'my "old" songs #1, é: {x}.csv'));
    const r = await run(["-p", h.projectFile, "import", csv, "--to", 'Old "favourites" #1', "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    const loaded = await loadRecipePaths([join(h.dir, "recipes")], {
      project: h.project,
      projectFile: h.projectFile,
    });
    expect(loaded.issues).toEqual([]);
    const recipe = loaded.recipes[0]!.recipe;
    expect(recipe.id).toBe("old-favourites-1");
    expect(recipe.sources[0]).toMatchObject({ type: "file", path: csv });
    expect(await rowsOf(h, 'Old "favourites" #1')).toEqual(list.map((s) => s.videoId));
  });
});
