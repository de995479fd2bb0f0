/**
 * The bench scripts' command lines, read one way (`node:util` parseArgs): numeric flags with a
 * default and a least value, switches, one text flag where a script needs it, and positionals.
 * A value that is not a number, or is under its least, or a flag the script does not know, is
 * refused with a message naming the script and the flag, rather than quietly measuring something
 * else than was asked.
 */
import { parseArgs } from "node:util";

/** A numeric flag: its default, and whether 0 is a value it takes (else it must be above 0). */
export interface NumberFlag {
  default: number;
  zero?: boolean;
}

export interface BenchArgSpec<N extends string, S extends string, T extends string> {
  /** The script's name for messages, e.g. `bench/emulator`. */
  script: string;
  numbers?: Record<N, NumberFlag>;
  /** Flags without a value (`--no-churn`): true when given. */
  switches?: readonly S[];
  /** Flags whose value is kept as written, with their defaults. */
  texts?: Record<T, string>;
  /** Positional arguments as numbers, by name, in order. */
  positionals?: readonly { name: string; flag: NumberFlag }[];
}

export interface BenchArgs<N extends string, S extends string, T extends string> {
  numbers: Record<N, number>;
  switches: Record<S, boolean>;
  texts: Record<T, string>;
  positionals: Record<string, number>;
}

function toNumber(script: string, what: string, raw: string | undefined, flag: NumberFlag): number {
  if (raw === undefined) return flag.default;
  const value = raw.trim() === "" ? Number.NaN : Number(raw);
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !flag.zero)) {
    const range = flag.zero ? "0 or more" : "above 0";
    throw new Error(`${script}: ${what} must be a number ${range}, not ${JSON.stringify(raw)}`);
  }
  return value;
}

/** Reads `argv` (default: this process's arguments) against the script's flags. */
export function benchArgs<N extends string = never, S extends string = never, T extends string = never>(
  spec: BenchArgSpec<N, S, T>,
  argv: readonly string[] = process.argv.slice(2),
): BenchArgs<N, S, T> {
  const numbers = (spec.numbers ?? {}) as Record<N, NumberFlag>;
  const texts = (spec.texts ?? {}) as Record<T, string>;
  const options: Record<string, { type: "string" | "boolean" }> = {};
  for (const name of Object.keys(numbers)) options[name] = { type: "string" };
  for (const name of Object.keys(texts)) options[name] = { type: "string" };
  for (const name of spec.switches ?? []) options[name] = { type: "boolean" };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: (spec.positionals ?? []).length > 0 });
  } catch (error) {
    throw new Error(`${spec.script}: ${(error as Error).message}`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const out: BenchArgs<N, S, T> = {
    numbers: {} as Record<N, number>,
    switches: {} as Record<S, boolean>,
    texts: {} as Record<T, string>,
    positionals: {},
  };
  for (const [name, flag] of Object.entries(numbers) as [N, NumberFlag][]) {
    out.numbers[name] = toNumber(spec.script, `--${name}`, values[name] as string | undefined, flag);
  }
  for (const name of spec.switches ?? []) out.switches[name] = values[name] === true;
  for (const [name, fallback] of Object.entries(texts) as [T, string][]) {
    out.texts[name] = (values[name] as string | undefined) ?? fallback;
  }
  const given = parsed.positionals;
  const expected = spec.positionals ?? [];
  if (given.length > expected.length) {
    throw new Error(`${spec.script}: unexpected argument ${JSON.stringify(given[expected.length])}`);
  }
  expected.forEach(({ name, flag }, i) => {
    out.positionals[name] = toNumber(spec.script, name, given[i], flag);
  });
  return out;
}

/** benchArgs for a script's own command line: a refused one is said and exits 2 (no stack: not a bug). */
export function commandLine<N extends string = never, S extends string = never, T extends string = never>(
  spec: BenchArgSpec<N, S, T>,
): BenchArgs<N, S, T> {
  try {
    return benchArgs(spec);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}
