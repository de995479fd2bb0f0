/** `musicsync init`: the files it writes, that it never overwrites without --force, and its questions. */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadProjectFile, loadRecipePaths } from "../../../engine/recipe/load.js";
import { musicsync } from "../../support/cli-process.js";
import { musicsyncInProc as run } from "../../support/musicsync-inproc.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "musicsync-init-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const read = (name: string) => readFile(join(dir, name), "utf8");

async function loads(folder: string) {
  const { project, issues } = await loadProjectFile(join(folder, "musicsync.yaml"));
  expect(issues).toEqual([]);
  const recipes = await loadRecipePaths([join(folder, "recipes")], { project });
  expect(recipes.issues).toEqual([]);
  return { project: project!, recipes: recipes.recipes };
}

describe("musicsync init", () => {
  it("--emulator writes a project on the embedded emulator, a starter recipe and a .gitignore", async () => {
    const target = join(dir, "new", "project");
    const r = await run(["init", target, "--emulator"]);
    expect(r.code).toBe(0);
    // The next steps type the commands by name, as the README puts them on the PATH (not npx).
    expect(r.stdout).toMatch(/^Next:\n {2}cd .+\n {2}musicsync doctor\n {2}musicsync sync --dry-run\n$/m);
    const { project, recipes } = await loads(target);
    expect(project.accounts.default!.emulator).toMatchObject({ db: "emulator.db", account: 1 });
    expect(project.accounts.default!.auth).toBeNull();
    expect(recipes.map((x) => x.recipe.sources[0]!.type)).toEqual(["chart"]);
    // The first lines point editors at the shipped schemas, by paths that lead to them.
    for (const [file, schema] of [
      [join(target, "recipes", "starter.yaml"), "recipe.schema.json"],
      [join(target, "musicsync.yaml"), "project.schema.json"],
    ] as const) {
      const first = (await readFile(file, "utf8")).split("\n")[0]!;
      const m = /^# yaml-language-server: \$schema=(\S+)$/.exec(first);
      expect(m?.[1]?.endsWith(`recipes/${schema}`)).toBe(true);
      expect(existsSync(resolve(dirname(file), m![1]!))).toBe(true);
    }
    const ignore = await readFile(join(target, ".gitignore"), "utf8");
    expect(ignore.split("\n")).toEqual(
      expect.arrayContaining(["musicsync.db*", "emulator.db*", "browser.json"]),
    );
  });

  it("--auth and --account write a project for a real account", async () => {
    const r = await run(["init", dir, "--auth", "secrets/me.json", "--account", "me", "--yes"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("secrets/me.json");
    const { project, recipes } = await loads(dir);
    expect(Object.keys(project.accounts)).toEqual(["me"]);
    expect(project.accounts.me).toMatchObject({ auth: "secrets/me.json", emulator: null });
    expect(project.defaults.account).toBe("me");
    expect(recipes[0]!.recipe.account).toBe("me");
    expect((await read(".gitignore")).split("\n")).toContain("secrets/me.json");
  });

  it("never overwrites a file without --force: exit 1 naming it, nothing written", async () => {
    await writeFile(join(dir, "musicsync.yaml"), "keep me\n");
    const r = await run(["init", dir, "--emulator"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(join(dir, "musicsync.yaml"));
    expect(r.stderr).not.toContain(".gitignore");
    expect(await read("musicsync.yaml")).toBe("keep me\n");
    expect(existsSync(join(dir, ".gitignore"))).toBe(false);
    expect(existsSync(join(dir, "recipes"))).toBe(false);

    const forced = await run(["init", dir, "--emulator", "--force"]);
    expect(forced.code).toBe(0);
    expect(await read("musicsync.yaml")).toContain("emulator:");
  });

  it("refuses an existing recipe file too", async () => {
    await mkdir(join(dir, "recipes"));
    await writeFile(join(dir, "recipes", "starter.yaml"), "mine\n");
    const r = await run(["init", dir, "--emulator"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(join("recipes", "starter.yaml"));
    expect(await read("recipes/starter.yaml")).toBe("mine\n");
  });

  it("asks for the credentials file and the account when a prompt is there and no flag says", async () => {
    const questions: string[] = [];
    const answers = ["creds/headers.json", "work"];
    const r = await run(["init", dir], {
      prompt: async (q) => {
        questions.push(q);
        return answers.shift()!;
      },
    });
    expect(r.code).toBe(0);
    expect(questions).toHaveLength(2);
    expect(questions[0]).toContain("[browser.json]");
    expect(questions[1]).toContain("[default]");
    const { project } = await loads(dir);
    expect(project.accounts.work!.auth).toBe("creds/headers.json");
  });

  it("asks on a terminal (stdin a TTY); an empty answer keeps the default", async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    // Each answer is typed once its question is shown, as a person would.
    const answers: Record<string, string> = { "Credentials file": "\n", "Account name": "family\n" };
    const watch = (text: string) => {
      for (const [question, answer] of Object.entries(answers))
        if (text.includes(question)) setImmediate(() => stdin.write(answer));
    };
    const r = await run(["init", dir], { stdin, watch });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Account name [default]");
    const { project } = await loads(dir);
    expect(project.accounts.family!.auth).toBe("browser.json");
  });

  it("asks nothing without a terminal, or with --yes", async () => {
    const asked: string[] = [];
    const prompt = async (q: string) => {
      asked.push(q);
      return "x";
    };
    expect((await run(["init", dir, "--yes"], { prompt })).code).toBe(0);
    expect(asked).toEqual([]);
    const other = join(dir, "b");
    expect((await run(["init", other])).code).toBe(0);
    expect((await loads(other)).project.accounts.default!.auth).toBe("browser.json");
    expect(dirname(other)).toBe(dir);
  });

  it("refuses an account name the project file cannot hold", async () => {
    const r = await run(["init", dir, "--account", "my account"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--account");
    expect(existsSync(join(dir, "musicsync.yaml"))).toBe(false);
  });
});

describe("musicsync init with a URL", () => {
  it("refuses a URL where the folder goes, pointing at --base-url, and makes nothing", async () => {
    const r = await musicsync(["init", "http://127.0.0.1:8080"], {}, dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"http://127.0.0.1:8080" is a URL, not a folder; nothing written');
    expect(r.stderr).toContain("--base-url http://127.0.0.1:8080");
    expect(await readdir(dir)).toEqual([]);
  });

  it("--base-url writes the account at that URL, with the headers file it signs in with", async () => {
    const r = await run(["init", dir, "--base-url", "http://127.0.0.1:8080", "--yes"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("curl -s http://127.0.0.1:8080/_emulator/accounts/1/headers -o browser.json");
    const { project } = await loads(dir);
    expect(project.accounts.default).toMatchObject({
      auth: "browser.json",
      base_url: "http://127.0.0.1:8080",
    });
  });

  it("refuses --base-url that is no http(s) URL, or with --emulator, before writing", async () => {
    for (const args of [
      ["--base-url", "127.0.0.1:8080"],
      ["--base-url", "http://127.0.0.1:8080", "--emulator"],
    ]) {
      const r = await run(["init", dir, ...args, "--yes"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("--base-url");
      expect(await readdir(dir)).toEqual([]);
    }
  });
});

describe("musicsync init never repeats a password given in a URL", () => {
  it("in the folder's place or in --base-url: refused, the password not shown, nothing written", async () => {
    const secret = "hunter2-very-secret";
    for (const args of [
      [`https://me:${secret}@example.org/x`],
      [dir, "--base-url", `http://me:${secret}@127.0.0.1:8080`, "--yes"],
      [dir, "--base-url", `ftp://me:${secret}@127.0.0.1`, "--yes"],
    ]) {
      // From the test's folder: a URL taken for a folder would be made there, not in the clone.
      const r = await musicsync(["init", ...args], {}, dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("***@");
      expect(`${r.stdout}${r.stderr}`).not.toContain(secret);
      expect(await readdir(dir)).toEqual([]);
    }
  });
});
