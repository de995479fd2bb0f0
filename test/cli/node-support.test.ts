/**
 * On a Node older than package.json allows, both commands refuse in one line that names
 * both versions, instead of failing far from the cause (better-sqlite3 13 ends Node 22.12 with a
 * segmentation fault). The older Node is played by redefining process.versions.node before the
 * command loads, so the test runs on whatever Node runs the suite.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { OLDEST_NODE, unsupportedNode } from "../../cli/node-support.js";
import { ensureBuilt, ROOT } from "../support/cli-process.js";

describe("unsupportedNode", () => {
  it("refuses a Node older than the oldest supported, naming both, and accepts the rest", () => {
    for (const old of ["20.19.2", "22.12.0", "22.18.9", "v22.14.0", "8.0.0"]) {
      const refusal = unsupportedNode("musicsync", old);
      expect(refusal, old).toContain(`musicsync needs Node.js ${OLDEST_NODE} or later`);
      expect(refusal, old).toContain(`this is Node.js ${old.replace(/^v/, "")}`);
    }
    for (const fine of [OLDEST_NODE, "22.23.3", "23.0.0", "24.21.0", "v26.1.0", "100.0.0"]) {
      expect(unsupportedNode("musicsync", fine), fine).toBeNull();
    }
  });

  it("is package.json's engines.node", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      engines: { node: string };
    };
    const floor = /^>=(\d+)\.(\d+)(?:\.(\d+))?$/.exec(manifest.engines.node);
    expect(floor, manifest.engines.node).not.toBeNull();
    expect(OLDEST_NODE).toBe(`${floor![1]}.${floor![2]}.${floor![3] ?? 0}`);
  });
});

describe("the commands on an older Node", () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 240_000);

  /** The built command run by this Node, which reports itself as `version` when given. */
  function run(command: string, version?: string) {
    const pretend =
      version === undefined
        ? []
        : [
            "--import",
            `data:text/javascript,Object.defineProperty(process.versions,"node",{value:${JSON.stringify(version)}})`,
          ];
    return spawnSync(
      process.execPath,
      [...pretend, join(ROOT, "dist", "bin", `${command}.js`), "--version"],
      {
        encoding: "utf8",
        timeout: 30_000,
      },
    );
  }

  it("refuse in one line, exit 1, and run as usual on this one", () => {
    for (const command of ["musicsync", "musicapi"]) {
      const refused = run(command, "22.12.0");
      expect(refused.status, command).toBe(1);
      expect(refused.stdout, command).toBe("");
      expect(refused.stderr, command).toBe(
        `error: ${command} needs Node.js ${OLDEST_NODE} or later, and this is Node.js 22.12.0: run it with a newer Node (the README says how to get one)\n`,
      );
      const fine = run(command);
      expect(fine.status, `${command}: ${fine.stderr}`).toBe(0);
      expect(fine.stdout, command).toMatch(/^\d+\.\d+\.\d+/);
    }
  });
});
