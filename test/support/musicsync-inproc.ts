/**
 * `musicsync` in this process: the command line's program, its output collected, its exit code as
 * `main` gives it.
 */
import { Writable } from "node:stream";
import { CommanderError } from "commander";
import type { InitIo } from "../../cli/musicsync/init.js";
import { program } from "../../cli/musicsync/main.js";

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
