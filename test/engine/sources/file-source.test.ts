/**
 * The `file` source end to end: a playlist file mirrored into a playlist on the emulator, whose catalogue
 * holds versions, covers and karaoke takes of the songs (the answers come from the emulator's own
 * database, never from the matcher). Also: the cache, matches.yaml, the guards, `match`, `export`.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../cli/musicsync/main.js";
import { loadRecipePaths } from "../../../engine/recipe/load.js";
import type { LoadedRecipe } from "../../../engine/recipe/types.js";
import { parsePlansJson, renderPlansJson } from "../../../engine/render/json.js";
import { renderPlansMarkdown } from "../../../engine/render/markdown.js";
import { renderPlanText } from "../../../engine/render/text.js";
import { planRecipe, syncRecipe } from "../../../engine/run/runner.js";
import { screen } from "../../support/cli-process.js";
import {
  type CatalogueSong,
  catalogueSongs,
  converge,
  type Harness,
  originalSongs,
  playlistRows,
  playlistsTitled,
  startHarness,
} from "../../support/sync-harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

const csvField = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** An Exportify-shaped export, as another service writes it (durations in ms, a second off). */
function exportify(rows: readonly CatalogueSong[], extra: string[] = []): string {
  const head = "Track URI,Track Name,Artist Name(s),Album Name,Duration (ms),ISRC";
  const lines = rows.map((r, i) =>
    [`spotify:track:x${i}`, r.title, r.artist, r.album, String((r.duration + (i % 3)) * 1000), ""]
      .map(csvField)
      .join(","),
  );
  return [head, ...lines, ...extra].join("\n") + "\n";
}

const recipeText = (file: string, extra = "") => `apiVersion: musicsync/v1
kind: Recipe
id: imported
sources:
  - { id: mine, type: file, path: ${file}${extra} }
target:
  type: playlist
  playlist: { title: "Imported", privacy: PRIVATE }
mode: mirror
policy: { min_source_items: 1 }
`;

async function project(hh: Harness, csv: string, extra = ""): Promise<LoadedRecipe> {
  const dir = join(hh.dir, "recipes");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "list.csv"), csv);
  await writeFile(join(dir, "imported.yaml"), recipeText("list.csv", extra));
  const { recipes, issues } = await loadRecipePaths([join(dir, "imported.yaml")], { project: hh.project });
  if (issues.length > 0) throw new Error(issues.map((i) => i.message).join("\n"));
  return recipes[0]!;
}

/** Requests the emulator has answered so far, by endpoint (faulted attempts and reads included). */
async function requestCounts(hh: Harness): Promise<Record<string, number>> {
  const stats = (await (await fetch(`${hh.emulator.url}/_emulator/stats`)).json()) as {
    requests: Record<string, number>;
  };
  return stats.requests;
}

const searches = async (hh: Harness) => (await requestCounts(hh)).search ?? 0;
const allRequests = async (hh: Harness) => Object.values(await requestCounts(hh)).reduce((n, c) => n + c, 0);

async function importedRows(hh: Harness): Promise<string[]> {
  const [id] = await playlistsTitled(hh, "Imported");
  return id ? (await playlistRows(hh, id)).map((r) => r.videoId) : [];
}

describe("file source", () => {
  it("mirrors an Exportify CSV in file order, every match right; a re-run sends no search", async () => {
    h = await startHarness();
    const songs = originalSongs(h, 12, "hard-first");
    expect(songs.length).toBe(12);
    const loaded = await project(h, exportify(songs));
    const env = h.env();
    await converge(h, env, loaded);
    expect(await importedRows(h)).toEqual(songs.map((s) => s.videoId));
    const before = await searches(h);
    const again = await planRecipe(loaded, env);
    expect(again.plan.actions).toEqual([]);
    expect(await searches(h)).toBe(before);
  });

  it("lists what it could not match, with the best candidate and why, and adds none of it", async () => {
    h = await startHarness();
    const songs = originalSongs(h, 3, "hard-first");
    const [first] = songs;
    // The same song a minute and a half longer: only its duration says it is not this recording.
    const far = `x,${first!.title},${first!.artist},,${(first!.duration + 95) * 1000},`;
    const absent = "y,Nothing Like This Title,Nobody Known,,200000,";
    const loaded = await project(h, exportify(songs.slice(1), [far, absent]));
    const { plan } = await planRecipe(loaded, h.env());
    const notes = (plan.notes ?? []).filter((n) => n.kind === "unmatched").map((n) => n.text);
    expect(notes).toContainEqual(expect.stringContaining('"Nobody Known - Nothing Like This Title"'));
    const farNote = notes.find((t) => t.startsWith(`"${first!.artist} - ${first!.title}"`));
    expect(farNote).toMatch(/best: .* score \d\.\d\d: .*duration differs by 9\d s/);
    const added = plan.lines.filter((l) => l.op === "add").map((l) => l.videoId);
    expect(added).toEqual(songs.slice(1).map((s) => s.videoId));
    // The two entries left out are skipped items: the summary says so (it once said 0 skipped).
    expect(plan.summary).toMatchObject({ add: songs.length - 1, skip: 2 });
    expect(renderPlanText(plan)).toMatch(/; 2 skipped, 0 unchanged;/);
    // What a person reads: the text and Markdown plans, and the saved plan `apply` takes back.
    expect(renderPlanText(plan)).toContain('  ! unmatched "Nobody Known - Nothing Like This Title" (');
    expect(renderPlansMarkdown([plan])).toContain('> **unmatched**: "Nobody Known');
    expect(parsePlansJson(renderPlansJson([plan])).plans[0]!.notes).toEqual(plan.notes);
  });

  it("matches.yaml wins over search: a video id replaces the match, skip leaves the entry out", async () => {
    h = await startHarness();
    const songs = originalSongs(h, 4, "hard-first");
    const loaded = await project(h, exportify(songs));
    const env = h.env();
    await syncRecipe(loaded, env);
    const key = (s: CatalogueSong) => `${s.artist} - ${s.title}`.toLowerCase();
    // The keys as `match` prints them: read them from its JSON rather than assume the format.
    const out = screen(false);
    const code = await main(["-p", h.projectFile, "--json", "match", join(h.dir, "recipes", "list.csv")], {
      stdout: out.stream,
      stderr: screen(false).stream,
      env: {},
    });
    expect(code).toBe(0);
    const listed = JSON.parse(out.text()) as { entry: { key: string; title: string }; by: string }[];
    expect(listed.map((e) => e.by)).toEqual(["cache", "cache", "cache", "cache"]);
    const keys = listed.map((e) => e.entry.key);
    expect(keys[0]).toContain(key(songs[0]!).split(" - ")[1]!.split(" ")[0]!);
    await writeFile(
      join(h.dir, "recipes", "matches.yaml"),
      `${JSON.stringify(keys[0])}: ${songs[3]!.videoId}\n${JSON.stringify(keys[1])}: skip\n`,
    );
    const { plan } = await planRecipe(loaded, env);
    const removed = plan.lines.filter((l) => l.op === "remove").map((l) => l.videoId);
    expect(removed.sort()).toEqual([songs[0]!.videoId, songs[1]!.videoId].sort());
    expect(plan.notes ?? []).toEqual([]);
  });

  it("match --write-overrides drafts matches.yaml: pins the matches, keeps what the person wrote", async () => {
    h = await startHarness();
    const songs = originalSongs(h, 3, "hard-first");
    await project(h, exportify(songs, ["y,Nothing Like This Title,Nobody Known,,200000,"]));
    const file = join(h.dir, "recipes", "matches.yaml");
    await writeFile(file, "# mine\n");
    const run = () =>
      main(["-p", h!.projectFile, "match", join(h!.dir, "recipes", "list.csv"), "--write-overrides"], {
        stdout: screen(false).stream,
        stderr: screen(false).stream,
        env: {},
      });
    expect(await run()).toBe(0);
    const drafted = await readFile(file, "utf8");
    expect(drafted.startsWith("# mine\n")).toBe(true);
    for (const s of songs) expect(drafted).toMatch(new RegExp(`^".*": ${s.videoId}  # `, "m"));
    expect(drafted).toMatch(/^# "nobody known - nothing like this title": /m);
    // The draft is valid overrides: a run reads it, and a second draft adds nothing.
    const { recipes } = await loadRecipePaths([join(h.dir, "recipes", "imported.yaml")], {
      project: h.project,
    });
    const { plan } = await planRecipe(recipes[0]!, h.env());
    expect(plan.lines.filter((l) => l.op === "add").map((l) => l.videoId)).toEqual(
      songs.map((s) => s.videoId),
    );
    expect(await run()).toBe(0);
    expect(await readFile(file, "utf8")).toBe(drafted);
  });

  it("an emptied or shrunken file never empties the target", async () => {
    h = await startHarness();
    const songs = originalSongs(h, 10, "hard-first");
    const loaded = await project(h, exportify(songs));
    const env = h.env();
    await converge(h, env, loaded);
    for (const text of [exportify([]), exportify(songs.slice(0, 2)), ""]) {
      const shrunk = await project(h, text);
      const run = await syncRecipe(shrunk, env);
      expect(run.plan?.guards.map((g) => g.guard).length, text.slice(0, 80)).toBeGreaterThan(0);
      expect(await importedRows(h)).toEqual(songs.map((s) => s.videoId));
    }
  });

  it("a row that cannot be read is a note with file:line; strict refuses the whole file", async () => {
    h = await startHarness();
    const songs = originalSongs(h, 3, "hard-first");
    // A row with an artist and no title: there is nothing to search for.
    const broken = `z,,${songs[0]!.artist},,200000,`;
    const csv = exportify(songs.slice(1), [broken]);
    const loaded = await project(h, csv);
    const { plan } = await planRecipe(loaded, h.env());
    const unreadable = (plan.notes ?? []).filter((n) => n.kind === "unreadable");
    expect(unreadable.map((n) => n.text)).toEqual([expect.stringMatching(/list\.csv:4: /)]);
    const strict = await project(h, csv, ", strict: true");
    // A source that cannot be read refuses the run before any write (recorded as a failed run).
    await expect(syncRecipe(strict, h.env())).rejects.toThrow(/list\.csv:4: no title/);
    expect(await playlistsTitled(h, "Imported")).toEqual([]);
  });
});

describe("hostile files through a run", () => {
  it("binary data, a 10,000-column row, a broken matches.yaml: clear errors or notes, nothing written", async () => {
    h = await startHarness();
    const songs = originalSongs(h, 3, "hard-first");
    const env = h.env();
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256));
    const dir = join(h.dir, "recipes");
    await project(h, exportify(songs));
    await writeFile(join(dir, "list.csv"), binary);
    const { recipes } = await loadRecipePaths([join(dir, "imported.yaml")], { project: h.project });
    await expect(syncRecipe(recipes[0]!, env)).rejects.toThrow(/list\.csv.*binary/);
    const wide = `w,${Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(",")}`;
    const loaded = await project(h, exportify(songs, [wide]));
    const { plan } = await planRecipe(loaded, env);
    expect(plan.lines.filter((l) => l.op === "add").map((l) => l.videoId)).toEqual(
      songs.map((s) => s.videoId),
    );
    await writeFile(join(dir, "matches.yaml"), '"a - b": not-a-video-id\n');
    await expect(syncRecipe(loaded, env)).rejects.toThrow(/matches\.yaml:1:\d+: .*video id or skip/);
    expect(await playlistsTitled(h, "Imported")).toEqual([]);
  });

  it("a file that cannot be read fails the run before any request, naming the file (soak seed 1279)", async () => {
    h = await startHarness();
    const loaded = await project(h, exportify(originalSongs(h, 2, "hard-first")));
    const list = join(h.dir, "recipes", "list.csv");
    const before = await allRequests(h);
    for (const [hostile, says] of [
      [Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256)), /list\.csv.*binary/],
      [null, /list\.csv does not exist/],
    ] as const) {
      await rm(list, { force: true });
      if (hostile) await writeFile(list, hostile);
      await expect(planRecipe(loaded, h.env())).rejects.toThrow(says);
      await expect(syncRecipe(loaded, h.env())).rejects.toThrow(says);
    }
    // Not the target's read either: a fault there would otherwise hide the file's (the soak's seed).
    expect(await allRequests(h)).toBe(before);
  });

  it("a copy of the credentials read as a playlist: refused before any search, by a run and by match", async () => {
    h = await startHarness();
    const dir = join(h.dir, "recipes");
    await mkdir(dir, { recursive: true });
    // Not the project's own auth file (the loader refuses that by name): a copy, as header text.
    const lines = Object.entries(h.headers).map(([k, v]) => `${k}: ${v}`);
    await writeFile(join(dir, "headers.txt"), `${lines.join("\n")}\n`);
    await writeFile(join(dir, "imported.yaml"), recipeText("headers.txt, format: text"));
    const { recipes, issues } = await loadRecipePaths([join(dir, "imported.yaml")], { project: h.project });
    expect(issues).toEqual([]);
    const before = await searches(h);
    await expect(syncRecipe(recipes[0]!, h.env())).rejects.toThrow(/headers\.txt:\d+: holds a credential/);
    const err = screen(false);
    const code = await main(["-p", h.projectFile, "match", join(dir, "headers.txt")], {
      stdout: screen(false).stream,
      stderr: err.stream,
      env: {},
    });
    expect(code).toBe(1);
    expect(err.text()).toMatch(/headers\.txt:\d+: holds a credential/);
    expect(await searches(h)).toBe(before);
    expect(await playlistsTitled(h, "Imported")).toEqual([]);
  });

  it("a 100,000-line M3U of links reads whole and plans without a search", async () => {
    h = await startHarness();
    const ids = catalogueSongs(h, 200);
    const lines = ["#EXTM3U"];
    for (let i = 0; i < 50_000; i++) {
      lines.push(
        `#EXTINF:200,Someone - Song ${i}`,
        `https://music.youtube.com/watch?v=${ids[i % ids.length]}`,
      );
    }
    const dir = join(h.dir, "recipes");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "big.m3u"), `${lines.join("\n")}\n`);
    await writeFile(join(dir, "imported.yaml"), recipeText("big.m3u"));
    const { recipes } = await loadRecipePaths([join(dir, "imported.yaml")], { project: h.project });
    const before = await searches(h);
    const { plan } = await planRecipe(recipes[0]!, h.env());
    expect(await searches(h)).toBe(before);
    // 50,000 entries of 200 songs: a playlist holds each song once here, so the plan adds the 200.
    expect(plan.sources?.[0]?.items).toBe(50_000);
    const adds = plan.lines.filter((l) => l.op === "add").map((l) => l.videoId);
    expect(new Set(adds)).toEqual(new Set(ids));
  });
});

describe("export", () => {
  it("export a playlist, mirror the file into a new playlist: the two are equal (every format)", async () => {
    h = await startHarness();
    const songs = originalSongs(h, 15, "hard-first");
    const loaded = await project(h, exportify(songs));
    await converge(h, h.env(), loaded);
    const [source] = await playlistsTitled(h, "Imported");
    const want = (await playlistRows(h, source!)).map((r) => r.videoId);
    // text keeps no video id ("Artist - Title" only): its copy goes through search and matching.
    for (const format of ["csv", "m3u", "json", "xspf", "text"]) {
      const file = join(h.dir, "recipes", `backup.${format === "text" ? "txt" : format}`);
      const err = screen(false);
      const code = await main(["-p", h.projectFile, "export", source!, "-o", file], {
        stdout: screen(false).stream,
        stderr: err.stream,
        env: {},
      });
      expect(code, err.text()).toBe(0);
      expect(err.text()).toContain(`${want.length} rows written`);
      const copy = `apiVersion: musicsync/v1
kind: Recipe
id: copy-${format}
sources:
  - { id: backup, type: file, path: backup.${format === "text" ? "txt" : format} }
target:
  type: playlist
  playlist: { title: "Copy ${format}", privacy: PRIVATE }
mode: mirror
`;
      const recipeFile = join(h.dir, "recipes", `copy-${format}.yaml`);
      await writeFile(recipeFile, copy);
      const { recipes } = await loadRecipePaths([recipeFile], { project: h.project });
      await converge(h, h.env(), recipes[0]!);
      const [made] = await playlistsTitled(h, `Copy ${format}`);
      expect(
        (await playlistRows(h, made!)).map((r) => r.videoId),
        format,
      ).toEqual(want);
      expect((await readFile(file, "utf8")).length).toBeGreaterThan(0);
    }
  });

  it("a bad --format fails before any request, naming the option; match prints each choice and a summary", async () => {
    h = await startHarness();
    const songs = originalSongs(h, 3, "hard-first");
    await project(h, exportify(songs, ["y,Nothing Like This Title,Nobody Known,,200000,"]));
    const stats = async () =>
      JSON.stringify(await (await fetch(`${h!.emulator.url}/_emulator/stats`)).json());
    const before = await stats();
    const err = screen(false);
    const code = await main(["-p", h.projectFile, "export", "liked", "--format", "mp3"], {
      stdout: screen(false).stream,
      stderr: err.stream,
      env: {},
    });
    expect(code).toBe(1);
    expect(err.text()).toMatch(/--format/);
    expect(await stats()).toBe(before);
    const out = screen(false);
    const matched = await main(["-p", h.projectFile, "match", join(h.dir, "recipes", "list.csv")], {
      stdout: out.stream,
      stderr: screen(false).stream,
      env: {},
    });
    expect(matched).toBe(0);
    for (const s of songs) expect(out.text()).toContain(`-> ${s.videoId}`);
    expect(out.text()).toMatch(/Nobody Known - Nothing Like This Title\n\s+unmatched/);
    expect(out.text()).toMatch(/Matched 3 of 4 .*; 1 unmatched; \d+ searches\.\n$/);
  });
});
