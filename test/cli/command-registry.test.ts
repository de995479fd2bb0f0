/**
 * The command-line programs as lists of command modules (cli/command.ts): a module builds the same
 * commander command a definition written inline did, its action gets its program's context, and
 * `--help` loads none of what the commands load when they run. That nothing below cli/ imports the
 * programs or commander is one of the floors test/architecture/imports.test.ts holds.
 */
import { Command, Option } from "commander";
import { describe, expect, it } from "vitest";
import { modulesOf } from "../../bench/loaded-modules.js";
import { addCommands, type CommandModule } from "../../cli/command.js";
import { COMMANDS as MUSICAPI_COMMANDS } from "../../cli/musicapi/commands.js";
import { COMMANDS as MUSICSYNC_COMMANDS } from "../../cli/musicsync/commands/index.js";
import { ensureBuilt, MAIN, MUSICAPI } from "../support/cli-process.js";

interface Seen {
  context: string;
  parsed: unknown[];
}

/** A program whose commands write their help and errors into `out`, as musicsync's root does. */
function root(out: string[]): Command {
  return new Command("prog")
    .option("--json", "machine-readable")
    .configureOutput({ writeOut: (s) => out.push(s), writeErr: (s) => out.push(s) })
    .exitOverride();
}

const seen: Seen[] = [];
const copy: CommandModule<string> = {
  name: "copy",
  summary: "copy a thing",
  description: "copy a thing somewhere, at length",
  arguments: [
    ["<from>", "where from"],
    ["[to]", "where to", "."],
  ],
  options: [
    ["-n, --count <n>", "how many", "3"],
    ["--dry-run", "write nothing"],
    new Option("--format <format>", "the format").choices(["csv", "json"]),
    new Option("--secret <s>", "hidden").hideHelp(),
  ],
  action: async (context: string, ...parsed: unknown[]) => {
    seen.push({ context, parsed });
  },
};
const group: CommandModule<string> = {
  name: "group",
  description: "things in groups",
  subcommands: [{ name: "list", description: "list them", action: copy.action }],
};

/** The same two commands written inline, as the programs defined them before. */
function inline(out: string[]): Command {
  const program = root(out);
  program
    .command("copy")
    .summary("copy a thing")
    .description("copy a thing somewhere, at length")
    .argument("<from>", "where from")
    .argument("[to]", "where to", ".")
    .option("-n, --count <n>", "how many", "3")
    .option("--dry-run", "write nothing")
    .addOption(new Option("--format <format>", "the format").choices(["csv", "json"]))
    .addOption(new Option("--secret <s>", "hidden").hideHelp())
    .action(() => {});
  program.command("group").description("things in groups").command("list").description("list them");
  return program;
}

function fromModules(out: string[]): Command {
  const program = root(out);
  addCommands(program, [copy, group], (c) => `context of ${c.name()}`);
  return program;
}

describe("a command module", () => {
  it("builds the help an inline definition had: the program's, the command's and a subcommand's", () => {
    for (const args of [["--help"], ["copy", "--help"], ["group", "--help"], ["group", "list", "--help"]]) {
      const a: string[] = [];
      const b: string[] = [];
      expect(() => inline(a).parse(args, { from: "user" })).toThrow();
      expect(() => fromModules(b).parse(args, { from: "user" })).toThrow();
      expect(b.join("")).toBe(a.join(""));
      expect(b.join("")).not.toContain("--secret");
    }
  });

  it("hands its action the program's context, the arguments in order, then the options", async () => {
    seen.length = 0;
    await fromModules([]).parseAsync(["copy", "a", "--format", "csv"], { from: "user" });
    await fromModules([]).parseAsync(["group", "list"], { from: "user" });
    expect(seen).toEqual([
      { context: "context of copy", parsed: ["a", ".", { count: "3", format: "csv" }] },
      { context: "context of list", parsed: [{}] },
    ]);
  });

  it("inherits its parent's output and exit settings, so a usage error goes where the program's does", () => {
    const out: string[] = [];
    expect(() => fromModules(out).parse(["group", "list", "--nope"], { from: "user" })).toThrow(
      /unknown option/,
    );
    expect(out.join("")).toMatch(/^error: unknown option '--nope'/);
  });

  it("each program lists every command once, under a name of its own", () => {
    for (const list of [MUSICAPI_COMMANDS, MUSICSYNC_COMMANDS]) {
      const names = list.map((c) => c.name);
      expect(new Set(names).size).toBe(names.length);
      for (const c of list) expect(c.action !== undefined || (c.subcommands ?? []).length > 0).toBe(true);
    }
  });
});

describe("the programs are on top", () => {
  it("--help of either program loads no command's own modules: no engine, emulator or client beyond the scrubbing", async () => {
    await ensureBuilt();
    const sync = modulesOf([MAIN, "--help"]);
    for (const folder of ["engine/daemon", "engine/worker", "engine/state", "engine/accounts", "engine/web"])
      expect(sync).not.toContain(folder);
    const api = modulesOf([MUSICAPI, "--help"]);
    expect(api).toContain("cli/musicapi");
    for (const folder of ["emulator", "engine", "src/auth", "src/operations", "undici", "better-sqlite3"])
      expect(api.filter((m) => m === folder || m.startsWith(`${folder}/`))).toEqual([]);
  });
});
