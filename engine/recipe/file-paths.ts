/**
 * Where a `file` source may read. Its path is relative to the recipe file, and what it names must
 * really be (after every link) inside the project folder or a folder the project file allows
 * (`file_sources.allow`): every line of the file is sent to the service as a search, so a recipe
 * that could name `../../etc/passwd`, or a link to it, would send that file out (issue 22). The
 * loader checks here so `validate` says it with file:line:col; the read checks again
 * (engine/files/read-regular.ts), since a link can change after loading.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { MAX_FILE_BYTES, mib } from "../files/limits.js";
import { isInside } from "../files/read-regular.js";
import type { RecipeInput } from "./input.js";
import type { PathIssue } from "./semantic.js";
import type { Project, Recipe } from "./types.js";

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

/**
 * The folders a recipe's file sources may read, as real paths: the project folder and those the
 * project allows (relative to the project file). Without a project file (a recipe checked on its
 * own), the recipe file's own folder.
 */
export function readableFolders(
  project: Project | null | undefined,
  projectFile: string | undefined,
  recipeFile: string,
): string[] {
  if (projectFile === undefined) return [realPathOf(dirname(resolve(recipeFile)))];
  const base = dirname(resolve(projectFile));
  const allowed = project?.file_sources.allow ?? [];
  return [base, ...allowed.map((folder) => resolve(base, folder))].map(realPathOf);
}

/** What is at a path that exists, when a file source cannot read it; null when it can. */
function notAFile(path: string): string | null {
  const info = statSync(path);
  if (info.isFile()) return null;
  if (info.isDirectory()) return "is a directory, not a regular file";
  if (info.isFIFO()) return "is a named pipe, not a regular file";
  if (info.isCharacterDevice()) return "is a character device, not a regular file";
  if (info.isBlockDevice()) return "is a block device, not a regular file";
  return "is not a regular file";
}

function shownFolders(within: readonly string[]): string {
  const [project, ...allowed] = within;
  return allowed.length === 0 ? `the folder ${project}` : `the folders ${within.join(", ")}`;
}

/**
 * Problems of a recipe's file sources: errors (outside the readable folders; not a regular file),
 * which refuse the recipe, and warnings (not there yet: CI may write it just before it syncs; too
 * big today), which `sync` turns into an error of that source if they still hold.
 */
export function fileSourceIssues(
  recipe: RecipeInput,
  recipeFile: string,
  within: readonly string[],
): { errors: PathIssue[]; warnings: PathIssue[] } {
  const folder = dirname(resolve(recipeFile));
  const errors: PathIssue[] = [];
  const warnings: PathIssue[] = [];
  recipe.sources.forEach((s, i) => {
    if (s.type !== "file" || !s.path) return;
    const at = ["sources", i, "path"];
    const path = resolve(folder, s.path);
    const real = realPathOf(path);
    if (!within.some((w) => isInside(w, real))) {
      const through = real === path ? "" : ` (through a link, it is ${real})`;
      errors.push({
        path: at,
        message:
          `${s.path} is outside ${shownFolders(within)}${through}, so it is not read: ` +
          "name its folder in the project file's file_sources.allow to read it",
      });
    } else if (!existsSync(path)) {
      warnings.push({ path: at, message: `${s.path} does not exist (yet), relative to ${folder}` });
    } else {
      const kind = notAFile(path);
      if (kind) errors.push({ path: at, message: `${s.path} ${kind}` });
      else if (statSync(path).size > MAX_FILE_BYTES) {
        const size = mib(statSync(path).size);
        warnings.push({
          path: at,
          message: `${s.path} is ${size}; a playlist file may be at most ${mib(MAX_FILE_BYTES)}`,
        });
      }
    }
  });
  return { errors, warnings };
}

/** File sources' paths, and their matches.yaml, made absolute against the recipe file's folder. */
export function placeFiles(recipe: Recipe, recipeFile: string, within: readonly string[]): Recipe {
  if (!recipe.sources.some((s) => s.type === "file")) return recipe;
  const folder = dirname(resolve(recipeFile));
  const sources = recipe.sources.map((s) =>
    s.type === "file"
      ? { ...s, path: resolve(folder, s.path), overrides: join(folder, s.overrides), within: [...within] }
      : s,
  );
  return { ...recipe, sources };
}
