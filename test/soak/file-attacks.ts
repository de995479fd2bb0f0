/**
 * A `file` source's file swapped for something hostile before one run: a symlink to
 * /dev/zero, a named pipe nobody writes, a symlink to one, a sparse file over the size limit, a
 * folder, a symlink to itself, or the recipe pointed at a file outside the project folder. What
 * must hold:
 * - every reader ends in bounded time (20 s on an idle machine, more on a busy one; else "hung") and, as a process, in bounded memory;
 * - the recipe is refused with a message naming the file, sends no write and no search (a file
 *   outside the project is not read at all), and the seed's other recipes run as ever;
 * - `validate` names the file.
 * A reader stuck opening a pipe is let go after the limit by opening the pipe's other end, so one
 * hang costs the soak the limit, never the rest of the seed. /dev/zero is read only by a real process
 * (its memory is watched and capped): in this process an endless read would take the machine's
 * memory before anything could stop it.
 */

import { spawnSync } from "node:child_process";
import { constants } from "node:fs";
import { mkdir, mkdtemp, open, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { main } from "../../cli/musicsync/main.js";
import { stretched } from "../support/load.js";
import type { Harness } from "../support/sync-harness.js";
import { captureLog } from "./capture.js";
import type { RecipeSpec } from "./generate.js";
import type { Found } from "./invariants.js";
import { runKilled } from "./kill.js";
import { sourceFilePath } from "./source-files.js";
import type { FileAttackKind } from "./surfaces.js";

/** How long any reader of an attacked file may take, on an idle machine, before it counts as hung. */
const HUNG_BASE_MS = 20_000;

/** The hang limit now: 20 s, stretched on a loaded machine (./load.ts). */
export const hungMs = (): number => stretched(HUNG_BASE_MS);
/** A `musicsync` process reading a file past this much resident memory is stopped (and reported). */
export const MAX_RSS = 512 * 1024 * 1024;
/** Bigger than the 20 MiB a playlist file may be; sparse, so it costs no disk. */
const SPARSE_BYTES = 48 * 1024 * 1024;

export interface PlacedAttack {
  kind: FileAttackKind;
  recipeId: string;
  /** The ways a message may name the file: its path, the path the recipe gives, its name, a link's target. */
  names: string[];
  /** Lets go of any reader stuck opening a pipe (opens its other end and closes it at once). */
  release(): Promise<void>;
  /** Puts the recipe's own file (and path) back. */
  restore(): Promise<void>;
}

export interface FileAttackContext {
  h: Harness;
  spec: RecipeSpec;
  recipesDir: string;
  /** Writes the recipes again (and the files they read) and reloads them. */
  rewrite(): Promise<void>;
}

/** Opens each pipe's writing end without waiting: a reader blocked opening it then reads its end. */
export async function releasePipes(pipes: readonly string[]): Promise<void> {
  for (const pipe of pipes) {
    try {
      const fh = await open(pipe, constants.O_WRONLY | constants.O_NONBLOCK);
      await fh.close();
    } catch {
      // ENXIO: nobody is reading it; ENOENT: already gone.
    }
  }
}

function mkfifo(path: string): void {
  const r = spawnSync("mkfifo", [path]);
  if (r.status !== 0) throw new Error(`mkfifo ${path}: ${r.stderr.toString().trim()}`);
}

/** Songs of the catalogue by title and artist: a file of them needs a search per line to be read. */
function searchableLines(h: Harness): string[] {
  const rows = h.emulator.state.store.sqlite
    .prepare(
      "SELECT s.title AS title, a.name AS artist FROM songs s JOIN artists a ON a.id = s.artist_id WHERE s.available = 1 ORDER BY s.id LIMIT 5",
    )
    .all() as { title: string; artist: string }[];
  return rows.map((r) => `"${r.title.replace(/"/g, '""')}","${r.artist.replace(/"/g, '""')}"`);
}

/** A file outside the project folder, and the recipe pointed at it (`../../…`, as a person might). */
async function outside(ctx: FileAttackContext): Promise<PlacedAttack> {
  const { spec } = ctx;
  const dir = await mkdtemp(join(tmpdir(), "soak-outside-"));
  const file = join(dir, `${spec.id}-outside.csv`);
  await writeFile(file, ["Title,Artist", ...searchableLines(ctx.h), ""].join("\n"));
  const own = spec.file!;
  const fromRecipe = relative(ctx.recipesDir, file);
  spec.file = { path: fromRecipe, format: "csv" };
  await ctx.rewrite();
  return {
    kind: "outside",
    recipeId: spec.id,
    names: [file, fromRecipe, basename(file)],
    release: async () => {},
    restore: async () => {
      spec.file = own;
      await ctx.rewrite();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Swaps the recipe's file for the attack's kind of thing; `restore` puts it back. */
export async function placeAttack(ctx: FileAttackContext, kind: FileAttackKind): Promise<PlacedAttack> {
  if (kind === "outside") return outside(ctx);
  const { spec, h } = ctx;
  const path = join(h.dir, sourceFilePath(spec.id, spec.file!.format).file);
  const aside = join(h.dir, "attack");
  const pipe = join(aside, `${spec.id}.fifo`);
  await rm(path, { recursive: true, force: true });
  await mkdir(aside, { recursive: true });
  const names = [path, spec.file!.path, basename(path)];
  const pipes: string[] = [];
  switch (kind) {
    case "fifo":
      mkfifo(path);
      pipes.push(path);
      break;
    case "fifo-link":
      mkfifo(pipe);
      await symlink(pipe, path);
      pipes.push(pipe);
      names.push(pipe);
      break;
    case "dev-zero":
      await symlink("/dev/zero", path);
      names.push("/dev/zero");
      break;
    case "sparse": {
      const fh = await open(path, "w");
      await fh.truncate(SPARSE_BYTES);
      await fh.close();
      break;
    }
    case "directory":
      await mkdir(path);
      await writeFile(join(path, "inside.csv"), "Title,Artist\n");
      break;
    case "loop":
      await symlink(basename(path), path);
      break;
  }
  return {
    kind,
    recipeId: spec.id,
    names,
    release: () => releasePipes(pipes),
    restore: async () => {
      await releasePipes(pipes);
      await rm(path, { recursive: true, force: true });
      await rm(aside, { recursive: true, force: true });
      await ctx.rewrite();
    },
  };
}

export const namesFile = (a: PlacedAttack, text: string) => a.names.some((n) => text.includes(n));

/**
 * `work` given `hungMs()`; past it the pipes are let go (so the work ends, on an empty read) and it
 * gets 10 s more. `hung` says whether it outlived the limit; a work that never ends is left behind.
 */
export async function withinLimit<T>(
  work: Promise<T>,
  release: () => Promise<void>,
  limitMs = hungMs(),
): Promise<{ value?: T; error?: unknown; hung: boolean; settled: boolean }> {
  const settled = work.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), limitMs);
  });
  const first = await Promise.race([settled, late]);
  clearTimeout(timer);
  if (first) return { ...first, hung: false, settled: true };
  for (let i = 0; i < 20; i++) {
    await release();
    const again = await Promise.race([settled, new Promise<null>((r) => setTimeout(() => r(null), 500))]);
    if (again) return { ...again, hung: true, settled: true };
  }
  return { hung: true, settled: false };
}

const bad = (detail: string): Found => ({ invariant: "hostile-file-refused", detail });
/**
 * A run's faults can end it before it reaches its file: the target is read first, and a fault
 * there fails the run with the service's error (seed 196). Nothing was read, searched or written,
 * so the file was not taken; the error need not name it then.
 */
const SERVICE_FAULT =
  /the service answered HTTP \d+|ECONNRESET|socket hang up|connection (?:was )?(?:reset|closed|refused)/i;
const slow = (detail: string): Found => ({ invariant: "hostile-file-bounded", detail });

/** What any reader of the attacked file must have done: ended in time, refused it naming it, sent nothing. */
export function judgeRead(
  a: PlacedAttack,
  who: string,
  r: { hung: boolean; outcome: string; error: string; writes: number; searches: number },
): Found[] {
  const what = `${who} with the file a ${a.kind}`;
  // A hung read let go ends on an empty file: what it then did says nothing more.
  if (r.hung) return [slow(`${what}: still reading past the limit (hung)`)];
  const out: Found[] = [];
  if (r.outcome !== "failed" && r.outcome !== "threw")
    out.push(bad(`${what}: the recipe ended ${r.outcome}, not refused`));
  else if (!namesFile(a, r.error) && !(SERVICE_FAULT.test(r.error) && r.searches === 0 && r.writes === 0))
    out.push(bad(`${what}: the error does not name the file: ${r.error.slice(0, 200)}`));
  if (r.writes > 0) out.push(bad(`${what}: ${r.writes} write requests sent`));
  if (r.searches > 0)
    out.push({
      invariant: a.kind === "outside" ? "file-source-confined" : "hostile-file-refused",
      detail: `${what}: ${r.searches} search requests sent for the file's lines`,
    });
  return out;
}

/** `validate` in this process, bounded: it must name the attacked file. */
export async function validateInProcess(
  a: PlacedAttack,
  projectFile: string,
): Promise<{ found: Found[]; text: string }> {
  const out = captureLog();
  const err = captureLog();
  const done = await withinLimit(
    main(["validate", "-p", projectFile], {
      stdout: out.stream,
      stderr: err.stream,
      env: { ...process.env, MUSICSYNC_LOG_LEVEL: "silent", NO_COLOR: "1" },
    }),
    a.release,
  );
  const text = `${out.text()}\n${err.text()}`;
  const found: Found[] = [];
  if (done.hung) found.push(slow(`validate with the file a ${a.kind}: hung`));
  if (!namesFile(a, text))
    found.push({
      invariant: "hostile-file-validated",
      detail: `validate with the file a ${a.kind}: the file is not named (exit ${String(done.value)})`,
    });
  return { found, text };
}

/** `validate` as a process, bounded in time and memory. */
export async function validateProcess(
  a: PlacedAttack,
  command: readonly string[],
  projectFile: string,
): Promise<{ found: Found[]; text: string }> {
  const p = await runKilled(command, ["validate", "-p", projectFile], null, 0, {
    limitMs: hungMs(),
    maxRssBytes: MAX_RSS,
  });
  const text = `${p.stdout}\n${p.stderr}`;
  const found = processBounds(a, "validate (process)", p);
  if (!p.hung && p.overMemory === null && !namesFile(a, text))
    found.push({
      invariant: "hostile-file-validated",
      detail: `validate (process) with the file a ${a.kind}: the file is not named (exit ${p.exitCode})`,
    });
  return { found, text };
}

export function processBounds(
  a: PlacedAttack,
  who: string,
  p: { hung: boolean; overMemory: number | null },
): Found[] {
  const out: Found[] = [];
  if (p.hung) out.push(slow(`${who} with the file a ${a.kind}: killed past the limit (hung)`));
  if (p.overMemory !== null)
    out.push(
      slow(
        `${who} with the file a ${a.kind}: killed at ${Math.round(p.overMemory / 2 ** 20)} MiB resident (over ${MAX_RSS / 2 ** 20} MiB)`,
      ),
    );
  return out;
}
