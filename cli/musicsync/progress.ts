/**
 * The progress bar of a command's writes, on a terminal only. It owns the terminal's last line
 * while it shows: anything the command writes (a plan, a result line, a log line, a Ctrl-C notice)
 * goes through `io`, whose streams take the bar off the screen first, so nothing lands on the bar's
 * line and the bar's teardown never erases what was written (once, the line saying what a
 * sync applied was erased, and the prompt landed inside the output). The next write action shows
 * the bar again, where the output has got to.
 */
import { createRequire } from "node:module";
import type { SingleBar as Bar } from "cli-progress";
import type { EngineEnv } from "../../engine/run/runner.js";
import type { CliIo, GlobalOptions } from "./io.js";

export interface Progress {
  /** The command's streams, each write clearing the bar first: write everything through these. */
  io: CliIo;
  onAction?: EngineEnv["onAction"];
  /** Takes the bar off the screen (its line cleared, the cursor at its start). */
  stop(): void;
}

/** A bar on a terminal; nothing when stdout is a file, a pipe, or `--json`. */
export function progress(io: CliIo, g: GlobalOptions): Progress {
  if (!io.stdout.isTTY || g.json) return { io, stop() {} };
  // cli-progress is loaded only for a terminal (most runs are piped, and it is not small), and
  // synchronously, as a command asks for its bar before it starts.
  const { SingleBar } = createRequire(import.meta.url)("cli-progress") as { SingleBar: typeof Bar };
  // The bar writes to the terminal itself, never through the clearing streams below.
  const bar = new SingleBar({
    format: "{recipe} [{bar}] {value}/{total} writes",
    stream: io.stdout,
    hideCursor: true,
    clearOnComplete: true,
  });
  let run: { recipe: string; total: number; done: number } | null = null;
  let shown = false;
  const stop = () => {
    if (shown) bar.stop();
    shown = false;
  };
  return {
    io: { ...io, stdout: clearing(io.stdout, stop), stderr: clearing(io.stderr, stop) },
    onAction(e) {
      if (run?.recipe !== e.recipeId) {
        stop();
        run = { recipe: e.recipeId, total: e.total, done: 0 };
      }
      if (e.phase !== "sent") run.done++;
      if (shown) bar.update(run.done, { recipe: run.recipe });
      else bar.start(run.total, run.done, { recipe: run.recipe });
      shown = true;
    },
    stop,
  };
}

/** The stream with `before` called ahead of each write. */
function clearing<S extends NodeJS.WritableStream>(stream: S, before: () => void): S {
  return new Proxy(stream, {
    get(target, property) {
      const member: unknown = Reflect.get(target, property, target);
      if (property === "write" && typeof member === "function") {
        return (...args: unknown[]) => {
          before();
          return member.apply(target, args);
        };
      }
      return typeof member === "function" ? member.bind(target) : member;
    },
  });
}
