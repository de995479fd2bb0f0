/**
 * docs/ENGINE.md#bad-input: a `file` source reads only inside the project folder (after every link), or
 * in a folder the project file allows (`file_sources.allow`). `validate` says so at file:line:col;
 * the read checks again, so a link swapped after loading cannot send another file out as searches.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../../cli/musicsync/main.js";
import { formatIssue } from "../../../engine/recipe/errors.js";
import { loadProjectFile, loadRecipePaths } from "../../../engine/recipe/load.js";
import type { FileSource } from "../../../engine/recipe/types.js";
import { readFileSource } from "../../../engine/sources/file-source.js";
import { screen } from "../../support/cli-process.js";

let root: string;
let project: string;
let outside: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "file-paths-"));
  project = join(root, "project");
  outside = join(root, "elsewhere");
  await mkdir(join(project, "recipes"), { recursive: true });
  await mkdir(join(project, "exports"));
  await mkdir(outside);
  await writeFile(join(outside, "secret.txt"), "Secret Artist - Secret Song\n");
  await writeFile(join(project, "exports", "list.txt"), "Band - Song\n");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const PROJECT = "apiVersion: musicsync/v1\nkind: Project\naccounts:\n  default: { emulator: {} }\n";

/** A recipe with one file source; the path is on line 6, its value at column 49. */
function recipe(path: string): string {
  return `apiVersion: musicsync/v1
kind: Recipe
id: imported
target: { type: playlist, playlist: { title: "Imported" } }
sources:
  - { id: mine, type: file, strict: true, path: ${JSON.stringify(path)} }
`;
}

async function load(path: string, projectText = PROJECT) {
  const projectFile = join(project, "musicsync.yaml");
  await writeFile(projectFile, projectText);
  const recipeFile = join(project, "recipes", "imported.yaml");
  await writeFile(recipeFile, recipe(path));
  const { project: p, issues } = await loadProjectFile(projectFile, {});
  expect(issues).toEqual([]);
  const r = await loadRecipePaths([join(project, "recipes")], { project: p, projectFile });
  return { ...r, lines: r.issues.map(formatIssue), recipeFile };
}

const noSearch = {
  search: () => Promise.reject(new Error("a search was sent")),
  cache: { getMatch: () => null, putMatch: () => {} } as never,
  now: 0,
};

describe("a file source's path", () => {
  it("inside the project folder (beside the recipe or above it) loads", async () => {
    for (const path of ["../exports/list.txt", join(project, "exports", "list.txt")]) {
      const r = await load(path);
      expect(r.lines, path).toEqual([]);
      const spec = r.recipes[0]!.recipe.sources[0] as FileSource;
      expect(spec.path).toBe(join(project, "exports", "list.txt"));
    }
  });

  it("outside it (../.., an absolute path, /etc/passwd) is a validate error at file:line:col", async () => {
    for (const path of ["../../elsewhere/secret.txt", join(outside, "secret.txt"), "/etc/passwd"]) {
      const r = await load(path);
      expect(r.recipes, path).toEqual([]);
      expect(r.lines, path).toEqual([
        `${r.recipeFile}:6:49 sources[0].path: ${path} is outside the folder ${project}, so it is not read: ` +
          "name its folder in the project file's file_sources.allow to read it",
      ]);
    }
  });

  it("a link in the project to a file or a folder outside is refused, naming where it leads", async () => {
    await symlink(join(outside, "secret.txt"), join(project, "exports", "link.txt"));
    await symlink(outside, join(project, "exports", "away"));
    for (const path of ["../exports/link.txt", "../exports/away/secret.txt"]) {
      const r = await load(path);
      expect(r.recipes, path).toEqual([]);
      expect(r.lines.join("\n"), path).toContain(`(through a link, it is ${join(outside, "secret.txt")})`);
    }
  });

  it("the project file's file_sources.allow lets it read there, relative or absolute", async () => {
    for (const allow of ["../elsewhere", outside]) {
      const r = await load(
        "../../elsewhere/secret.txt",
        `${PROJECT}file_sources: { allow: [${JSON.stringify(allow)}] }\n`,
      );
      expect(r.lines, allow).toEqual([]);
      expect((r.recipes[0]!.recipe.sources[0] as FileSource).within).toEqual([project, outside]);
    }
    const bad = await loadProjectFile(join(project, "musicsync.yaml"), {});
    expect(bad.issues).toEqual([]);
    await writeFile(join(project, "musicsync.yaml"), `${PROJECT}file_sources: { allow: "/srv" }\n`);
    const refused = await loadProjectFile(join(project, "musicsync.yaml"), {});
    expect(refused.issues.map(formatIssue).join("\n")).toMatch(/musicsync\.yaml:5:\d+ .*file_sources\.allow/);
  });

  it("an account's credentials file, or the project file, is refused even inside the project", async () => {
    await writeFile(join(project, "browser.json"), '{"cookie": "SAPISID=abcdefghijklmnop"}');
    const withAuth =
      "apiVersion: musicsync/v1\nkind: Project\naccounts:\n  default: { auth: browser.json }\n";
    for (const [path, what] of [
      ["../browser.json", "the credentials file of accounts.default.auth"],
      ["../musicsync.yaml", "the project file"],
    ]) {
      const r = await load(path!, withAuth);
      expect(r.recipes, path).toEqual([]);
      expect(r.lines, path).toEqual([
        `${r.recipeFile}:6:49 sources[0].path: ${path} is ${what}: a file source never reads it`,
      ]);
    }
    await symlink(join(project, "browser.json"), join(project, "exports", "list.csv"));
    const linked = await load("../exports/list.csv", withAuth);
    expect(linked.lines.join("\n")).toContain(
      `is the credentials file of accounts.default.auth (through a link, it is ${join(project, "browser.json")})`,
    );
  });

  it("a hidden file or one in a hidden folder (.env, .git) is refused, unless that folder is allowed", async () => {
    await writeFile(join(project, ".env"), "TOKEN=abcdefghijklmnopqrstuvwxyz\n");
    await mkdir(join(project, ".git"));
    await writeFile(join(project, ".git", "config"), "url = https://user:secret@example.com/x\n");
    await symlink(join(project, ".env"), join(project, "exports", "env.txt"));
    for (const [path, hidden] of [
      ["../.env", ".env"],
      ["../.git/config", ".git"],
      ["../exports/env.txt", ".env"],
    ]) {
      const r = await load(path!);
      expect(r.recipes, path).toEqual([]);
      expect(r.lines.join("\n"), path).toContain(`${path} is hidden or in a hidden folder (${hidden})`);
    }
    await mkdir(join(project, ".exports"));
    await writeFile(join(project, ".exports", "list.txt"), "Band - Song\n");
    const allowed = await load("../.exports/list.txt", `${PROJECT}file_sources: { allow: [.exports] }\n`);
    expect(allowed.lines).toEqual([]);
  });

  it("a named pipe or a device is a validate error; a file not there yet is a warning", async () => {
    execFileSync("mkfifo", [join(project, "exports", "pipe.txt")]);
    await symlink("/dev/zero", join(project, "exports", "zero.txt"));
    const pipe = await load("../exports/pipe.txt");
    expect(pipe.lines).toEqual([
      `${pipe.recipeFile}:6:49 sources[0].path: ../exports/pipe.txt is a named pipe, not a regular file`,
    ]);
    const zero = await load("../exports/zero.txt");
    // A link to /dev/zero is outside the project before it is a device.
    expect(zero.lines.join("\n")).toContain("is outside the folder");
    const missing = await load("../exports/later.txt");
    expect(missing.lines).toEqual([]);
    expect(missing.warnings.map(formatIssue)).toEqual([
      expect.stringMatching(/imported\.yaml:6:49 warning: .*later\.txt does not exist \(yet\)/),
    ]);
  });

  it("a socket, a NUL in the path, a control character: each said plainly, nothing printed raw", async () => {
    const server = createServer();
    await new Promise<void>((done) => server.listen(join(project, "exports", "sock.csv"), done));
    try {
      const socket = await load("../exports/sock.csv");
      expect(socket.lines).toEqual([
        `${socket.recipeFile}:6:49 sources[0].path: ../exports/sock.csv is a socket, not a regular file`,
      ]);
    } finally {
      server.close();
    }
    const nul = await load("a\0b.csv");
    expect(nul.lines).toEqual([
      `${nul.recipeFile}:6:49 sources[0].path: a\\u{0}b.csv holds a NUL character, which no file name can`,
    ]);
    // A right-to-left override in a warning would reorder the terminal's line: shown as an escape.
    const rtl = await load("../exports/\u202Egnp.txt");
    expect(rtl.warnings.map(formatIssue).join("\n")).toContain("../exports/\\u{202e}gnp.txt does not exist");
  });

  it("a recipe checked without a project file reads only beside itself", async () => {
    const recipeFile = join(project, "recipes", "imported.yaml");
    await writeFile(join(project, "recipes", "here.txt"), "Band - Song\n");
    await writeFile(recipeFile, recipe("here.txt"));
    expect((await loadRecipePaths([recipeFile])).issues).toEqual([]);
    await writeFile(recipeFile, recipe("../exports/list.txt"));
    expect((await loadRecipePaths([recipeFile])).issues.map(formatIssue).join("\n")).toContain(
      `is outside the folder ${join(project, "recipes")}`,
    );
  });

  it("a file swapped for a link after loading is refused when read, before any search", async () => {
    const r = await load("../exports/list.txt");
    const spec = r.recipes[0]!.recipe.sources[0] as FileSource;
    await unlink(join(project, "exports", "list.txt"));
    await symlink(join(outside, "secret.txt"), join(project, "exports", "list.txt"));
    await expect(readFileSource(spec, noSearch)).rejects.toThrow(
      `is outside the folders it may be read from (it is ${join(outside, "secret.txt")})`,
    );
    // A source whose folders the loader did not set reads nothing.
    await expect(readFileSource({ ...spec, within: [] }, noSearch)).rejects.toThrow(/is outside the folders/);
  });

  it("musicsync validate exits 1 with the line, and names nothing of the file's content", async () => {
    await load("../../elsewhere/secret.txt");
    const out = screen(false);
    const err = screen(false);
    const code = await main(["-p", join(project, "musicsync.yaml"), "validate"], {
      stdout: out.stream,
      stderr: err.stream,
      env: {},
    });
    expect(code).toBe(1);
    expect(err.text()).toContain("imported.yaml:6:49 sources[0].path: ../../elsewhere/secret.txt is outside");
    expect(out.text() + err.text()).not.toContain("Secret Song");
  });
});
