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

/** A word shown back as typed: short letters and dashes, as command and option names are. */
const NAME_LIKE = /^(--?)?[a-z][a-z-]{0,30}$/i;

/**
 * The error on one line, without the value of an unknown `--option=value`: it may be a credential
 * typed after a mistyped option name (`--authh=…`), and the name alone says what was wrong. An
 * unknown command or option is shown only when it looks like a name: a credential pasted where a
 * command goes (a cookie, a token: digits, dots, `=`, `/`, or long) is shown as `…`.
 */
function oneLine(text: string): string {
  return text
    .trim()
    .replace(/\s*\n\s*/g, " ")
    .replace(
      /^(error: unknown (command|option) ')([^']*)'/,
      (_all, head: string, kind: string, word: string) => {
        // An option's name is what the person mistyped; a command has no `=` part to set aside.
        const [name = "", ...value] = kind === "option" ? word.split("=") : [word];
        const shown = NAME_LIKE.test(name) ? name + (value.length > 0 ? "=…" : "") : "…";
        return `${head}${shown}'`;
      },
    );
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
