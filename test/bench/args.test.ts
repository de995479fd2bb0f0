import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { benchArgs } from "../../bench/args.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

// bench/workers.ts's flags, as docs/operations.md runs it.
const workers = {
  script: "bench/workers",
  numbers: { accounts: { default: 200 }, "pacing-ms": { default: 0, zero: true } },
  switches: ["no-kill"],
  texts: { workers: "1,2,4" },
} as const;

describe("bench command lines", () => {
  it("reads the documented flags, and leaves the rest at their defaults", () => {
    const args = benchArgs(workers, ["--accounts", "100", "--pacing-ms", "250", "--no-kill"]);
    expect(args.numbers).toEqual({ accounts: 100, "pacing-ms": 250 });
    expect(args.switches).toEqual({ "no-kill": true });
    expect(args.texts).toEqual({ workers: "1,2,4" });
    expect(benchArgs(workers, [])).toEqual({
      numbers: { accounts: 200, "pacing-ms": 0 },
      switches: { "no-kill": false },
      texts: { workers: "1,2,4" },
      positionals: {},
    });
    expect(benchArgs(workers, ["--accounts=7"]).numbers.accounts).toBe(7);
  });

  it("reads positionals as numbers, in order, defaulting the missing ones", () => {
    const spec = {
      script: "bench/playlist",
      positionals: [
        { name: "tracks", flag: { default: 5000 } },
        { name: "perPage", flag: { default: 100 } },
      ],
    };
    expect(benchArgs(spec, ["300"]).positionals).toEqual({ tracks: 300, perPage: 100 });
    expect(() => benchArgs(spec, ["1", "2", "3"])).toThrow('bench/playlist: unexpected argument "3"');
    expect(() => benchArgs(spec, ["many"])).toThrow(
      'bench/playlist: tracks must be a number above 0, not "many"',
    );
  });

  it("refuses a value that is not a number or out of range, and a flag the script does not know", () => {
    expect(() => benchArgs(workers, ["--accounts", "abc"])).toThrow(
      'bench/workers: --accounts must be a number above 0, not "abc"',
    );
    expect(() => benchArgs(workers, ["--accounts", "0"])).toThrow("--accounts must be a number above 0");
    expect(() => benchArgs(workers, ["--accounts", ""])).toThrow("--accounts must be a number above 0");
    expect(() => benchArgs(workers, ["--pacing-ms=-1"])).toThrow("--pacing-ms must be a number 0 or more");
    expect(benchArgs(workers, ["--pacing-ms", "0"]).numbers["pacing-ms"]).toBe(0);
    expect(() => benchArgs(workers, ["--acounts", "5"])).toThrow(/^bench\/workers: .*--acounts/);
    expect(() => benchArgs(workers, ["--accounts"])).toThrow(/^bench\/workers: .*--accounts/);
    expect(() => benchArgs(workers, ["stray"])).toThrow(/^bench\/workers: .*stray/);
  });

  it("a script refuses a bad command line before it measures anything", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "bench/parse.ts", "--rounds", "lots"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr.trim()).toBe('bench/parse: --rounds must be a number above 0, not "lots"');
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
  });
});
