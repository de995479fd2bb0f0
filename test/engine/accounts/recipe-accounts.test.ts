/**
 * A recipe's `account:`: `validate` reads no state, so a name the project file lacks is a
 * warning when a stored account may carry it and an error when none may; `sync`, which reads the
 * stored accounts, refuses a name found nowhere before it writes anything.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addAccount } from "../../../engine/accounts/accounts.js";
import { ACCOUNTS_KEY_VARIABLE, newAccountsKey } from "../../../engine/accounts/seal.js";
import { openState } from "../../../engine/state/open.js";
import { TEST_BROWSER_AUTH } from "../../support/fixtures.js";
import { musicsyncInProc } from "../../support/musicsync-inproc.js";
import { withTempDir } from "../../support/temp-dir.js";

const RECIPE = (account: string) =>
  `apiVersion: musicsync/v1
kind: Recipe
id: alice-chart
account: ${account}
sources:
  - { id: list, type: static, videoIds: [aaaaaaaaaaa] }
target:
  type: playlist
  playlist: { title: "Top", privacy: PRIVATE }
mode: mirror
`;

/** A project whose one account `default` points at a port nothing listens on: any read would fail. */
async function project(dir: string, account: string, state = "state.db"): Promise<string> {
  await mkdir(join(dir, "recipes"), { recursive: true });
  await writeFile(join(dir, "headers.json"), TEST_BROWSER_AUTH);
  await writeFile(
    join(dir, "musicsync.yaml"),
    `apiVersion: musicsync/v1\nkind: Project\naccounts:\n  default: { auth: headers.json, base_url: "http://127.0.0.1:9" }\nstate: ${JSON.stringify(state)}\n`,
  );
  await writeFile(join(dir, "recipes", "alice-chart.yaml"), RECIPE(account));
  return join(dir, "musicsync.yaml");
}

describe("validate: a recipe's account the project file lacks", () => {
  it("a stored account's name: valid, with a warning at the key saying where it is checked", async () => {
    await withTempDir("recipe-accounts-", async (dir) => {
      const file = await project(dir, "alice");
      const r = await musicsyncInProc(["-p", file, "validate"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe("1 recipe valid.\n");
      expect(r.stderr).toMatch(
        /recipes\/alice-chart\.yaml:4:10 warning: account: "alice" is not in the project file: it must be a stored account when the recipe runs \(musicsync accounts list;/,
      );
      // No state was read or made: a CI checkout has none.
      expect(existsSync(join(dir, "state.db"))).toBe(false);
      const json = await musicsyncInProc(["-p", file, "validate", "--json"]);
      const doc = JSON.parse(json.stdout) as {
        valid: boolean;
        warnings: { line: number; message: string }[];
      };
      expect(doc.valid).toBe(true);
      expect(doc.warnings).toEqual([expect.objectContaining({ line: 4, col: 10 })]);
    });
  });

  it("a typo of a project account: an error with the near name", async () => {
    await withTempDir("recipe-accounts-", async (dir) => {
      const r = await musicsyncInProc(["-p", await project(dir, "defualt"), "validate"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /alice-chart\.yaml:4:10 account: unknown account "defualt", did you mean "default"\? \(accounts: default\)/,
      );
    });
  });

  it("a name no stored account may have, or a state kept in memory: an error", async () => {
    await withTempDir("recipe-accounts-", async (dir) => {
      const spaced = await musicsyncInProc(["-p", await project(dir, '"alice smith"'), "validate"]);
      expect(spaced.code).toBe(1);
      expect(spaced.stderr).toMatch(/unknown account "alice smith" .*no stored account can have this name/);
      const memory = await musicsyncInProc(["-p", await project(dir, "alice", ":memory:"), "validate"]);
      expect(memory.code).toBe(1);
      expect(memory.stderr).toMatch(
        /alice-chart\.yaml:4:10 account: unknown account "alice" \(accounts: default\)/,
      );
    });
  });
});

describe("sync: a recipe's account found nowhere", () => {
  it("is refused, naming it, before anything is written; a stored account of another name does not stand in", async () => {
    await withTempDir("recipe-accounts-", async (dir) => {
      const file = await project(dir, "alice");
      const key = newAccountsKey();
      const env = { [ACCOUNTS_KEY_VARIABLE]: key };
      const state = openState(join(dir, "state.db"));
      try {
        await addAccount(state, "bob", { auth: TEST_BROWSER_AUTH }, 1_000, env);
      } finally {
        await state.close();
      }
      const digest = async () =>
        createHash("sha256")
          .update(await readFile(join(dir, "state.db")))
          .digest("hex");
      const before = await digest();
      for (const command of [["sync"], ["plan"], ["sync", "-r", "alice-chart"]]) {
        const r = await musicsyncInProc(["-p", file, ...command], { env });
        expect(r.code, command.join(" ")).toBe(1);
        expect(r.stderr).toMatch(
          /alice-chart\.yaml:4:10 account: unknown account "alice" \(accounts: default, bob\)/,
        );
        // Refused at the recipe: no connection was tried (the account's server does not exist).
        expect(r.stderr).not.toMatch(/127\.0\.0\.1:9|ECONNREFUSED/);
      }
      expect(await digest()).toBe(before);
      expect(
        existsSync(join(dir, "state.db-wal")) ? (await readFile(join(dir, "state.db-wal"))).length : 0,
      ).toBe(0);
    });
  });
});
