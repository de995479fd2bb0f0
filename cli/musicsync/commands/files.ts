/**
 * `musicsync match`, `import` and `export`: playlist files in and out (each action loads its module
 * when it runs).
 */
import { type Command, Option } from "commander";
import { FILE_FORMATS } from "../../../engine/recipe/types.js";
import type { ExportOptions } from "../export.js";
import type { ImportOptions } from "../import.js";
import type { CommandRun } from "../io.js";
import type { MatchOptions } from "../match.js";

export function registerFileCommands(cmd: Command, run: (c: Command) => CommandRun): void {
  cmd
    .command("match")
    .description("match a playlist file's entries to songs, with each score and its reasons")
    .argument("<file>", "a CSV, M3U/M3U8, XSPF, JSON or text file")
    .addOption(
      new Option("--format <format>", "the file's format (default: from its extension)").choices(
        FILE_FORMATS,
      ),
    )
    .option("--account <name>", "the account to search with (default: the project's first)")
    .option("--overrides <file>", "the matches.yaml to read (default: beside the project's recipes)")
    .option("--write-overrides", "draft the matches into the overrides file for review")
    .option("-i, --interactive", "on a terminal: pick the video for each tie and unsure entry")
    .action(async (file: string, o: MatchOptions, c: Command) => {
      await (await import("../match.js")).match(run(c), file, o);
    });

  cmd
    .command("import")
    .description(
      "a playlist file into a new playlist: writes its recipe and matches.yaml, plans, syncs once confirmed",
    )
    .argument("<file>", "a CSV, M3U/M3U8, XSPF, JSON or text file in the project folder")
    .requiredOption("--to <title>", "the new playlist's title")
    .option("--id <id>", "the recipe's id (default: from the title)")
    .addOption(
      new Option("--format <format>", "the file's format (default: from its extension)").choices(
        FILE_FORMATS,
      ),
    )
    .option("--account <name>", "the account (default: the project's default account)")
    .option("-y, --yes", "apply the plan without asking (scripts)")
    .action(async (file: string, o: ImportOptions, c: Command) => {
      await (await import("../import.js")).importFile(run(c), file, o);
    });

  cmd
    .command("export")
    .description("write a playlist, your liked songs or your library's songs to a file")
    .argument("<what>", "a playlist id, `liked` or `library`")
    .addOption(
      new Option("--format <format>", "default: from -o's extension, else csv").choices(FILE_FORMATS),
    )
    .option("-o, --out <file>", "write to this file (default: standard output)")
    .option("--account <name>", "the account to read (default: the project's first)")
    .action(async (what: string, o: ExportOptions, c: Command) => {
      await (await import("../export.js")).exportList(run(c), what, o);
    });
}
