/**
 * Questions on a terminal, for the commands that ask (`match --interactive`, `import`): one line
 * per answer. The end of input (Ctrl-D) and Ctrl-C are answers too (null), so a command can keep
 * what was decided and stop, rather than hang on a question nobody can answer: readline's own
 * `question()` never settles once its input has ended.
 */
import type { Interface } from "node:readline";
import type { CliIo } from "./io.js";

export interface Asker {
  /** Shows `question` and resolves to the line typed (untrimmed), or null at the end of input or on Ctrl-C. */
  ask(question: string): Promise<string | null>;
  close(): void;
}

/** A terminal to ask on (stdin a TTY), or null when there is none (a pipe, a file, a CI job). */
export async function terminalAsker(io: CliIo): Promise<Asker | null> {
  const input = io.stdin ?? process.stdin;
  if (!input.isTTY) return null;
  const { createInterface } = await import("node:readline");
  const rl = createInterface({ input, output: io.stdout, terminal: io.stdout.isTTY === true });
  return linesOf(rl, io);
}

function linesOf(rl: Interface, io: CliIo): Asker {
  const typed: string[] = [];
  let waiting: ((line: string | null) => void) | null = null;
  let closed = false;
  const answer = (line: string | null) => {
    const w = waiting;
    waiting = null;
    w?.(line);
  };
  rl.on("line", (line) => (waiting ? answer(line) : typed.push(line)));
  rl.on("close", () => {
    closed = true;
    answer(null);
  });
  // In raw mode readline takes Ctrl-C itself; otherwise the process gets SIGINT. Either way: quit.
  const interrupt = () => {
    io.stdout.write("\n");
    rl.close();
  };
  rl.on("SIGINT", interrupt);
  process.on("SIGINT", interrupt);
  rl.on("close", () => process.off("SIGINT", interrupt));
  return {
    ask(question) {
      const line = typed.shift();
      // Lines typed ahead (a paste) answer in turn, also once the input has ended.
      if (closed) return Promise.resolve(line ?? null);
      rl.setPrompt(question);
      rl.prompt();
      if (line !== undefined) return Promise.resolve(line);
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    close: () => rl.close(),
  };
}
