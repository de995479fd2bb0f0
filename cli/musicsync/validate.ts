/** `musicsync validate`: schema then semantic checks; each problem as file:line:col, or as JSON. */
import { access } from "node:fs/promises";
import { unresolvedWarnings } from "../../engine/recipe/deferred-settings.js";
import { formatIssue, type RecipeIssue } from "../../engine/recipe/errors.js";
import { loadProjectFile, loadRecipePaths } from "../../engine/recipe/load.js";
import type { LoadedRecipe, Project } from "../../engine/recipe/types.js";
import { CliError, type CommandRun, Exit } from "./io.js";
import { noProject, recipePaths } from "./project.js";

/** The recipes and every problem found; a project file is optional when paths are given. */
async function check(
  { io, g }: CommandRun,
  paths: readonly string[],
): Promise<{ recipes: LoadedRecipe[]; issues: RecipeIssue[]; warnings: RecipeIssue[] }> {
  let project: Project | null = null;
  const missing = !(await exists(g.project));
  // Without paths the project file is what names the recipes: its absence is said as every command says it.
  if (missing && paths.length === 0) throw new CliError(noProject(g.project));
  if (!missing) {
    const loaded = await loadProjectFile(g.project, io.env);
    if (!loaded.project) return { recipes: [], issues: loaded.issues, warnings: [] };
    project = loaded.project;
  }
  // Settings read when a command uses them (a webhook's token…): said, not failed, when unset here.
  const unset = project ? unresolvedWarnings(project) : [];
  // Validate reads no state (CI has neither it nor the key): an account the project file lacks may
  // be stored there, which plan and sync check. A state kept in memory holds none between commands.
  const accountsMayBeStored = project !== null && !inMemory(g.state ?? project.state);
  const loaded = await loadRecipePaths(recipePaths(project, g.project, paths), {
    project,
    accountsMayBeStored,
    // Without a project file, a recipe's file sources may read only beside it.
    ...(project ? { projectFile: g.project } : {}),
  });
  return { ...loaded, warnings: [...unset, ...(loaded.warnings ?? [])] };
}

const plain = ({ file, line, col, message }: RecipeIssue) => ({ file, line, col, message });

export async function validate(run: CommandRun, paths: readonly string[]): Promise<void> {
  const { io, g, setExit } = run;
  const { recipes, issues, warnings } = await check(run, paths);
  if (g.json) {
    const valid = issues.length === 0;
    const doc = valid
      ? { valid, recipes: recipes.map((r) => r.recipe.id), warnings: warnings.map(plain) }
      : { valid, issues: issues.map(plain), warnings: warnings.map(plain) };
    io.stdout.write(`${JSON.stringify(doc)}\n`);
    setExit(valid ? Exit.OK : Exit.ERROR);
    return;
  }
  // Warnings (items that cannot go into their target) go to stderr and leave the exit code alone.
  for (const w of warnings) io.stderr.write(`${formatIssue(w)}\n`);
  if (issues.length > 0) throw new CliError(issues.map(formatIssue).join("\n"));
  io.stdout.write(`${recipes.length} recipe${recipes.length === 1 ? "" : "s"} valid.\n`);
  setExit(Exit.OK);
}

/** `:memory:` as a state setting spells it (engine/state/url.ts), read without opening a driver. */
function inMemory(state: string): boolean {
  return state === ":memory:" || state === "sqlite::memory:";
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
