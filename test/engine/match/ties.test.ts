/**
 * A tie in matching (two recordings equally good, so none is taken) is shown with every
 * recording that tied, drafted in matches.yaml as a choice to uncomment, and chosen by a person at
 * a terminal with `match --interactive`. Against the emulator, whose catalogue is given a second
 * recording of a song (same title and artist, another length): an entry that gives no length
 * cannot tell the two apart.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../cli/musicsync/main.js";
import { loadOverrides, parseOverrides } from "../../../engine/files/overrides.js";
import { loadRecipePaths } from "../../../engine/recipe/load.js";
import { planRecipe } from "../../../engine/run/runner.js";
import { ensureBuilt, MAIN, screen } from "../../support/cli-process.js";
import { musicsyncInProc } from "../../support/musicsync-inproc.js";
import { type CatalogueSong, type Harness, originalSongs, startHarness } from "../../support/sync-harness.js";
import { HAS_SCRIPT, runOnTerminal } from "../../support/terminal.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

/**
 * A second recording of `song` in the catalogue (a single edit: same title and artist, 40 s
 * longer), searchable as songs are; its video id is returned.
 */
function addSecondRecording(hh: Harness, song: CatalogueSong, videoId: string): string {
  const db = hh.emulator.state.store.sqlite;
  const id = (db.prepare("SELECT max(id) + 1 AS id FROM songs").get() as { id: number }).id;
  const columns = (db.prepare("PRAGMA table_info(songs)").all() as { name: string }[])
    .map((c) => c.name)
    .filter((c) => !["id", "video_id", "duration_seconds"].includes(c));
  db.prepare(
    `INSERT INTO songs (id, video_id, duration_seconds, ${columns.join(", ")})
     SELECT ?, ?, duration_seconds + 40, ${columns.join(", ")} FROM songs WHERE id = ?`,
  ).run(id, videoId, song.id);
  const rank = db
    .prepare("SELECT max(rowid) + 1 AS r FROM songs_by_views WHERE rowid < 1000000000")
    .get() as {
    r: number;
  };
  db.prepare(
    "INSERT INTO songs_by_views (rowid, search_text, song_id) SELECT ?, search_text, id FROM songs WHERE id = ?",
  ).run(rank.r, id);
  return videoId;
}

const RECIPE = `apiVersion: musicsync/v1
kind: Recipe
id: imported
sources:
  - { id: mine, type: file, path: list.csv }
target:
  type: playlist
  playlist: { title: "Imported", privacy: PRIVATE }
mode: mirror
`;

/** A CSV of title and artist only (no length), the tied song first; the recipe beside it. */
async function tiedProject(hh: Harness) {
  const songs = originalSongs(hh, 3, "unambiguous");
  expect(songs.length).toBe(3);
  const [tied, ...others] = songs as [CatalogueSong, CatalogueSong, CatalogueSong];
  const single = addSecondRecording(hh, tied, "SingleEdit1");
  const dir = join(hh.dir, "recipes");
  await mkdir(dir, { recursive: true });
  const rows = songs.map((s) => `"${s.title}","${s.artist}"`);
  await writeFile(join(dir, "list.csv"), `Title,Artist\n${rows.join("\n")}\n`);
  await writeFile(join(dir, "imported.yaml"), RECIPE);
  return { tied, single, others, csv: join(dir, "list.csv"), overrides: join(dir, "matches.yaml") };
}

async function runMatch(hh: Harness, args: string[]) {
  const out = screen(false);
  const err = screen(false);
  const code = await main(["-p", hh.projectFile, "match", ...args], {
    stdout: out.stream,
    stderr: err.stream,
    env: {},
  });
  return { code, stdout: out.text(), stderr: err.text() };
}

async function plannedAdds(hh: Harness): Promise<string[]> {
  const { recipes, issues } = await loadRecipePaths([join(hh.dir, "recipes", "imported.yaml")], {
    project: hh.project,
    projectFile: hh.projectFile,
  });
  expect(issues).toEqual([]);
  const { plan } = await planRecipe(recipes[0]!, hh.env());
  return plan.lines.filter((l) => l.op === "add").map((l) => l.videoId ?? "");
}

describe("a tie in matching", () => {
  it("match shows every recording that tied; --write-overrides drafts them as a choice that loads", async () => {
    h = await startHarness();
    const p = await tiedProject(h);
    const listed = await runMatch(h, [p.csv]);
    expect(listed.code, listed.stderr).toBe(0);
    const block = listed.stdout.split(/\n(?=\s+\d+ {2})/).find((b) => b.includes(`- ${p.tied.title}`))!;
    expect(block).toMatch(/unmatched 1\.00: two candidates equally good, choose one:/);
    expect(block).toMatch(new RegExp(`1\\) ${p.tied.videoId} 1\\.00 ".*" by .*: title equal`));
    expect(block).toMatch(/2\) SingleEdit1 1\.00 ".*" by .*, \d+:\d\d.*: title equal/);
    expect(listed.stdout).toMatch(/1 tie to choose: `musicsync match .*list\.csv --interactive`/);

    expect((await runMatch(h, [p.csv, "--write-overrides"])).code).toBe(0);
    const drafted = await readFile(p.overrides, "utf8");
    const key = [...drafted.matchAll(/^# ("[^"]+"): SingleEdit1 {2}# /gm)][0]?.[1];
    expect(key).toBeDefined();
    expect(drafted).toContain(`# ${key}: ${p.tied.videoId}  # 1.00 "`);
    expect(drafted).toMatch(/^# tie for .*: two candidates equally good; uncomment the one it is/m);
    // Loadable as drafted: the tie is no override yet, and the other songs are pinned.
    const overrides = await loadOverrides(p.overrides);
    expect(overrides.has(JSON.parse(key!))).toBe(false);
    expect([...overrides.values()].sort()).toEqual(p.others.map((s) => s.videoId).sort());
    expect(await plannedAdds(h)).toEqual(p.others.map((s) => s.videoId));

    // The person uncomments the single's line: the plan adds it, in file order.
    await writeFile(p.overrides, drafted.replace(`# ${key}: SingleEdit1`, `${key}: SingleEdit1`));
    expect(await plannedAdds(h)).toEqual([p.single, ...p.others.map((s) => s.videoId)]);
  });

  it("a tie remembered by the cache (after a plan) is still shown with its candidates", async () => {
    h = await startHarness();
    const p = await tiedProject(h);
    // A plan caches the miss (no candidates kept); match searches that entry again to show them.
    await plannedAdds(h);
    const listed = await runMatch(h, [p.csv]);
    expect(listed.stdout).toMatch(/two candidates equally good, choose one:/);
    expect(listed.stdout).toContain("2) SingleEdit1 ");
    expect(listed.stdout).toMatch(/Matched 2 of 3 \(2 from the cache, .*; 1 unmatched; 2 searches\./);
  });
});

describe("a tie in an import", () => {
  it("import says how to choose it, and drafts it as a choice", async () => {
    h = await startHarness();
    const p = await tiedProject(h);
    const r = await musicsyncInProc(["-p", h.projectFile, "import", p.csv, "--to", "Tied"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toMatch(/1 tie to choose: `musicsync match .*list\.csv --interactive` on a terminal/);
    expect(r.stdout).toMatch(/! unmatched ".*" \(two candidates equally good: .*SingleEdit1/);
    expect(await readFile(p.overrides, "utf8")).toMatch(/^# tie for .*: two candidates equally good;/m);
  });
});

/** A terminal the test types into: each answer once the question is on the screen. */
function typist(answers: string[]) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  let shown = 0;
  const watch = (text: string) => {
    for (const _ of text.matchAll(/choice> /g)) {
      const next = answers[shown++];
      if (next === undefined) setImmediate(() => stdin.end());
      else setImmediate(() => stdin.write(`${next}\n`));
    }
  };
  return { stdin, watch };
}

describe("match --interactive", () => {
  it("asks for the tie, writes the choice to matches.yaml and keeps what the file said", async () => {
    h = await startHarness();
    const p = await tiedProject(h);
    await writeFile(p.overrides, '# mine\n"someone - something": skip\n');
    // A wrong answer is asked again; 2 is the single.
    const { stdin, watch } = typist(["7", "2"]);
    const r = await musicsyncInProc(["-p", h.projectFile, "match", p.csv, "--interactive"], { stdin, watch });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\[1\/1\] .* - .*\n\s+two candidates equally good\n/);
    expect(r.stdout).toContain("Type a number from 1 to 2, s, q, or press Enter.");
    expect(r.stdout).toMatch(/1 choice written, 0 left for later/);
    const text = await readFile(p.overrides, "utf8");
    expect(text.startsWith('# mine\n"someone - something": skip\n')).toBe(true);
    const read = parseOverrides("matches.yaml", text);
    expect([...read.values()].sort()).toEqual(["SingleEdit1", "skip"]);
    expect(await plannedAdds(h)).toEqual([p.single, ...p.others.map((s) => s.videoId)]);
  });

  it("quitting keeps the choices made so far; the end of input is a quit", async () => {
    h = await startHarness();
    const p = await tiedProject(h);
    // The unsure ones are asked too: here a title without its artist, which names no recording.
    await writeFile(p.csv, `${await readFile(p.csv, "utf8")}"${p.others[0]!.title}",\n`);
    const { stdin, watch } = typist(["s"]);
    const r = await musicsyncInProc(["-p", h.projectFile, "match", p.csv, "-i"], { stdin, watch });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\[2\/2\] .*\n\s+unsure: best 0\.\d\d, only the title to compare/);
    expect(r.stdout).toMatch(/1 choice written, 1 left for later/);
    const read = parseOverrides("matches.yaml", await readFile(p.overrides, "utf8"));
    expect([...read.values()]).toEqual(["skip"]);
    expect(await plannedAdds(h)).toEqual(p.others.map((s) => s.videoId));
  });

  it.skipIf(!HAS_SCRIPT)(
    "on a real terminal (a pseudo-terminal): the built command asks; Ctrl-C quits, keeping the choice made",
    async () => {
      h = await startHarness();
      const p = await tiedProject(h);
      await writeFile(p.csv, `${await readFile(p.csv, "utf8")}"${p.others[0]!.title}",\n`);
      await ensureBuilt();
      // 2 and Enter for the tie, then Ctrl-C at the second question, as a person types them.
      const keys = ["2\r", "\u0003"];
      let asked = 0;
      const run = await runOnTerminal(
        [process.execPath, MAIN, "-p", h.projectFile, "match", p.csv, "--interactive"],
        (shown) => {
          const questions = shown.split("choice> ").length - 1;
          if (questions <= asked) return null;
          asked = questions;
          return keys[questions - 1] ?? null;
        },
        { env: { NO_COLOR: "1" } },
      );
      expect(run.code, run.output).toBe(0);
      expect(run.output).toMatch(/\[1\/2\] .*\r\n\s+two candidates equally good/);
      expect(run.output).toMatch(/1 choice written, 1 left for later/);
      const read = parseOverrides("matches.yaml", await readFile(p.overrides, "utf8"));
      expect([...read.values()]).toEqual([p.single]);
    },
  );

  it.skipIf(!HAS_SCRIPT)(
    "on a real terminal, Ctrl-C while the entries are searched stops the command (no question asked)",
    async () => {
      h = await startHarness();
      const p = await tiedProject(h);
      // Every search takes 3 s: the progress bar is up when the key is pressed.
      await h.faults({ queue: [{ kind: "slow", endpoint: "search", delayMs: 3000, count: 100 }] });
      await ensureBuilt();
      let pressed = false;
      const run = await runOnTerminal(
        [process.execPath, MAIN, "-p", h.projectFile, "match", p.csv, "--interactive"],
        (shown) => {
          if (pressed || !shown.includes("matching [")) return null;
          pressed = true;
          return "\u0003";
        },
        { env: { NO_COLOR: "1" }, timeoutMs: 20_000 },
      );
      expect(pressed).toBe(true);
      // Ended by the signal, not killed by the time-out (which leaves no exit code).
      expect(run.code, run.output).not.toBeNull();
      expect(run.code).not.toBe(0);
      expect(run.output).not.toContain("choice>");
      expect(existsSync(p.overrides)).toBe(false);
    },
  );

  it("refuses when stdin is not a terminal, before any search, and with --json", async () => {
    h = await startHarness();
    const p = await tiedProject(h);
    const piped = await musicsyncInProc(["-p", h.projectFile, "match", p.csv, "--interactive"]);
    expect(piped.code).toBe(1);
    expect(piped.stderr).toMatch(/--interactive asks on a terminal, and standard input is not one/);
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const json = await musicsyncInProc(["-p", h.projectFile, "--json", "match", p.csv, "-i"], { stdin });
    expect(json.code).toBe(1);
    expect(json.stderr).toMatch(/does not go with --json/);
    const stats = (await (await fetch(`${h.emulator.url}/_emulator/stats`)).json()) as {
      requests: Record<string, number>;
    };
    expect(stats.requests.search ?? 0).toBe(0);
  });
});
