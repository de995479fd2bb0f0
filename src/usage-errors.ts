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

/**
 * The error on one line, without the value of an unknown `--option=value`: it may be a credential
 * typed after a mistyped option name (`--authh=…`), and the name alone says what was wrong.
 */
function oneLine(text: string): string {
  return text
    .trim()
    .replace(/\s*\n\s*/g, " ")
    .replace(/^(error: unknown option '[^'=]*)=[^']*'/, "$1=…'");
}

/** Sets every command of the tree (call it once all are added) to say its usage errors in one line. */
export function oneLineUsageErrors(root: Command): void {
  const pending = [root];
  for (let c = pending.pop(); c; c = pending.pop()) {
    const help = `see \`${commandPath(c)} --help\``;
    c.showHelpAfterError(false).configureOutput({
      // Commander puts its suggestion on a line of its own: "error: …\n(Did you mean apply?)\n".
      outputError: (text, write) => write(`${oneLine(text)}; ${help}\n`),
    });
    pending.push(...c.commands);
  }
}
