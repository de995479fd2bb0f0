/**
 * `musicapi emulator`: runs the emulator in the foreground until interrupted, printing its URL.
 *
 *   musicapi emulator --port 0 --db :memory: --seed 1 --catalogue 500
 */
import { Command, InvalidArgumentError } from "commander";
import type { EmulatorOptions } from "./index.js";

/** Where the command writes (the `musicapi` program passes its own streams). */
export interface EmulatorCommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${name} must be between ${min} and ${max}`);
    return n;
  };
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

/** The `emulator` subcommand, for the `musicapi` program's list of subcommands. */
export function emulatorCommand(
  io: EmulatorCommandIo = { stdout: process.stdout, stderr: process.stderr },
): Command {
  return new Command("emulator")
    .description("run the local music service emulator (state in SQLite) until interrupted")
    .option("--port <n>", "port to listen on (0 = any free port)", integer("--port", 0, 65535), 0)
    .option("--host <address>", "address to listen on", "127.0.0.1")
    .option("--db <file>", "SQLite file for the state, or :memory:", ":memory:")
    .option("--seed <n>", "seed of the generated catalogue", integer("--seed", 0, 2 ** 32 - 1), 1)
    .option("--catalogue <songs>", "number of songs to generate", integer("--catalogue", 20, 1_000_000), 500)
    .option("--catalogue-size <songs>", "same as --catalogue", integer("--catalogue-size", 20, 1_000_000))
    .option("--fault-rate <p>", "share of requests answered with a fault (429/5xx)", rate)
    .option("--fault-seed <n>", "seed of the fault generator", integer("--fault-seed", 0, 2 ** 32 - 1), 1)
    .action(async (flags: Flags) => {
      const options: EmulatorOptions = {
        port: flags.port,
        host: flags.host,
        db: flags.db,
        seed: flags.seed,
        catalogueSize: flags.catalogueSize ?? flags.catalogue,
        faults: flags.faultRate ? { rate: flags.faultRate, seed: flags.faultSeed } : null,
      };
      // Loaded on use: the other `musicapi` commands should not need SQLite's native module.
      const { startEmulator } = await import("./index.js");
      const emulator = await startEmulator(options);
      const generated = emulator.catalogue
        ? `generated ${emulator.catalogue.songs} songs in ${Math.round(emulator.generationMs)} ms`
        : "reused the catalogue in the database";
      io.stdout.write(`${emulator.url}\n`);
      io.stderr.write(
        `emulator listening on ${emulator.url} (${generated}); browser headers: GET ${emulator.url}/_emulator/accounts/1/headers\n`,
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
      await emulator.stop();
    });
}

/** Adds the `emulator` subcommand to a commander program. */
export function registerEmulatorCommand(program: Command, io?: EmulatorCommandIo): Command {
  const command = emulatorCommand(io);
  program.addCommand(command);
  return command;
}
