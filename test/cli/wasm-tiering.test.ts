/**
 * The commands that read the service raise V8's WebAssembly tiering budget (cli/wasm-tiering.ts),
 * after loading the Node modules they use; the others leave V8's flags as they were. Each case runs
 * in a fresh process: the flag is the process's.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, ROOT } from "../support/cli-process.js";

/** What `keepWasmBaseline(command)` did in a new process: V8's flags changed, and crypto loaded. */
function effectOf(command: string): { flagsChanged: boolean; cryptoLoaded: boolean } {
  const module = pathToFileURL(join(ROOT, "dist/cli/wasm-tiering.js")).href;
  const script = `
    const v8 = process.getBuiltinModule("node:v8");
    const tag = v8.cachedDataVersionTag();
    const { keepWasmBaseline } = await import(${JSON.stringify(module)});
    keepWasmBaseline(${JSON.stringify(command)});
    console.log(JSON.stringify({
      flagsChanged: v8.cachedDataVersionTag() !== tag,
      cryptoLoaded: process.moduleLoadList.includes("NativeModule crypto"),
    }));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout);
}

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);

describe("the WebAssembly tiering budget", () => {
  it("sync: Node's modules loaded first, then the flag set (V8's cache tag changes)", () => {
    expect(effectOf("sync")).toEqual({ flagsChanged: true, cryptoLoaded: true });
  });

  it("commands that never read the service, and the long-running daemon and worker: flags and loaded modules untouched", () => {
    for (const command of ["validate", "help", "none", "status", "daemon", "worker"]) {
      expect(effectOf(command), command).toEqual({ flagsChanged: false, cryptoLoaded: false });
    }
  });
});
