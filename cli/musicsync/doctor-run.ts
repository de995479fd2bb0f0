/** What `musicsync doctor` runs: every check, in the order it prints them (see doctor.ts). */
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { unresolvedText, unresolvedUnder } from "../../engine/recipe/deferred-settings.js";
import type { Environment } from "../../engine/recipe/env.js";
import { formatIssue } from "../../engine/recipe/errors.js";
import { loadProjectFile, loadRecipePaths } from "../../engine/recipe/load.js";
import type { Project } from "../../engine/recipe/types.js";
import { createEnv } from "../../engine/run/env.js";
import { createLogger } from "../../engine/run/logger.js";
import { parseStateUrl, resolveStateUrl } from "../../engine/state/url.js";
import { mergeStoredAccounts } from "./accounts.js";
import { credentialChecks, libraryCheck } from "./doctor-account.js";
import { type Check, error, ok, renderChecks, warning } from "./doctor-check.js";
import { sqliteStoredAccounts, stateChecks } from "./doctor-state.js";
import { noProject } from "./project.js";

export { renderChecks };

/** `-p` may name the project's folder. */
export function projectPath(given: string): string {
  return existsSync(given) && statSync(given).isDirectory() ? join(given, "musicsync.yaml") : given;
}

export interface DoctorOptions {
  /** `--state`: the state database instead of the project's. */
  state?: string | undefined;
  /** For `${VAR}` in the project file. */
  env: NodeJS.ProcessEnv;
  nowMs: number;
}

export async function runChecks(projectFile: string, o: DoctorOptions): Promise<Check[]> {
  const { nowMs } = o;
  if (!existsSync(projectFile)) return [error("project", noProject(projectFile))];
  const { project: file, issues } = await loadProjectFile(projectFile, o.env);
  if (!file) return issues.map((i) => error("project", formatIssue(i)));
  const base = dirname(resolve(projectFile));
  const checks: Check[] = [ok("project", `${projectFile} loads`)];
  // `state: ${DATABASE_URL}` with the variable not set here: the commands would refuse to run.
  const unsetState = o.state ? [] : unresolvedUnder(file, ["state"]);
  const stateFile = unsetState.length > 0 ? null : (o.state ?? resolveStateUrl(file.state, base));
  const project = stateFile === null ? file : await withStored(file, stateFile, o.env, checks);
  const stored = Object.keys(project.accounts).filter((n) => !Object.hasOwn(file.accounts, n));
  checks.push(...(await accountChecks(project, projectFile, nowMs, new Set(stored))));
  const recipes = await recipeChecks(project, projectFile);
  if (stateFile !== null) checks.push(...(await stateChecks(stateFile, recipes.ids, nowMs)));
  else checks.push(...unsetState.map((u) => error("state", unresolvedText(u))));
  checks.push(...recipes.checks);
  // Not an error of a plan or a dry run, but sync and the daemon refuse to run without it.
  for (const u of unresolvedUnder(file, ["notify"]))
    checks.push(warning("notify", `${unresolvedText(u)}: sync and the daemon refuse to run here`));
  return checks;
}

/**
 * The accounts stored in the state join the file's, as for every command; one that cannot be
 * unsealed is a warning. A state that cannot be read is left to the state checks to report.
 */
async function withStored(file: Project, stateFile: string, env: Environment, checks: Check[]) {
  const onSkip = (name: string, e: Error) => {
    checks.push(warning(`account ${name}`, `stored, but left out: ${e.message}`));
  };
  try {
    const target = parseStateUrl(stateFile);
    const open =
      target.kind === "postgres"
        ? (await import("./doctor-pg.js")).pgStoredAccounts
        : () => sqliteStoredAccounts(target.file);
    return await mergeStoredAccounts(file, stateFile, env, onSkip, open);
  } catch {
    return file;
  }
}

/** Per account: its credentials, then (when nothing is wrong with them already) one library read. */
async function accountChecks(
  project: Project,
  projectFile: string,
  nowMs: number,
  stored: ReadonlySet<string>,
): Promise<Check[]> {
  const base = dirname(resolve(projectFile));
  // The clients the commands would make (emulator accounts start here); state is not touched.
  const env = createEnv({ project, projectFile, logger: createLogger("silent"), stateFile: ":memory:" });
  const checks: Check[] = [];
  try {
    for (const [name, account] of Object.entries(project.accounts)) {
      const unset = unresolvedUnder(project, ["accounts", name]);
      if (unset.length > 0) {
        checks.push(...unset.map((u) => error(`account ${name}`, unresolvedText(u))));
        continue;
      }
      const found = credentialChecks(name, account, base, nowMs, stored.has(name));
      checks.push(...found);
      if (found.some((c) => c.level === "error")) continue;
      checks.push(await libraryCheck(name, () => env.clientFor(name)));
    }
  } finally {
    await env.close();
  }
  return checks;
}

async function recipeChecks(
  project: Project,
  projectFile: string,
): Promise<{ checks: Check[]; ids: string[] }> {
  const base = dirname(resolve(projectFile));
  const result = await loadRecipePaths(
    project.recipes.map((r) => resolve(base, r)),
    { project, projectFile },
  );
  const ids = result.recipes.map((r) => r.recipe.id);
  if (result.issues.length > 0)
    return { checks: result.issues.map((i) => error("recipes", formatIssue(i))), ids };
  const n = ids.length;
  if (n === 0)
    return { checks: [error("recipes", "no recipe found: add one under the project's recipes")], ids };
  // A recipe whose items cannot go into its target loads, but plans nothing useful: say so.
  const warnings = (result.warnings ?? []).map((w) => warning("recipes", formatIssue(w)));
  return {
    checks: [ok("recipes", `${n} recipe${n === 1 ? "" : "s"} valid (${ids.join(", ")})`), ...warnings],
    ids,
  };
}
