/**
 * `musicsync match`, `import` and `export`: playlist files in and out (each action loads its module
 * when it runs).
 */
import { Option } from "commander";
import { FILE_FORMATS } from "../../../engine/files/types.js";
import type { ExportOptions } from "../export.js";
import type { ImportOptions } from "../import.js";
import type { CommandRun, MusicsyncCommand } from "../io.js";
import type { MatchOptions } from "../match.js";

/** The file's format, for a command that reads one. */
const formatOfFile = () =>
  new Option("--format <format>", "the file's format (default: from its extension)").choices(FILE_FORMATS);

export const match: MusicsyncCommand = {
  name: "match",
  description:
    "match a playlist file's (or another service's list's) entries to songs, with each score and its reasons",
  arguments: [
    [
      "<file>",
      "a CSV, M3U/M3U8, XSPF, JSON or text file; or spotify:playlist:<id>, spotify:liked, spotify:albums, spotify:artists, listenbrainz:playlist:<mbid>, listenbrainz:<user>:<series>, lastfm:<user>:<loved|recent|top>",
    ],
  ],
  options: [
    formatOfFile(),
    ["--account <name>", "the account to search with (default: the project's first)"],
    ["--overrides <file>", "the matches.yaml to read (default: beside the project's recipes)"],
    ["--write-overrides", "draft the matches into the overrides file for review"],
    ["-i, --interactive", "on a terminal: pick the video (album, artist) for each tie and unsure entry"],
  ],
  action: async (run: CommandRun, file: string, o: MatchOptions) => {
    await (await import("../match.js")).match(run, file, o);
  },
};

export const importFile: MusicsyncCommand = {
  name: "import",
  description:
    "a playlist file into a new playlist: writes its recipe and matches.yaml, plans, syncs once confirmed",
  arguments: [["<file>", "a CSV, M3U/M3U8, XSPF, JSON or text file in the project folder"]],
  options: [
    new Option("--to <title>", "the new playlist's title").makeOptionMandatory(),
    ["--id <id>", "the recipe's id (default: from the title)"],
    formatOfFile(),
    ["--account <name>", "the account (default: the project's default account)"],
    ["-y, --yes", "apply the plan without asking (scripts)"],
  ],
  action: async (run: CommandRun, file: string, o: ImportOptions) => {
    await (await import("../import.js")).importFile(run, file, o);
  },
};

export const exportList: MusicsyncCommand = {
  name: "export",
  description: "write a playlist, your liked songs or your library's songs to a file",
  arguments: [["<what>", "a playlist id, `liked` or `library`"]],
  options: [
    new Option("--format <format>", "default: from -o's extension, else csv").choices(FILE_FORMATS),
    ["-o, --out <file>", "write to this file (default: standard output)"],
    ["--account <name>", "the account to read (default: the project's first)"],
  ],
  action: async (run: CommandRun, what: string, o: ExportOptions) => {
    await (await import("../export.js")).exportList(run, what, o);
  },
};
