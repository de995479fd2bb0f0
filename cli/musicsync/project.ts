/** The project file and its recipes as a command needs them, with errors as one-line CliErrors. */
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { learnStateUrl } from "../../engine/output/scrub.js";
import { requireResolved, UnresolvedSettingError } from "../../engine/recipe/deferred-settings.js";
import { formatIssue } from "../../engine/recipe/errors.js";
import { loadProjectFile, loadRecipePaths } from "../../engine/recipe/load.js";
import { didYouMean } from "../../engine/recipe/suggest.js";
import type { LoadedRecipe, Project } from "../../engine/recipe/types.js";
import type { Path } from "../../engine/recipe/yaml-source.js";
import { parseStateUrl, resolveStateUrl } from "../../engine/state/url.js";
import { CliError, type CliIo, type CommandRun, type GlobalOptions } from "./io.js";

export async function loadProject(path: string, io: CliIo): Promise<Project> {
  if (!existsSync(path)) throw new CliError(noProject(path));
  const { project, issues } = await loadProjectFile(path, io.env);
  if (!project) throw new CliError(issues.map(formatIssue).join("\n"));
  return project;
}

/**
 * Refuses, as a one-line CliError, a command that needs a setting whose `${VAR}` is not set here
 * (engine/recipe/deferred-settings.ts); `needed` says what for.
 */
export function required(project: Project, prefix: Path, needed: string): void {
  try {
    requireResolved(project, prefix, needed);
  } catch (e) {
    if (e instanceof UnresolvedSettingError) throw new CliError(e.message);
    throw e;
  }
}

/** The first thing a newcomer may meet: say where the project was looked for and how to make one. */
export function noProject(path: string): string {
  return (
    `no project file ${resolve(path)}: run \`musicsync init\` here to make one ` +
    "(`--emulator` to try it without an account), or name one with -p <file or folder>"
  );
}

/** The recipes at `paths`, or the project's own; any problem stops the command. */
export async function loadRecipes(project: Project | null, projectFile: string, paths: readonly string[]) {
  const result = await loadRecipePaths(recipePaths(project, projectFile, paths), { project, projectFile });
  if (result.issues.length > 0) throw new CliError(result.issues.map(formatIssue).join("\n"));
  return result.recipes;
}

export function recipePaths(
  project: Project | null,
  projectFile: string,
  paths: readonly string[],
): string[] {
  const base = dirname(resolve(projectFile));
  return paths.length > 0 ? [...paths] : (project?.recipes ?? []).map((r) => resolve(base, r));
}

/** The recipes with these ids (all without ids); an unknown id is an error, as in every command. */
export function pick(recipes: readonly LoadedRecipe[], ids: readonly string[] | undefined): LoadedRecipe[] {
  if (!ids || ids.length === 0) return [...recipes];
  const unknown = ids.filter((id) => !recipes.some((r) => r.recipe.id === id));
  if (unknown.length > 0) {
    const known = recipes.map((r) => r.recipe.id);
    throw new CliError(`no recipe with id ${unknown.map((id) => id + didYouMean(id, known)).join("; ")}`);
  }
  return recipes.filter((r) => ids.includes(r.recipe.id));
}

/** The account a command reads with: the one named (checked), else the project's first. */
export function accountOf(project: Project, given: string | undefined, projectFile: string): string {
  const account = given ?? Object.keys(project.accounts)[0];
  if (!account || !project.accounts[account]) {
    throw new CliError(`--account: no account "${given ?? ""}" in ${projectFile}`);
  }
  return account;
}

export function stateFileOf(g: GlobalOptions, project: Project): string {
  if (!g.state) required(project, ["state"], "this command opens the state");
  // A path or a sqlite: URL relative to the project's folder; another URL as written (open.ts).
  const url = g.state ? g.state : resolveStateUrl(project.state, dirname(resolve(g.project)));
  learnStateUrl(url);
  return url;
}

/**
 * Whether the state may hold anything yet: a SQLite file not made yet holds nothing; PostgreSQL
 * (a URL, never a file here) and `:memory:` are asked.
 */
export function stateMayExist(url: string): boolean {
  const target = parseStateUrl(url);
  return target.kind !== "sqlite" || target.file === ":memory:" || existsSync(target.file);
}

/**
 * The state of a command that reads what happened (status, history, drift, undo, approve, the
 * status page…): a SQLite file whose folder does not exist is a mistyped `--state` or `state:`, not
 * a history, and is refused; a file not made yet in a folder that exists is a project that has not
 * run (an empty history). Writing commands create both (shared/sqlite-migrate.ts).
 */
export function existingStateFolder(url: string): string {
  const target = parseStateUrl(url);
  if (target.kind !== "sqlite" || target.file === ":memory:") return url;
  const file = resolve(target.file);
  const folder = dirname(file);
  let isFolder: boolean;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    throw new CliError(`no state at ${file}: the folder ${folder} does not exist`);
  }
  if (!isFolder) throw new CliError(`no state at ${file}: ${folder} is not a folder`);
  return url;
}

/** The state a command that only reads opens: a SQLite file not made yet reads as an empty one in memory. */
export function readableState(url: string): string {
  existingStateFolder(url);
  return plannableState(url);
}

/**
 * The state `plan` and `sync --dry-run` read: anything not made yet (the file, its folder) reads as
 * an empty state in memory, as the `sync` they preview would create it.
 */
export function plannableState(url: string): string {
  return stateMayExist(url) ? url : ":memory:";
}

/** The recipes that load; the problems of the others go to stderr (these commands go on). */
export async function loadTolerant(run: CommandRun, project: Project): Promise<LoadedRecipe[]> {
  const { recipes, issues } = await loadRecipePaths(recipePaths(project, run.g.project, []), {
    project,
    projectFile: run.g.project,
  });
  for (const i of issues) run.io.stderr.write(`warning: ${formatIssue(i)}\n`);
  return recipes;
}
