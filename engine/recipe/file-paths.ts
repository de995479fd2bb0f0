/**
 * Where a `file` source may read. Its path is relative to the recipe file, and what it names must
 * really be (after every link) inside the project folder or a folder the project file allows
 * (`file_sources.allow`): every line of the file is sent to the service as a search, so a recipe
 * that could name `../../etc/passwd`, or a link to it, would send that file out. The
 * loader checks here so `validate` says it with file:line:col; the read checks again
 * (engine/files/read-regular.ts), since a link can change after loading.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { authTextKind } from "../../shared/auth-text.js";
import { MAX_FILE_BYTES, mib } from "../files/limits.js";
import { isInside, kindOf } from "../files/read-regular.js";
import type { RecipeInput } from "./input.js";
import type { Project, Recipe } from "./types.js";
import type { PathIssue } from "./yaml-source.js";

/** The real path of `path`: of its deepest part that exists, with the rest as written. */
export function realPathOf(path: string): string {
  const rest: string[] = [];
  for (let at = resolve(path); ; ) {
    try {
      return join(realpathSync(at), ...rest);
    } catch {
      const up = dirname(at);
      if (up === at) return resolve(path);
      rest.unshift(basename(at));
      at = up;
    }
  }
}

/** Where a recipe's file sources may read, and the files in there they may never read. */
export interface FileAccess {
  /** Real paths: the project folder and those the project allows. */
  within: string[];
  /** Real path -> what it is: the project file, and each account's credentials file. */
  secrets: Map<string, string>;
}

/**
 * The folders are the project folder and those the project allows (relative to the project
 * file); without a project file (a recipe checked on its own), the recipe file's own folder.
 * A credentials file is refused even inside them: read as a playlist, each of its lines, cookie
 * and all, would be sent to the service as a search.
 */
export function fileAccess(
  project: Project | null | undefined,
  projectFile: string | undefined,
  recipeFile: string,
): FileAccess {
  if (projectFile === undefined)
    return { within: [realPathOf(dirname(resolve(recipeFile)))], secrets: new Map() };
  const base = dirname(resolve(projectFile));
  const allowed = project?.file_sources.allow ?? [];
  const secrets = new Map([[realPathOf(projectFile), "the project file"]]);
  for (const [name, account] of Object.entries(project?.accounts ?? {})) {
    for (const setting of ["auth", "token"] as const) {
      const value = account[setting];
      if (value && authTextKind(value) === "path") {
        secrets.set(
          realPathOf(resolve(base, value.trim())),
          `the credentials file of accounts.${name}.${setting}`,
        );
      }
    }
  }
  return { within: [base, ...allowed.map((folder) => resolve(base, folder))].map(realPathOf), secrets };
}

/** What is at a path that exists, when a file source cannot read it; null when it can. */
function notAFile(path: string): string | null {
  const info = statSync(path);
  return info.isFile() ? null : kindOf(info);
}

function shownFolders(within: readonly string[]): string {
  const [project, ...allowed] = within;
  return allowed.length === 0 ? `the folder ${project}` : `the folders ${within.join(", ")}`;
}

/**
 * The first name starting with "." below the readable folder that holds `real`, if any; below the
 * deepest such folder, so a hidden folder the project allows by name is read.
 */
function hiddenPart(real: string, within: readonly string[]): string | null {
  const holding = within.filter((w) => isInside(w, real));
  const folder = holding.sort((a, b) => b.length - a.length)[0];
  if (folder === undefined) return null;
  return (
    relative(folder, real)
      .split(sep)
      .find((name) => name.startsWith(".")) ?? null
  );
}

/** Why a file source may not read `path` (absolute, as written), or null when it may. */
export function refusal(path: string, written: string, access: FileAccess): string | null {
  if (written.includes("\0")) return `${written} holds a NUL character, which no file name can`;
  const real = realPathOf(path);
  const through = real === path ? "" : ` (through a link, it is ${real})`;
  if (!access.within.some((w) => isInside(w, real))) {
    return (
      `${written} is outside ${shownFolders(access.within)}${through}, so it is not read: ` +
      "name its folder in the project file's file_sources.allow to read it"
    );
  }
  const secret = access.secrets.get(real);
  if (secret) return `${written} is ${secret}${through}: a file source never reads it`;
  const hidden = hiddenPart(real, access.within);
  if (hidden) {
    return `${written} is hidden or in a hidden folder (${hidden})${through}: a file source never reads one, as .env, .git and the like hold secrets`;
  }
  const kind = existsSync(path) ? notAFile(path) : null;
  return kind && `${written} ${kind}`;
}

/** What may still change before a sync: a file not there yet (CI may write it), one too big today. */
function caveat(path: string, written: string, folder: string): string | null {
  if (!existsSync(path)) return `${written} does not exist (yet), relative to ${folder}`;
  const size = statSync(path).size;
  return size > MAX_FILE_BYTES
    ? `${written} is ${mib(size)}; a playlist file may be at most ${mib(MAX_FILE_BYTES)}`
    : null;
}

/**
 * Problems of a recipe's file sources: errors (outside the readable folders, a credentials file,
 * not a regular file), which refuse the recipe, and warnings, which `sync` turns into an error of
 * that source if they still hold then.
 */
export function fileSourceIssues(
  recipe: RecipeInput,
  recipeFile: string,
  access: FileAccess,
): { errors: PathIssue[]; warnings: PathIssue[] } {
  const folder = dirname(resolve(recipeFile));
  const errors: PathIssue[] = [];
  const warnings: PathIssue[] = [];
  recipe.sources.forEach((s, i) => {
    if (s.type !== "file" || !s.path) return;
    const at = ["sources", i, "path"];
    const path = resolve(folder, s.path);
    const error = refusal(path, s.path, access);
    const warning = error === null ? caveat(path, s.path, folder) : null;
    if (error) errors.push({ path: at, message: error });
    if (warning) warnings.push({ path: at, message: warning });
  });
  return { errors, warnings };
}

/**
 * File sources' paths, and the matches.yaml of every source that matches songs (files and the other
 * services'), made absolute against the recipe file's folder.
 */
export function placeFiles(recipe: Recipe, recipeFile: string, within: readonly string[]): Recipe {
  if (!recipe.sources.some((s) => "overrides" in s)) return recipe;
  const folder = dirname(resolve(recipeFile));
  const sources = recipe.sources.map((s) => {
    if (s.type === "file") {
      return {
        ...s,
        path: resolve(folder, s.path),
        overrides: join(folder, s.overrides),
        within: [...within],
      };
    }
    return "overrides" in s ? { ...s, overrides: join(folder, s.overrides) } : s;
  });
  return { ...recipe, sources };
}
