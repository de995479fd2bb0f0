/**
 * What the docs tests need to run a guide as a reader would: the built `musicsync` and `musicapi`
 * on the PATH, free ports in place of the ones a guide shows, a TypeScript example run with node,
 * and a printed output compared with the one the guide shows.
 */
import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { delimiter, join } from "node:path";
import { MAIN, MUSICAPI, ROOT } from "../support/cli-process.js";

/** A folder inside the clone (its tmp/ is git-ignored), where `import "musicapi"` finds this package. */
export async function scratch(prefix: string): Promise<string> {
  await mkdir(join(ROOT, "tmp"), { recursive: true });
  return mkdtemp(join(ROOT, "tmp", prefix));
}

/** A folder of `musicsync` and `musicapi` commands that run the built ones with this Node. */
export async function commandsFolder(): Promise<string> {
  const bin = await scratch("docs-bin-");
  for (const [name, script] of [
    ["musicsync", MAIN],
    ["musicapi", MUSICAPI],
  ] as const) {
    await writeFile(join(bin, name), `#!/bin/sh\nexec '${process.execPath}' '${script}' "$@"\n`);
    await chmod(join(bin, name), 0o755);
  }
  return bin;
}

/**
 * The environment a guide's lines run in: the commands on the PATH, no colours, and none of the
 * developer's own MUSICSYNC_ or MUSICAPI_ settings (a guide's lines set what they need).
 */
export function readerEnv(bin: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(MUSICSYNC|MUSICAPI)_/.test(k)) env[k] = v;
  return { ...env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}`, NO_COLOR: "1" };
}

/** As many distinct free ports on 127.0.0.1 as asked for. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      await new Promise<void>((done, fail) => server.once("error", fail).listen(0, "127.0.0.1", done));
      servers.push(server);
    }
    return servers.map((s) => (s.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
  }
}

/** The ports a text names as a local address or a `--port`. */
export function portsIn(text: string): number[] {
  return [...text.matchAll(/(?:127\.0\.0\.1:|--port )(\d{2,5})\b/g)].map((m) => Number(m[1]));
}

/** `text` with each port of `swaps` replaced where it is named as a local address or a `--port`. */
export function swapPorts(text: string, swaps: ReadonlyMap<number, number>): string {
  return text.replace(/(127\.0\.0\.1:|--port )(\d{2,5})\b/g, (whole, lead: string, port: string) => {
    const to = swaps.get(Number(port));
    return to === undefined ? whole : `${lead}${to}`;
  });
}

export interface Printed {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs a TypeScript file as docs/client.md tells a reader to, `node first.ts` (Node strips the
 * types; tsx would take a third more CPU and test a way the guide does not show), killed past
 * `timeoutMs`.
 */
export function runTypeScript(file: string, cwd: string, timeoutMs: number): Promise<Printed> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [file], {
      cwd,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", fail);
    child.on("exit", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, timedOut });
    });
  });
}

/**
 * Whether `printed` is what a guide shows: line for line, where `…` in the guide stands for any
 * text within a line.
 */
export function printsAsShown(printed: string, shown: readonly string[]): boolean {
  const pattern = shown
    .map((line) =>
      line
        .split("…")
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*"),
    )
    .join("\n");
  return new RegExp(`^${pattern}$`).test(printed.trimEnd());
}
