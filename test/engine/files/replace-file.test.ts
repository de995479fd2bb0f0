/**
 * matches.yaml and recipes are written whole or not at all (engine/files/replace-file.ts): a link
 * stays a link, permissions stay, no temporary file is left, and a new file never replaces one
 * that has its name.
 */
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFile, replaceFile } from "../../../engine/files/replace-file.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "replace-file-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("replaceFile", () => {
  it("replaces the file a link leads to, keeps its permissions, and leaves nothing beside it", async () => {
    const real = join(dir, "shared.yaml");
    await writeFile(real, "old\n");
    await chmod(real, 0o640);
    const link = join(dir, "matches.yaml");
    await symlink(real, link);
    await replaceFile(link, "new\n");
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(real, "utf8")).toBe("new\n");
    expect((await stat(real)).mode & 0o777).toBe(0o640);
    expect((await readdir(dir)).sort()).toEqual(["matches.yaml", "shared.yaml"]);
  });

  it("a rename that fails (a folder has the name) leaves no temporary file behind", async () => {
    const folder = join(dir, "matches.yaml");
    await mkdir(folder);
    await writeFile(join(folder, "inside"), "kept\n");
    await expect(replaceFile(folder, "new\n")).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(await readdir(dir)).toEqual(["matches.yaml"]);
    expect(await readFile(join(folder, "inside"), "utf8")).toBe("kept\n");
  });
});

describe("createFile", () => {
  it("writes a new file, and refuses (EEXIST) one that has the name, leaving it as it was", async () => {
    const file = join(dir, "old-favourites.yaml");
    await createFile(file, "recipe\n");
    expect(await readFile(file, "utf8")).toBe("recipe\n");
    await expect(createFile(file, "other\n")).rejects.toMatchObject({ code: "EEXIST" });
    expect(await readFile(file, "utf8")).toBe("recipe\n");
    expect(await readdir(dir)).toEqual(["old-favourites.yaml"]);
  });
});
