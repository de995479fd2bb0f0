/**
 * Issue 22, break 8: the README's own lines draft recipes/matches.yaml (`match --write-overrides`),
 * where the docs put it, and every command after them still loads the recipes: the loader passes
 * over matches.yaml instead of reading it as a recipe (it failed validate, plan, sync and doctor
 * with 64 errors). The lines are taken from README.md as written, and run by the built command.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { musicsync, ROOT } from "../engine/cli-process.js";
import { codeLines } from "./readme-commands.js";

const README = await readFile(join(ROOT, "README.md"), "utf8");
/** The quick start's export and match lines, as the README shows them. */
const LINES = codeLines(README)
  .filter((l) => l.info === "sh quick-start" && /^npx musicsync (export|match) /.test(l.command))
  .map((l) => ({ ...l, args: l.command.replace(/^npx musicsync /, "").split(/\s+/) }));

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe("README: match --write-overrides, then the commands that load the recipes", () => {
  it("drafts recipes/matches.yaml, and validate, plan and doctor still exit as they would without it", {
    timeout: 240_000,
  }, async () => {
    expect(LINES.some((l) => l.args.includes("--write-overrides"))).toBe(true);
    const dir = await mkdtemp(join(tmpdir(), "readme-matches-"));
    dirs.push(dir);
    expect((await musicsync(["init", "--emulator", "my-music"], {}, dir)).code).toBe(0);
    const cwd = join(dir, "my-music");
    for (const line of LINES) {
      const r = await musicsync(line.args, {}, cwd);
      expect(r.code, `README.md:${line.line}: ${line.command}\n${r.stderr}`).toBe(line.exit);
    }
    const drafted = await readFile(join(cwd, "recipes", "matches.yaml"), "utf8");
    expect(drafted).toMatch(/^"[^"]+": [\w-]{11} {2}# /m);
    const expected: [string[], number][] = [
      [["validate"], 0],
      [["plan", "-r", "starter"], 2],
      [["doctor"], 0],
    ];
    for (const [args, code] of expected) {
      const r = await musicsync(args, {}, cwd);
      expect(r.code, `${args.join(" ")}:\n${r.stdout}${r.stderr}`).toBe(code);
      expect(r.stdout + r.stderr, args.join(" ")).not.toContain("matches.yaml");
    }
  });
});
