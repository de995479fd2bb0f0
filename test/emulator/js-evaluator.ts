/**
 * The JavaScript evaluator youtubei.js asks its users to provide before it can decipher stream URLs
 * (its Node build ships none: `Platform.shim.eval` throws until one is set). Ours runs the code
 * youtubei.js extracted from the emulator's player script in a fresh `node:vm` context, with a
 * generous time limit only as a guard against a script that never returns.
 */
import { runInNewContext } from "node:vm";
import { Platform } from "youtubei.js";

type Evaluate = typeof Platform.shim.eval;

/** Runs youtubei.js's extracted script: its text ends in a `return`, so it is a function body. */
export const evaluateInVm: Evaluate = (data) =>
  runInNewContext(`(function(){\n${data.output}\n})()`, {}, { timeout: 10_000 });

/** Sets the evaluator youtubei.js uses for every later `decipher`. */
export function provideEvaluator(): void {
  Platform.shim.eval = evaluateInVm;
}
