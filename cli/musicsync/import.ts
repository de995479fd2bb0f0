/**
 * `musicsync import songs.csv --to "Old favourites"`: a playlist file into a new playlist in one
 * line. Writes the recipe (import-recipe.ts) beside the project's recipes, matches the file and
 * drafts matches.yaml as `match --write-overrides` does, shows the plan, and applies exactly that
 * plan once confirmed: asked on a terminal, `--yes` for scripts; without either it stops after the
 * plan and says how to apply it. Nothing is written when the file cannot be read by the recipe
 * (outside the project folder and `file_sources.allow`, hidden, missing) or the recipe file exists;
 * an import that fails before its plan is shown takes its recipe away again, so a second try is not
 * refused for a recipe nobody saw.
 */
import { existsSync, statSync } from "node:fs";
import { mkdir, unlink } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { createFile } from "../../engine/files/replace-file.js";
import type { FileFormat } from "../../engine/files/types.js";
import { oneLine } from "../../engine/match/choices.js";
import type { Plan } from "../../engine/plan/types.js";
import { OVERRIDES_FILE } from "../../engine/recipe/defaults.js";
import { formatIssue } from "../../engine/recipe/errors.js";
import { fileAccess, refusal } from "../../engine/recipe/file-paths.js";
import { loadRecipePaths } from "../../engine/recipe/load.js";
import { sameTitle, titleProblem } from "../../engine/recipe/service-text.js";
import type { LoadedRecipe, Project } from "../../engine/recipe/types.js";
import { renderPlansText } from "../../engine/render/text.js";
import type { EngineLogger } from "../../engine/run/logger.js";
import { runAll } from "../../engine/run/run-all.js";
import { type EngineEnv, syncRecipe } from "../../engine/run/runner.js";
import { loadProjectFor } from "./accounts.js";
import { type Asker, terminalAsker } from "./ask.js";
import { importRecipeText, recipeIdFor } from "./import-recipe.js";
import { CliError, type CommandRun, Exit } from "./io.js";
import { matchFile, readNamedFile, writeDraft } from "./match.js";
import { applyPlans } from "./plan.js";
import { accountOf, recipePaths } from "./project.js";
import { withEnv } from "./runs.js";

export interface ImportOptions {
  to: string;
  id?: string;
  format?: FileFormat;
  account?: string;
  yes?: boolean;
}

/**
 * The folder new recipes go in: the first of the project's `recipes` that is a folder (made when
 * it does not exist yet and is not named like a file).
 */
async function recipesFolder(project: Project, projectFile: string): Promise<string> {
  for (const at of recipePaths(project, projectFile, [])) {
    if (existsSync(at) ? statSync(at).isDirectory() : !/\.ya?ml$/.test(at)) {
      await mkdir(at, { recursive: true });
      return at;
    }
  }
  throw new CliError(
    `the project's recipes (${project.recipes.join(", ")}) name no folder to write the recipe in: ` +
      "add one to `recipes:` in the project file",
  );
}

/** The file as the recipe names it: relative to the recipe's folder, with forward slashes. */
function pathFrom(folder: string, file: string): string {
  const rel = relative(folder, file);
  return isAbsolute(rel) ? file : rel.split(sep).join("/");
}

/** Why the service cannot take this playlist title (the recipe schema's rules), or null. */
function titleRefusal(title: string): string | null {
  const problem = titleProblem(title);
  if (problem) return `the title ${problem}`;
  if (title.length > MAX_TITLE) return `the title is longer than ${MAX_TITLE} characters`;
  return /[<>]/.test(title) ? "the service takes no < or > in a title" : null;
}

/** The service's longest playlist title (recipe.schema.json says the same). */
const MAX_TITLE = 150;

/** A path as a person at this folder types it: relative when below it. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

/** The recipe, loaded with the project's others (ids, targets); its problems refuse the import. */
async function loadWritten(run: CommandRun, project: Project, file: string, id: string) {
  const { recipes, issues } = await loadRecipePaths(recipePaths(project, run.g.project, []), {
    project,
    projectFile: run.g.project,
  });
  const loaded = recipes.find((r) => r.file === file && r.recipe.id === id);
  const mine = issues.filter((i) => i.file === file || i.message.includes(`"${id}"`));
  if (!loaded || mine.length > 0) {
    const why = (mine.length > 0 ? mine : issues).map(formatIssue).join("\n");
    throw new CliError(why || `${file}: the recipe did not load`);
  }
  return loaded;
}

export async function importFile(run: CommandRun, file: string, o: ImportOptions): Promise<void> {
  const { io, g } = run;
  if (g.json) throw new CliError("import shows its plan to a person: it does not go with --json");
  const title = o.to.trim();
  const bad = titleRefusal(title);
  if (bad) throw new CliError(`--to ${JSON.stringify(title)}: ${bad}`);
  const project = await loadProjectFor(run);
  const account = accountOf(project, o.account ?? project.defaults.account, g.project);
  const folder = await recipesFolder(project, g.project);
  const id = o.id ?? recipeIdFor(title);
  // The id names the file too: only what the schema allows (no "/", no "..").
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(id))
    throw new CliError(`--id ${JSON.stringify(id)}: use lowercase letters, digits and - (up to 64)`);
  const recipeFile = join(folder, `${id}.yaml`);
  const exists = () =>
    new CliError(
      `${recipeFile} exists already; nothing written (give the new recipe another --id, or sync that one: musicsync sync -r ${id})`,
    );
  if (existsSync(recipeFile)) throw exists();
  const source = resolve(file);
  const refused = refusal(source, file, fileAccess(project, g.project, recipeFile));
  if (refused) throw new CliError(`${refused}; nothing written`);
  const read = await readNamedFile(file, o.format);
  const text = importRecipeText({
    id,
    title,
    path: pathFrom(folder, source),
    format: o.format,
    account: o.account,
    today: new Date().toISOString().slice(0, 10),
  });
  await createFile(recipeFile, text).catch((e: NodeJS.ErrnoException) => {
    throw e.code === "EEXIST" ? exists() : e;
  });
  let plans: Plan[];
  let loaded: LoadedRecipe;
  try {
    loaded = await loadWritten(run, project, recipeFile, id);
    io.stdout.write(
      `Wrote ${shown(recipeFile)}: ${oneLine(file)} into a new private playlist ${JSON.stringify(title)} ` +
        "(mode: sync: what you add to or remove from the playlist yourself stays so).\n",
    );
    const overrides = join(dirname(recipeFile), OVERRIDES_FILE);
    const matched = await matchFile(
      run,
      project,
      account,
      file,
      { kind: "file", read },
      {
        overridesFile: overrides,
        show: "summary",
      },
    );
    await matched((m) => writeDraft(run, overrides, m));
    plans = await planOf(run, project, loaded);
  } catch (e) {
    await unlink(recipeFile).catch(() => {});
    io.stderr.write(`${recipeFile} removed again: the import stopped before its plan, nothing was synced.\n`);
    throw e;
  }
  await confirmAndApply(run, project, loaded, plans, o.yes === true);
}

/** The recipe's plan (and a split's further parts), printed; a recipe that cannot be planned throws. */
async function planOf(run: CommandRun, project: Project, loaded: LoadedRecipe): Promise<Plan[]> {
  const { io } = run;
  const { runs, namesakes } = await withEnv(
    run,
    project,
    async (env) => {
      const runs = await runAll(
        [{ id: loaded.recipe.id, run: () => syncRecipe(loaded, env, { dryRun: true }) }],
        env.logger as EngineLogger,
      );
      const creates = runs.some((r) => r.plan?.actions.some((a) => a.kind === "create_playlist"));
      return { runs, namesakes: creates ? await namesakesOf(env, loaded) : [] };
    },
    { readOnly: true },
  );
  const failed = runs.find((r) => r.plan === null || r.outcome === "failed");
  if (failed) throw new CliError(`${loaded.recipe.id}: ${failed.error ?? failed.outcome}`);
  const plans = runs.map((r) => r.plan as Plan);
  io.stdout.write(renderPlansText(plans, { color: io.stdout.isTTY === true }));
  for (const id of namesakes) {
    io.stdout.write(
      `note: your library already has a playlist of this title (${id}); the import makes another. ` +
        `To fill that one instead, do not apply: put \`id: ${id}\` in the recipe's target.playlist, then sync it.\n`,
    );
  }
  return plans;
}

/**
 * The person's own playlists titled as the new one (the engine finds its own by a marker, not by
 * title, so it would make another beside them): said before they confirm. Only a note, so a
 * failed read leaves it out.
 */
async function namesakesOf(env: EngineEnv, loaded: LoadedRecipe): Promise<string[]> {
  const target = loaded.recipe.target;
  if (target.type !== "playlist" || target.playlist.title === null) return [];
  try {
    const cards = await env.clientFor(loaded.recipe.account).getLibraryPlaylists({ limit: null });
    return cards
      .filter((c) => c.playlistId && sameTitle(c.title ?? null, target.playlist.title))
      .map((c) => c.playlistId as string);
  } catch {
    return [];
  }
}

async function confirmAndApply(
  run: CommandRun,
  project: Project,
  loaded: LoadedRecipe,
  plans: readonly Plan[],
  yes: boolean,
): Promise<void> {
  const { io } = run;
  const id = loaded.recipe.id;
  if (plans.every((p) => p.actions.length === 0)) {
    run.setExit(Exit.OK);
    return;
  }
  const ask = yes ? null : await terminalAsker(io);
  const go = yes || (ask !== null && (await approved(ask, loaded)));
  if (!go) {
    const why = ask === null ? "no terminal to ask on (--yes applies without asking)" : "not confirmed";
    io.stdout.write(`Not applied: ${why}. The recipe is written; to apply it: musicsync sync -r ${id}\n`);
    run.setExit(Exit.CHANGES);
    return;
  }
  await applyPlans(run, project, plans, () => ({
    rule: loaded.recipe.policy.require_approval,
    orElse: `musicsync sync -r ${id} --approve`,
  }));
}

async function approved(ask: Asker, loaded: LoadedRecipe): Promise<boolean> {
  try {
    const answer = await ask.ask(`Apply this plan to account ${loaded.recipe.account}? [y/N] `);
    return answer !== null && /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    ask.close();
  }
}
