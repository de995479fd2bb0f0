/** `musicsync undo` (its action loads cli/musicsync/undo.ts when it runs). */
import { Option } from "commander";
import type { CommandRun, MusicsyncCommand } from "../io.js";
import type { UndoOptions } from "../undo.js";

export const undo: MusicsyncCommand = {
  name: "undo",
  description: "take back what a run changed (see `history`); --dry-run or -o only plans it",
  arguments: [["<run-id>", "the run to undo, as `history` numbers it"]],
  options: [
    ["--dry-run", "plan only: write nothing"],
    ["-o, --out <file>", "save the plan for `apply` instead of applying it"],
    ["--delete-created", "also delete a playlist the run created"],
    [
      "--max-age-days <n>",
      "undo runs up to this many days old (default: the project's undo.max_age_days, else 90)",
    ],
    new Option("--markdown", "print the plan as Markdown").conflicts("json"),
  ],
  action: async (run: CommandRun, id: string, o: UndoOptions) => {
    await (await import("../undo.js")).undo(run, id, o);
  },
};
