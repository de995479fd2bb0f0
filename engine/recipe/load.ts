/**
 * YAML → schema (ajv) → semantic checks → normalise → freeze. Every problem of a file is reported
 * at once as a positioned issue; nothing here throws on a bad recipe.
 */
import { createHash } from "node:crypto";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { decodeUtf8 } from "../files/decode.js";
import { describeFsError, FileReadError, readRegularFile } from "../files/read-regular.js";
import { OVERRIDES_FILE } from "./defaults.js";
import { readWhenUsed } from "./deferred-settings.js";
import { type Environment, substituteEnvironment } from "./env.js";
import { type RecipeIssue, sortIssues } from "./errors.js";
import { fileAccess, fileSourceIssues, placeFiles } from "./file-paths.js";
import { fitWarnings } from "./fit.js";
import { canonicalJson, deepFreeze } from "./freeze.js";
import type { ProjectInput, RecipeInput } from "./input.js";
import { RECIPE_FILE_BOUNDS, sizeProblem } from "./limits.js";
import { BUILT_IN_DEFAULTS, normaliseProject, normaliseRecipe, type RecipeDefaults } from "./normalise.js";
import { SECOND_SCHEDULES_ENV } from "./schedule.js";
import { accountWarnings, checkRecipe, type PathIssue, recipeTargetKey } from "./semantic.js";
import type { LoadedRecipe, Project, Recipe } from "./types.js";
import { checkProjectSchema, checkRecipeSchema, pathText } from "./validate-schema.js";
import { parseYamlFile, type SourceDocument } from "./yaml-source.js";

export interface RecipeLoadOptions {
  /** The project file: its defaults fill recipes, and accounts are checked against it. */
  project?: Project | null;
  /** Schedules more often than once a minute: the test suite's only (engine/recipe/schedule.ts). */
  allowSecondSchedules?: boolean;
  /**
   * The state, where accounts may be stored, was not read (`validate`): a recipe's account the
   * project file lacks is a warning when a stored account could carry it (recipe-account.ts).
   */
  accountsMayBeStored?: boolean;
  /**
   * The project file's path: its folder, and the folders its `file_sources.allow` names, are where
   * `file` sources may read. Without it, a recipe's file sources read only beside the recipe.
   */
  projectFile?: string;
}

export interface RecipeLoadResult {
  /** Recipes that passed every check, frozen. Empty for a file with any issue. */
  recipes: LoadedRecipe[];
  issues: RecipeIssue[];
  /** Recipes that load but likely do nothing as written (recipe/fit.ts); severity "warning". */
  warnings: RecipeIssue[];
}

export interface RecipeFileText {
  file: string;
  text: string;
}

interface Candidate {
  input: RecipeInput;
  source: SourceDocument;
  /** Where its file sources may read (file-paths.ts). */
  within: readonly string[];
  /** What may not be there by the time it syncs: what its file sources name, a stored account. */
  laterWarnings: PathIssue[];
}

function positioned(source: SourceDocument, issues: readonly PathIssue[]): RecipeIssue[] {
  return issues.map((i) => {
    const where = pathText(i.path);
    return {
      file: source.file,
      ...source.at(i.path, i.key ?? false),
      message: where ? `${where}: ${i.message}` : i.message,
    };
  });
}

export function recipeHash(recipe: Recipe): string {
  return createHash("sha256").update(canonicalJson(recipe)).digest("hex");
}

function defaultsOf(options: RecipeLoadOptions): RecipeDefaults {
  return options.project ? options.project.defaults : BUILT_IN_DEFAULTS;
}

/**
 * A file is checked alone, and nothing it holds may stop the others: an unexpected throw (a bug,
 * or an input we did not foresee) becomes an issue of that file, never a crash of `validate` or of
 * the daemon's start.
 */
function checkFile(
  input: RecipeFileText,
  options: RecipeLoadOptions,
): { candidates: Candidate[]; issues: RecipeIssue[] } {
  try {
    const tooBig = sizeProblem(Buffer.byteLength(input.text));
    if (tooBig) return { candidates: [], issues: [{ file: input.file, line: 1, col: 1, message: tooBig }] };
    return bounded(checkFileText(input, options));
  } catch (err) {
    const first = err instanceof Error ? err.message.split("\n")[0] : String(err);
    return {
      candidates: [],
      issues: [{ file: input.file, line: 1, col: 1, message: `cannot check: ${first}` }],
    };
  }
}

/** Issues a person can read: a hostile file gets the first 100, each at most 400 characters. */
const MAX_ISSUES_PER_FILE = 100;
const MAX_MESSAGE = 400;

function clip(i: RecipeIssue): RecipeIssue {
  const cut = i.message.length > MAX_MESSAGE ? `${i.message.slice(0, MAX_MESSAGE)}…` : i.message;
  return { ...i, message: visible(cut) };
}

function bounded(r: { candidates: Candidate[]; issues: RecipeIssue[] }) {
  const issues = sortIssues(r.issues);
  if (issues.length <= MAX_ISSUES_PER_FILE) return { candidates: r.candidates, issues: issues.map(clip) };
  const rest = issues.length - MAX_ISSUES_PER_FILE;
  const next = issues[MAX_ISSUES_PER_FILE]!;
  const more = { ...next, message: `and ${rest} more issue${rest === 1 ? "" : "s"} in this file` };
  return { candidates: r.candidates, issues: [...issues.slice(0, MAX_ISSUES_PER_FILE).map(clip), more] };
}

/**
 * Characters a terminal would act on or not show (controls, a BOM inside a key, zero-width
 * spaces) are written as `\u{feff}`: a message must show what is wrong, not hide or run it.
 */
function visible(message: string): string {
  return message.replace(/\p{C}/gu, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
}

function checkFileText(
  input: RecipeFileText,
  options: RecipeLoadOptions,
): { candidates: Candidate[]; issues: RecipeIssue[] } {
  const parsed = parseYamlFile(input.file, input.text);
  const issues = [...parsed.issues];
  const candidates: Candidate[] = [];
  const accounts = options.project ? new Set(Object.keys(options.project.accounts)) : undefined;
  if (parsed.documents.length === 0 && parsed.issues.length === 0) {
    issues.push({ file: input.file, line: 1, col: 1, message: "the file holds no recipe" });
  }
  for (const source of parsed.documents) {
    const schemaIssues = checkRecipeSchema(source);
    if (schemaIssues.length > 0) {
      issues.push(...schemaIssues);
      continue;
    }
    const recipe = source.value as RecipeInput;
    const context = {
      ...(accounts ? { accounts } : {}),
      defaultAccount: defaultsOf(options).account,
      accountsMayBeStored: options.accountsMayBeStored === true,
      allowSecondSchedules: options.allowSecondSchedules === true,
    };
    const semantic = checkRecipe(recipe, context);
    if (semantic.length > 0) {
      issues.push(...positioned(source, semantic));
      continue;
    }
    const access = fileAccess(options.project, options.projectFile, input.file);
    const files = fileSourceIssues(recipe, input.file, access);
    if (files.errors.length > 0) {
      issues.push(...positioned(source, files.errors));
      continue;
    }
    const laterWarnings = [...files.warnings, ...accountWarnings(recipe, context)];
    candidates.push({ input: recipe, source, within: access.within, laterWarnings });
  }
  return { candidates, issues };
}

/** Rules between recipes: ids are unique, and no two recipes write one target. */
function checkAcross(candidates: readonly Candidate[], defaults: RecipeDefaults): RecipeIssue[] {
  const issues: RecipeIssue[] = [];
  const ids = new Map<string, Candidate>();
  const targets = new Map<string, Candidate>();
  for (const c of candidates) {
    const where = (other: Candidate) => {
      const pos = other.source.at(["id"]);
      return `${other.source.file}:${pos.line}:${pos.col}`;
    };
    const sameId = ids.get(c.input.id);
    if (sameId) {
      issues.push({
        file: c.source.file,
        ...c.source.at(["id"]),
        message: `duplicate recipe id "${c.input.id}" (also at ${where(sameId)})`,
      });
    } else ids.set(c.input.id, c);
    const key = recipeTargetKey(c.input.account ?? defaults.account, c.input);
    const sameTarget = targets.get(key);
    if (sameTarget) {
      issues.push({
        file: c.source.file,
        ...c.source.at(["target"], true),
        message: `target is already written by recipe "${sameTarget.input.id}" (${where(sameTarget)})`,
      });
    } else targets.set(key, c);
  }
  return issues;
}

/** Loads recipe files given as text (all of them together, so cross-file rules apply). */
export function loadRecipeTexts(
  files: readonly RecipeFileText[],
  options: RecipeLoadOptions = {},
): RecipeLoadResult {
  const issues: RecipeIssue[] = [];
  const perFile: Candidate[][] = [];
  const badFiles = new Set<string>();
  for (const f of files) {
    const r = checkFile(f, options);
    issues.push(...r.issues);
    if (r.issues.length > 0) badFiles.add(f.file);
    perFile.push(r.candidates);
  }
  const all = perFile.flat();
  const warnings = all.flatMap((c) =>
    // A warning quotes the recipe too (a file source's path): shown as safely as an issue.
    positioned(c.source, [...fitWarnings(c.input), ...c.laterWarnings]).map((w) => ({
      ...clip(w),
      severity: "warning" as const,
    })),
  );
  const across = checkAcross(all, defaultsOf(options));
  issues.push(...across);
  for (const i of across) badFiles.add(i.file);
  const recipes: LoadedRecipe[] = [];
  for (const c of all) {
    if (badFiles.has(c.source.file)) continue;
    const recipe = deepFreeze(
      placeFiles(normaliseRecipe(c.input, defaultsOf(options)), c.source.file, c.within),
    );
    const pos = c.source.at([]);
    recipes.push(Object.freeze({ recipe, file: c.source.file, ...pos, hash: recipeHash(recipe) }));
  }
  return { recipes, issues: sortIssues(issues), warnings: sortIssues(warnings) };
}

export function loadRecipeText(
  file: string,
  text: string,
  options: RecipeLoadOptions = {},
): RecipeLoadResult {
  return loadRecipeTexts([{ file, text }], options);
}

async function collect(path: string, out: string[]): Promise<void> {
  const info = await stat(path);
  if (!info.isDirectory()) {
    out.push(path);
    return;
  }
  const entries = (await readdir(path, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const full = join(path, e.name);
    if (e.isDirectory()) await collect(full, out);
    else if (/\.ya?ml$/.test(e.name) && !NOT_RECIPES.has(e.name)) out.push(full);
  }
}

/**
 * YAML files a recipe folder holds that are not recipes: the project file, and the song matches
 * `musicsync match --write-overrides` drafts beside the recipes (read as a recipe, it failed every
 * command with 64 errors).
 */
const NOT_RECIPES = new Set(["musicsync.yaml", "musicsync.yml", OVERRIDES_FILE]);

/** Reads files and folders (every `.yaml`/`.yml` below a folder, but the project file and matches.yaml). */
export async function loadRecipePaths(
  paths: readonly string[],
  options: RecipeLoadOptions = {},
): Promise<RecipeLoadResult> {
  const allowSecondSchedules = options.allowSecondSchedules ?? process.env[SECOND_SCHEDULES_ENV] === "1";
  const files: string[] = [];
  const unreadable: RecipeIssue[] = [];
  const cannot = (file: string, err: unknown) =>
    unreadable.push({ file, line: 1, col: 1, message: `cannot read: ${describeFsError(err)}` });
  for (const p of paths) await collect(p, files).catch((err: unknown) => cannot(p, err));
  const texts: RecipeFileText[] = [];
  for (const file of files) {
    const read = await readBoundedText(file);
    if ("text" in read) texts.push({ file, text: read.text });
    else unreadable.push(read.issue);
  }
  const result = loadRecipeTexts(texts, { ...options, allowSecondSchedules });
  return { ...result, issues: sortIssues([...unreadable, ...result.issues]) };
}

/**
 * Reads a recipe or project file: only a regular file, read up to 1 MiB and no further (a 10 MB
 * file once took 1.1 GB to validate; /dev/zero had no end), and its bytes must be UTF-8.
 */
export async function readBoundedText(file: string): Promise<{ text: string } | { issue: RecipeIssue }> {
  const issue = (message: string, at = { line: 1, col: 1 }): { issue: RecipeIssue } => ({
    issue: { file, ...at, message },
  });
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(file, RECIPE_FILE_BOUNDS);
  } catch (err) {
    const message = err instanceof FileReadError ? err.message : describeFsError(err);
    return issue(err instanceof FileReadError && err.code === "EFBIG" ? message : `cannot read: ${message}`);
  }
  const decoded = decodeUtf8(bytes);
  if (!("bad" in decoded)) return { text: decoded.text };
  const before = decoded.text.slice(0, decoded.bad);
  const line = before.split("\n").length;
  return issue("invalid UTF-8 (save the file as UTF-8)", {
    line,
    col: decoded.bad - before.lastIndexOf("\n"),
  });
}

export interface ProjectLoadResult {
  project: Project | null;
  issues: RecipeIssue[];
}

export function loadProjectText(file: string, text: string, env: Environment = {}): ProjectLoadResult {
  const parsed = parseYamlFile(file, text);
  const issues = [...parsed.issues];
  if (parsed.documents.length !== 1) {
    if (parsed.issues.length === 0) {
      issues.push({ file, line: 1, col: 1, message: "the project file must hold exactly one document" });
    }
    return { project: null, issues: sortIssues(issues) };
  }
  const source = parsed.documents[0]!;
  const substituted = substituteEnvironment(source, env, readWhenUsed);
  issues.push(...substituted.issues);
  // A value left as written (its variable not set here) is checked once it has its value.
  const unset = substituted.unset.map((u) => u.path);
  issues.push(...checkProjectSchema(source, unset));
  if (issues.length > 0) return { project: null, issues: sortIssues(issues) };
  const input = source.value as ProjectInput;
  const project = normaliseProject(input);
  if (unset.length > 0) project.unresolved = substituted.unset.map((u) => ({ ...u, file }));
  // A file naming no accounts leaves them to the state (`musicsync accounts`): its default is
  // resolved once the stored ones are known (cli/musicsync/accounts.ts).
  const fileHasAccounts = Object.keys(project.accounts).length > 0;
  if (fileHasAccounts && !(project.defaults.account in project.accounts)) {
    const path = input.defaults?.account !== undefined ? ["defaults", "account"] : ["accounts"];
    issues.push({
      file,
      ...source.at(path),
      message: `default account "${project.defaults.account}" is not among the accounts (${Object.keys(project.accounts).join(", ")})`,
    });
  }
  for (const [name, account] of Object.entries(project.accounts)) {
    if (account.auth && account.token) {
      issues.push({
        file,
        ...source.at(["accounts", name, "token"], true),
        message: "give either auth or token, not both",
      });
    }
    if (account.emulator && (account.auth || account.token || account.base_url)) {
      issues.push({
        file,
        ...source.at(["accounts", name, "emulator"], true),
        message: "an emulator account takes no auth, token or base_url: the emulator signs in itself",
      });
    }
    if (account.token && !account.oauth_client) {
      issues.push({
        file,
        ...source.at(["accounts", name]),
        message: "an OAuth token needs oauth_client (id and secret)",
      });
    }
  }
  if (issues.length > 0) return { project: null, issues: sortIssues(issues) };
  return { project: deepFreeze(project), issues: [] };
}

export async function loadProjectFile(
  path: string,
  env: Environment = process.env,
): Promise<ProjectLoadResult> {
  const read = await readBoundedText(path);
  if (!("text" in read)) return { project: null, issues: [read.issue] };
  return loadProjectText(path, read.text, env);
}
