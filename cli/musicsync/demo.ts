/** `musicsync demo`: the shipped recipes against an embedded emulator (loaded only for this command). */
import { runDemo } from "../../engine/demo/demo.js";
import { CliError, type CommandRun, Exit } from "./io.js";
import { commandLogger } from "./log.js";
import { progress } from "./progress.js";
import { exitOf } from "./runs.js";

/** A flag's whole number, refused in one line before the emulator starts. */
function whole(text: string, flag: string, least: number): number {
  if (!/^\d+$/.test(text) || Number(text) < least)
    throw new CliError(`${flag}: "${text}" is not a whole number of at least ${least}`);
  return Number(text);
}

export async function demo(run: CommandRun, o: { catalogueSize: string; seed: string }): Promise<void> {
  const { io, g } = run;
  const catalogueSize = whole(o.catalogueSize, "--catalogue-size", 1);
  const seed = whole(o.seed, "--seed", 0);
  const bar = progress(io, g);
  try {
    const result = await runDemo({
      // Through the bar's streams, which take it off the screen before each write (progress.ts).
      out: (t) => bar.io.stdout.write(t),
      logger: commandLogger(bar.io, g),
      catalogueSize,
      seed,
      ...(bar.onAction ? { onAction: bar.onAction } : {}),
    });
    run.setExit(result.converged ? exitOf(result.runs) : Exit.PARTIAL);
  } finally {
    bar.stop();
  }
}
