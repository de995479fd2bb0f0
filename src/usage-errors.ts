/**
 * Commander's usage errors (an unknown command or option, a missing argument) as one line: the
 * error, commander's "Did you mean …?", and which `--help` lists what there is. Without this a
 * typo printed the whole help, burying the one line that says what was wrong.
 */
import type { Command } from "commander";

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/** Sets every command of the tree (call it once all are added) to say its usage errors in one line. */
export function oneLineUsageErrors(root: Command): void {
  const pending = [root];
  for (let c = pending.pop(); c; c = pending.pop()) {
    const help = `see \`${commandPath(c)} --help\``;
    c.showHelpAfterError(false).configureOutput({
      // Commander puts its suggestion on a line of its own: "error: …\n(Did you mean apply?)\n".
      outputError: (text, write) => write(`${text.trim().replace(/\s*\n\s*/g, " ")}; ${help}\n`),
    });
    pending.push(...c.commands);
  }
}
