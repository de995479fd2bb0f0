/** Arguments checked before any read: a run id as typed, and a file `-o` can write. */
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CliError } from "./io.js";

/**
 * A run id: digits (an optional leading `#`), a whole number from 1 up that the state can hold.
 * The error repeats the text as typed: a 20-digit id must not come back rounded to another number.
 */
export function runIdArg(text: string, hint = "musicsync history lists them"): number {
  const digits = text.startsWith("#") ? text.slice(1) : text;
  const id = /^\d+$/.test(digits) ? Number(digits) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new CliError(`"${text}" is not a run id (${hint})`);
  return id;
}

/** A whole number for an option (`--max-age-days 30`); the error names the option. */
export function wholeNumberArg(text: string, option: string): number {
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new CliError(`${option}: "${text}" is not a whole number`);
  return n;
}

/** `-o file`: its folder must exist, checked before the service is read (a plan is never made in vain). */
export function outputFileArg(path: string, option = "-o"): string {
  const folder = dirname(resolve(path));
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new CliError(`${option} ${path}: the folder ${folder} does not exist`);
  if (existsSync(path) && statSync(path).isDirectory()) throw new CliError(`${option} ${path}: is a folder`);
  return path;
}

/** An argument as a command we suggest shows it, quoted for a POSIX shell when it needs to be. */
export function shellWord(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}
