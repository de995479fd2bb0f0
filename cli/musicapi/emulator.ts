/**
 * `musicapi emulator`: runs the emulator in the foreground until interrupted, printing its URL.
 *
 *   musicapi emulator --port 0 --db :memory: --seed 1 --catalogue 500
 */
import { InvalidArgumentError, Option } from "commander";
import type { EmulatorOptions, RunningEmulator } from "../../emulator/index.js";
import type { MusicapiCommand, MusicapiContext } from "./io.js";

/** Something the emulator cannot run with: one line on stderr and exit code 1, never a stack trace. */
class EmulatorStartError extends Error {}

/**
 * A whole number, negative ones included: what is not a number at all is a command-line mistake
 * (commander's usage error, exit 2); a number out of range is checked with the other values that
 * cannot start an emulator (see `inRange`).
 */
function integer(name: string) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number`);
    return Number(value);
  };
}

function inRange(name: string, value: number, min: number, max: number): number {
  if (value < min || value > max) {
    throw new EmulatorStartError(`${name} must be between ${min} and ${max} (got ${value})`);
  }
  return value;
}

/** An option taking a whole number (`integer`), with its default when it has one. */
function integerOption(flags: string, description: string, defaultValue?: number): Option {
  const name = flags.split(" ")[0]!;
  return new Option(flags, description).default(defaultValue).argParser(integer(name));
}

function rate(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new InvalidArgumentError("the fault rate must be between 0 and 1");
  return n;
}

interface Flags {
  port: number;
  host: string;
  db: string;
  seed: number;
  catalogue: number;
  catalogueSize?: number;
  faultRate?: number;
  faultSeed: number;
}

export const emulator: MusicapiCommand = {
  name: "emulator",
  description: "run the local music service emulator (state in SQLite) until interrupted",
  options: [
    integerOption("--port <n>", "port to listen on (0 = any free port)", 0),
    ["--host <address>", "address to listen on", "127.0.0.1"],
    ["--db <file>", "SQLite file for the state (its folder is created), or :memory:", ":memory:"],
    integerOption("--seed <n>", "seed of the generated catalogue", 1),
    integerOption("--catalogue <songs>", "number of songs to generate (20 to 1000000)", 500),
    integerOption("--catalogue-size <songs>", "same as --catalogue"),
    new Option("--fault-rate <p>", "share of requests answered with a fault (429/5xx)").argParser(rate),
    integerOption("--fault-seed <n>", "seed of the fault generator", 1),
  ],
  action: async ({ io }: MusicapiContext, flags: Flags) => {
    let running: RunningEmulator;
    try {
      running = await start(flags);
    } catch (error) {
      if (!(error instanceof EmulatorStartError)) throw error;
      io.stderr.write(`error: ${error.message}\n`);
      process.exitCode = 1;
      return;
    }
    const generated = running.catalogue
      ? `generated ${running.catalogue.songs} songs in ${Math.round(running.generationMs)} ms`
      : "reused the catalogue in the database";
    io.stdout.write(`${running.url}\n`);
    io.stderr.write(
      `emulator listening on ${running.url} (${generated}); browser headers: GET ${running.url}/_emulator/accounts/1/headers\n`,
    );
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        resolve();
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
    await running.stop();
  },
};

/** The options, checked, as `startEmulator` takes them. */
function emulatorOptions(flags: Flags): EmulatorOptions {
  const max = 2 ** 32 - 1;
  const catalogueName = flags.catalogueSize === undefined ? "--catalogue" : "--catalogue-size";
  return {
    port: inRange("--port", flags.port, 0, 65535),
    host: flags.host,
    db: flags.db,
    seed: inRange("--seed", flags.seed, 0, max),
    catalogueSize: inRange(catalogueName, flags.catalogueSize ?? flags.catalogue, 20, 1_000_000),
    faults: flags.faultRate
      ? { rate: flags.faultRate, seed: inRange("--fault-seed", flags.faultSeed, 0, max) }
      : null,
  };
}

/**
 * Starts the emulator; what stops it from starting (a value out of range, a database that cannot be
 * opened, a port in use) becomes an EmulatorStartError saying so in one line.
 */
async function start(flags: Flags): Promise<RunningEmulator> {
  const options = emulatorOptions(flags);
  // Loaded on use: the other `musicapi` commands should not need SQLite's native module.
  const { startEmulator } = await import("../../emulator/index.js");
  try {
    return await startEmulator(options);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "EADDRINUSE") {
      throw new EmulatorStartError(
        `port ${options.port} on ${options.host} is in use; choose another --port (0 = any free port)`,
      );
    }
    if (code === "EADDRNOTAVAIL") throw new EmulatorStartError(`cannot listen on ${options.host}`);
    if (error instanceof Error && error.name === "SqliteFileError") {
      throw new EmulatorStartError(`${error.message}; give --db a file in a folder you can write`);
    }
    throw error;
  }
}
