/**
 * `musicsync` in this process: the command line's program, its output collected, its exit code as
 * `main` gives it. A test whose point is not the process (its start, signals, streams, the packaged
 * bundle) runs the command here: a compiled command costs most of a CPU-second to start and load.
 */
import { Writable } from "node:stream";
import { CommanderError } from "commander";
import type { InitIo } from "../../cli/musicsync/init.js";
import { main, program } from "../../cli/musicsync/main.js";

export interface InProcResult {
  code: number;
  stdout: string;
  stderr: string;
}

function collector(watch: (text: string) => void = () => {}): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      watch(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join("") };
}

export async function musicsyncInProc(
  args: readonly string[],
  extra: Partial<Pick<InitIo, "stdin" | "prompt" | "env">> & {
    watch?: (stdout: string) => void;
    /** stdout and stderr both a terminal, as on a person's screen. */
    terminal?: boolean;
  } = {},
): Promise<InProcResult> {
  const { watch, terminal, ...more } = extra;
  const out = collector(watch);
  const err = collector();
  if (terminal) for (const s of [out.stream, err.stream]) Object.assign(s, { isTTY: true });
  const io: InitIo = {
    stdout: out.stream,
    stderr: err.stream,
    env: {},
    stdin: { isTTY: false } as never,
    ...more,
  };
  let code = 0;
  const cmd = program(io, (c) => {
    code = c;
  });
  try {
    await cmd.parseAsync([...args], { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) code = e.exitCode === 0 ? 0 : 1;
    else {
      code = 1;
      err.stream.write(`error: ${(e as Error).message}\n`);
    }
  }
  return { code, stdout: out.text(), stderr: err.text() };
}

/**
 * `main` as the compiled command runs it (cli-process.ts `musicsync`), in this process: the same
 * environment (this process's, colour off, then `env`), output scrubbed as the command's is, an
 * error that gets out of a command said in one line with its exit code. Streams are not terminals.
 */
export async function musicsyncMain(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<InProcResult> {
  const out = collector();
  const err = collector();
  const code = await main(args, {
    stdout: out.stream,
    stderr: err.stream,
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  return { code, stdout: out.text(), stderr: err.text() };
}
