/**
 * docs/ENGINE.md#bad-input: every file a person names is read only if it is a regular file, and never
 * past its bound: /dev/zero, a named pipe, a link to either, a folder and a huge sparse file are
 * refused, by each reader (the helper, a `file` source, matches.yaml, a recipe, the project file,
 * a saved plan, a credentials file, an account's auth file), with a message naming the file and
 * what it is.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../cli/musicsync/main.js";
import { readEntriesFile } from "../../../engine/files/index.js";
import { PLAYLIST_FILE_BOUNDS } from "../../../engine/files/limits.js";
import { loadOverrides } from "../../../engine/files/overrides.js";
import { FileReadError, readRegularFile } from "../../../engine/files/read-regular.js";
import { formatIssue } from "../../../engine/recipe/errors.js";
import { loadProjectFile, loadRecipePaths } from "../../../engine/recipe/load.js";
import { authOption } from "../../../engine/run/auth-setting.js";
import { screen } from "../../support/cli-process.js";

let dir: string;
/** Each hostile path, with what the refusal must say it is. */
let cases: [name: string, path: string, says: RegExp][];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "not-a-file-"));
  const fifo = join(dir, "pipe.csv");
  execFileSync("mkfifo", [fifo]);
  const sparse = join(dir, "sparse.csv");
  await writeFile(sparse, "Title\n");
  await truncate(sparse, 100 * 1024 * 1024);
  await mkdir(join(dir, "folder.csv"));
  await symlink("/dev/zero", join(dir, "zero-link.csv"));
  await symlink(fifo, join(dir, "pipe-link.csv"));
  cases = [
    ["/dev/zero", "/dev/zero", /is a character device, not a regular file/],
    ["a named pipe", fifo, /is a named pipe, not a regular file/],
    ["a link to /dev/zero", join(dir, "zero-link.csv"), /is a character device, not a regular file/],
    ["a link to a named pipe", join(dir, "pipe-link.csv"), /is a named pipe, not a regular file/],
    ["a directory", join(dir, "folder.csv"), /is a directory, not a regular file/],
    ["a 100 MiB sparse file", sparse, /the file is 100\.0 MiB; .* at most/],
  ];
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const bounds = { maxBytes: 1024, tooBig: (n: number, over: boolean) => `${over ? "over " : ""}${n} bytes` };

describe("readRegularFile", () => {
  it("refuses each, saying what it is, without hanging or reading it", async () => {
    for (const [name, path, says] of cases) {
      const refusal = readRegularFile(path, PLAYLIST_FILE_BOUNDS);
      await expect(refusal, name).rejects.toBeInstanceOf(FileReadError);
      await expect(refusal, name).rejects.toThrow(says);
    }
  });

  it("stops one byte past the bound when the size says nothing (a /proc file says 0)", async () => {
    await expect(readRegularFile("/proc/self/maps", { ...bounds, maxBytes: 10 })).rejects.toThrow(
      "over 10 bytes",
    );
    const ok = join(dir, "ok.csv");
    await writeFile(ok, "x".repeat(1024));
    expect((await readRegularFile(ok, bounds)).length).toBe(1024);
    await writeFile(ok, "x".repeat(1025));
    await expect(readRegularFile(ok, bounds)).rejects.toThrow("1025 bytes");
  });

  it("says a missing file is missing (ENOENT), for readers that take none as empty", async () => {
    await expect(readRegularFile(join(dir, "none"), bounds)).rejects.toMatchObject({
      code: "ENOENT",
      message: "no such file or directory",
    });
  });
});

describe("every reader of a named file", () => {
  it("a file source's file", async () => {
    for (const [name, path, says] of cases) {
      await expect(readEntriesFile(path, {}), name).rejects.toThrow(says);
    }
  });

  it("matches.yaml: an error at the file, not an endless read", async () => {
    for (const [name, path, says] of cases) {
      const refusal = loadOverrides(path);
      await expect(refusal, name).rejects.toThrow(new RegExp(`^${path}:1:1: ${says.source}`));
    }
  });

  it("a recipe named directly, or by a link in a recipes folder, and the project file", async () => {
    const recipes = join(dir, "recipes");
    await mkdir(recipes);
    for (const [i, [, path]] of cases.entries()) await symlink(path, join(recipes, `r${i}.yaml`));
    // A folder named directly is a folder of recipes; behind a link in one, it is refused.
    const direct = cases.filter(([name]) => name !== "a directory").map(([, path]) => path);
    const r = await loadRecipePaths([recipes, ...direct]);
    const lines = r.issues.map(formatIssue);
    for (const [i, [name, path, says]] of cases.entries()) {
      const recipeSays = name.includes("sparse")
        ? /100\.0 MiB; a recipe or project file may be at most 1 MiB/
        : says;
      const link = join(recipes, `r${i}.yaml`);
      for (const file of direct.includes(path) ? [path, link] : [link]) {
        expect(lines.find((l) => l.startsWith(`${file}:1:1 `)) ?? `${file}: no issue`, name).toMatch(
          recipeSays,
        );
      }
      const project = await loadProjectFile(path);
      expect(project.project, name).toBeNull();
      expect(project.issues.map(formatIssue).join("\n"), name).toMatch(recipeSays);
    }
  });
});

describe("commands that read a file named on the command line", () => {
  async function run(args: string[]) {
    const err = screen(false);
    const code = await main(["-p", join(dir, "none.yaml"), ...args], {
      stdout: screen(false).stream,
      stderr: err.stream,
      env: {},
    });
    return { code, stderr: err.text() };
  }

  it("apply <plan> and accounts add --auth <file>: exit 1 naming the file and what it is", async () => {
    for (const [name, path, says] of cases) {
      for (const args of [
        ["apply", path],
        ["accounts", "add", "me", "--auth", path],
      ]) {
        const r = await run(args);
        expect(r.code, `${args[0]} ${name}`).toBe(1);
        const plain = name.includes("sparse") ? /(100\.0 MiB|holds \d+ bytes)/ : says;
        expect(r.stderr, `${args[0]} ${name}`).toMatch(new RegExp(`${path}: .*${plain.source}`));
      }
    }
  });
});

describe("an account's auth file, which the client reads whole", () => {
  it("is refused, naming the setting, before the client could hang on it or read it without end", () => {
    for (const [name, path, says] of cases) {
      const plain = name.includes("sparse") ? /holds 104857600 bytes, more than credentials/ : says;
      expect(() => authOption({ account: "me", setting: "auth", value: path, base: dir }), name).toThrow(
        new RegExp(`^accounts\\.me\\.auth: the file ${path} ${plain.source}`),
      );
    }
  });

  it("plan with such a project exits 1 with the reason, and does not hang", async () => {
    const folder = join(dir, "auth-project");
    await mkdir(join(folder, "recipes"), { recursive: true });
    await writeFile(
      join(folder, "musicsync.yaml"),
      `apiVersion: musicsync/v1\nkind: Project\naccounts:\n  default: { auth: ${join(dir, "pipe.csv")}, base_url: "http://127.0.0.1:9" }\n`,
    );
    await writeFile(
      join(folder, "recipes", "r.yaml"),
      'apiVersion: musicsync/v1\nkind: Recipe\nid: r\nsources: [{ id: s, type: static, videoIds: ["dQw4w9WgXcQ"] }]\ntarget: { type: playlist, playlist: { title: "T" } }\n',
    );
    const err = screen(false);
    const code = await main(["-p", join(folder, "musicsync.yaml"), "plan"], {
      stdout: screen(false).stream,
      stderr: err.stream,
      env: {},
    });
    expect(code).toBe(1);
    // The value is not named like a credentials file, so the engine's scrubber keeps it out.
    expect(err.text()).toMatch(/accounts\.default\.auth: the file .* is a named pipe, not a regular file/);
  });
});
