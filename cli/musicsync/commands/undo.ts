/** `musicsync undo` on the command line (its action loads engine/cli/undo.ts when it runs). */
import { type Command, Option } from "commander";
import type { CommandRun } from "../io.js";
import type { UndoOptions } from "../undo.js";

export function registerUndo(cmd: Command, run: (c: Command) => CommandRun): void {
  cmd
    .command("undo")
    .description("take back what a run changed (see `history`); --dry-run or -o only plans it")
    .argument("<run-id>", "the run to undo, as `history` numbers it")
    .option("--dry-run", "plan only: write nothing")
    .option("-o, --out <file>", "save the plan for `apply` instead of applying it")
    .option("--delete-created", "also delete a playlist the run created")
    .option(
      "--max-age-days <n>",
      "undo runs up to this many days old (default: the project's undo.max_age_days, else 90)",
    )
    .addOption(new Option("--markdown", "print the plan as Markdown").conflicts("json"))
    .action(async (id: string, o: UndoOptions, c: Command) => {
      await (await import("../undo.js")).undo(run(c), id, o);
    });
}
