/**
 * One hostile recipe file (docs/ENGINE.md#bad-input) dropped into the project's recipe folder beside the
 * seed's valid recipes, and what each reader of that folder must make of it:
 * - `validate` names it at `file:line:col` (or at 1:1 for a file-level refusal: too big, not UTF-8),
 *   names no other file, exits 1, prints no stack trace;
 * - `plan` of the whole folder writes nothing and names it the same way. Today a one-shot command
 *   refuses the whole folder (exit 1, every problem listed): a sync the user started by hand stops
 *   on bad input rather than run part of what they asked for. The check also accepts the other
 *   rule (the valid recipes planned, exit non-zero), so either choice passes and only a crash, a
 *   stack trace, a write or a wrong name fails;
 * - the daemon starts with exactly the valid recipes and reports the invalid file
 *   (recipes/README.md, "Limits": "the daemon runs the recipes of the other files and logs the
 *   refused ones").
 * The seed's next in-process run then syncs the valid recipes beside the file, judged as any run.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { main } from "../../cli/musicsync/main.js";
import { Daemon } from "../../engine/daemon/daemon.js";
import { loadRecipePaths } from "../../engine/recipe/load.js";
import type { LoadedRecipe, Project } from "../../engine/recipe/types.js";
import { createLogger } from "../../engine/run/logger.js";
import type { HostileRecipe } from "../support/hostile-recipes.js";
import { captureLog } from "./capture.js";
import type { Found } from "./invariants.js";
import { runKilled } from "./kill.js";

export interface HostileContext {
  recipesDir: string;
  projectFile: string;
  project: Project;
  /** The seed's own recipes, as loaded without the hostile file. */
  valid: ReadonlyMap<string, LoadedRecipe>;
  /** `musicsync` as a process, in seeds that run it: its `validate` is checked too. */
  command: readonly string[] | null;
  /** Write requests the emulator has received so far. */
  writes(): Promise<number>;
  trace(line: string): void;
  /** Scans a text the engine printed for credentials (the soak's leak check). */
  leaks(where: string, text: string): void;
}

interface Printed {
  code: number | null;
  stdout: string;
  stderr: string;
}

const STACK = /^\s+at .+(:\d+:\d+\)?|<anonymous>\)?)$|Maximum call stack|RangeError|TypeError/m;
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `musicsync <args>` in this process, its output captured (no debug logs). */
async function inProcess(args: readonly string[]): Promise<Printed> {
  const out = captureLog();
  const err = captureLog();
  const code = await main(args, {
    stdout: out.stream,
    stderr: err.stream,
    env: { ...process.env, MUSICSYNC_LOG_LEVEL: "silent", NO_COLOR: "1" },
  });
  return { code, stdout: out.text(), stderr: err.text() };
}

/**
 * What a command printed about a folder holding `file`: the file named at `file:line:col` with the
 * corpus's expected message, no other file named, no stack trace.
 */
export function checkNamed(what: string, file: string, recipe: HostileRecipe, p: Printed): Found[] {
  const out: Found[] = [];
  const bad = (detail: string) =>
    out.push({ invariant: "hostile-recipe-reported", detail: `${what} with ${recipe.name}: ${detail}` });
  const text = `${p.stdout}\n${p.stderr}`;
  if (!new RegExp(`${literal(file)}:\\d+:\\d+ `).test(p.stderr)) bad(`stderr does not name ${file}:line:col`);
  if (!recipe.expect.test(p.stderr)) bad(`stderr does not match ${recipe.expect}: ${p.stderr.slice(0, 200)}`);
  const others = [...p.stderr.matchAll(/(\/\S+\.ya?ml):\d+:\d+ /g)]
    .map((m) => m[1])
    .filter((f) => f !== file);
  if (others.length > 0) bad(`a valid file is named too: ${others[0]}`);
  if (STACK.test(text)) bad(`a stack trace or a crash: ${text.match(STACK)?.[0]?.slice(0, 120)}`);
  return out;
}

/** `validate` of the project's recipes: exit 1, the file named. */
async function checkValidate(ctx: HostileContext, file: string, recipe: HostileRecipe): Promise<Found[]> {
  const runs: [string, Printed][] = [["validate", await inProcess(["validate", "-p", ctx.projectFile])]];
  if (ctx.command) {
    const p = await runKilled(ctx.command, ["validate", "-p", ctx.projectFile], null, 0);
    runs.push(["validate (process)", { code: p.exitCode, stdout: p.stdout, stderr: p.stderr }]);
  }
  const out: Found[] = [];
  for (const [what, p] of runs) {
    if (p.code !== 1)
      out.push({
        invariant: "hostile-recipe-reported",
        detail: `${what} with ${recipe.name}: exit ${p.code}`,
      });
    out.push(...checkNamed(what, file, recipe, p));
  }
  return out;
}

/** `plan --json` of the whole folder: nothing written, the file named, the rule it follows traced. */
async function checkPlan(ctx: HostileContext, file: string, recipe: HostileRecipe): Promise<Found[]> {
  const before = await ctx.writes();
  const p = await inProcess(["plan", "--json", "-p", ctx.projectFile]);
  ctx.leaks("plan of a folder with a hostile file", `${p.stdout}\n${p.stderr}`);
  const out = checkNamed("plan", file, recipe, p);
  const bad = (detail: string) =>
    out.push({ invariant: "hostile-recipe-reported", detail: `plan with ${recipe.name}: ${detail}` });
  if ((await ctx.writes()) !== before) bad("a plan wrote to the service");
  if (p.code === 0 || p.code === 2) bad(`exit ${p.code}: an invalid file must make the command fail`);
  const planned = p.stdout.trim() === "" ? null : plannedIds(p.stdout);
  if (planned === null) ctx.trace(`  hostile: plan refused the whole folder (exit ${p.code})`);
  else {
    ctx.trace(`  hostile: plan planned ${planned.join(", ")} beside it (exit ${p.code})`);
    const want = [...ctx.valid.keys()].sort().join();
    if (planned.join() !== want) bad(`planned [${planned.join()}], the valid recipes are [${want}]`);
  }
  return out;
}

function plannedIds(stdout: string): string[] {
  try {
    // Planned or failed, every recipe the command took up is listed in one of the two.
    const doc = JSON.parse(stdout) as { plans?: { recipe: { id: string } }[]; failed?: { recipe: string }[] };
    return [...(doc.plans ?? []).map((x) => x.recipe.id), ...(doc.failed ?? []).map((x) => x.recipe)].sort();
  } catch {
    return [`(not JSON: ${stdout.slice(0, 80)})`];
  }
}

/** The daemon started on the folder: exactly the valid recipes, the file reported in its log. */
async function checkDaemon(ctx: HostileContext, file: string, recipe: HostileRecipe): Promise<Found[]> {
  const log = captureLog();
  const logger = createLogger("info", log.stream);
  const daemon = new Daemon({
    envOptions: { project: ctx.project, projectFile: ctx.projectFile, logger },
    logger,
    load: () => loadRecipePaths([ctx.recipesDir], { project: ctx.project, projectFile: ctx.projectFile }),
  });
  const out: Found[] = [];
  const bad = (detail: string) =>
    out.push({ invariant: "hostile-recipe-reported", detail: `daemon with ${recipe.name}: ${detail}` });
  try {
    const started = await daemon.start();
    const got = started.recipes.map((r) => `${r.recipe.id}@${r.hash}`).sort();
    const want = [...ctx.valid.values()].map((r) => `${r.recipe.id}@${r.hash}`).sort();
    if (got.join() !== want.join())
      bad(`started with [${got.join()}], the valid recipes are [${want.join()}]`);
    if (started.issues.length === 0 || started.issues.some((i) => i.file !== file))
      bad(`reported ${started.issues.map((i) => i.file).join(", ") || "nothing"}, not only ${file}`);
    if (!log.text().includes(`invalid recipe: ${file}:`)) bad("its log does not report the file");
  } catch (e) {
    bad(`did not start: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}`);
  } finally {
    await daemon.stop();
    await daemon.close();
  }
  ctx.leaks("daemon log", log.text());
  return out;
}

/** Drops the file, checks every reader of the folder; the file stays until `removeHostile`. */
export async function dropHostile(
  ctx: HostileContext,
  recipe: HostileRecipe,
): Promise<{ file: string; found: Found[] }> {
  const file = join(ctx.recipesDir, `hostile-${recipe.name}.yaml`);
  await writeFile(file, recipe.content);
  ctx.trace(`  hostile: ${recipe.name} dropped beside the recipes`);
  const found = [
    ...(await checkValidate(ctx, file, recipe)),
    ...(await checkPlan(ctx, file, recipe)),
    ...(await checkDaemon(ctx, file, recipe)),
  ];
  return { file, found };
}

export async function removeHostile(file: string): Promise<void> {
  await rm(file, { force: true });
}
