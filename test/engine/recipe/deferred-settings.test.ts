/**
 * `${VAR}` in settings a command reads when it uses them (accounts, notify, state): unset where
 * the file is loaded, they are no error of the file; the command that needs one refuses, naming
 * the variable and where it is written.
 */
import { describe, expect, it } from "vitest";
import { requireResolved, unresolvedWarnings } from "../../../engine/recipe/deferred-settings.js";
import { formatIssue } from "../../../engine/recipe/errors.js";
import { loadProjectText } from "../../../engine/recipe/load.js";
import { openState } from "../../../engine/state/open.js";
import { accountData } from "../../../engine/web/account-data.js";

const PROJECT = [
  "apiVersion: musicsync/v1",
  "kind: Project",
  "accounts:",
  "  default: { auth: headers.json }",
  `  other: { auth: "\${OTHER_AUTH}", base_url: "\${OTHER_URL}" }`,
  `state: \${DATABASE_URL:-musicsync.db}`,
  "notify:",
  "  - type: webhook",
  `    url: \${HOOK_URL}`,
  `    headers: { Authorization: "Bearer \${HOOK_TOKEN}" }`,
  "",
].join("\n");

describe("settings read when used", () => {
  it("load with their variables unset, each kept with where it is written", () => {
    const { project, issues } = loadProjectText("musicsync.yaml", PROJECT, {});
    expect(issues).toEqual([]);
    expect(project!.unresolved!.map((u) => [u.path.join("."), u.variables, u.line, u.col])).toEqual([
      ["accounts.other.auth", ["OTHER_AUTH"], 5, 18],
      ["accounts.other.base_url", ["OTHER_URL"], 5, 45],
      ["notify.0.url", ["HOOK_URL"], 9, 10],
      ["notify.0.headers.Authorization", ["HOOK_TOKEN"], 10, 31],
    ]);
    expect(unresolvedWarnings(project!).map(formatIssue)).toContain(
      "musicsync.yaml:10:31 warning: notify[0].headers.Authorization: HOOK_TOKEN is not set here; the setting is checked when a command uses it",
    );
    expect(() => requireResolved(project!, ["accounts", "default"], "x")).not.toThrow();
    expect(() => requireResolved(project!, ["notify"], "sync sends notifications")).toThrow(
      "sync sends notifications, but musicsync.yaml:9:10: notify[0].url needs the environment variable HOOK_URL, which is not set; " +
        "musicsync.yaml:10:31: notify[0].headers.Authorization needs the environment variable HOOK_TOKEN, which is not set",
    );
  });

  it("are checked in full once their variables are set", () => {
    const env = {
      OTHER_AUTH: "o.json",
      OTHER_URL: "http://127.0.0.1:1",
      HOOK_URL: "not a url",
      HOOK_TOKEN: "s3cr3t-t0ken-value",
    };
    const { project, issues } = loadProjectText("musicsync.yaml", PROJECT, env);
    expect(project).toBeNull();
    expect(issues.map(formatIssue)).toEqual([
      "musicsync.yaml:9:10 notify[0].url: must be an http:// or https:// URL",
    ]);
    const good = loadProjectText("musicsync.yaml", PROJECT, {
      ...env,
      HOOK_URL: "https://hooks.example.org/x",
    });
    expect(good.project?.unresolved ?? []).toEqual([]);
    expect(good.project?.notify[0]).toMatchObject({
      headers: { Authorization: "Bearer s3cr3t-t0ken-value" },
    });
  });

  it("anywhere else, an unset variable is still an error of the file (validate needs the value)", () => {
    const text = PROJECT.replace("state:", `defaults: { account: "\${WHO}" }\nstate:`);
    const { project, issues } = loadProjectText("musicsync.yaml", text, {});
    expect(project).toBeNull();
    expect(issues.map(formatIssue)).toContain("musicsync.yaml:6:22 environment variable WHO is not set");
  });
});

describe("what is read when used", () => {
  it("is a single text value: a whole mapping or list as one reference stays an error of the file", () => {
    const base = "apiVersion: musicsync/v1\nkind: Project\n";
    const ref = (name: string) => `"$\{${name}}"`;
    for (const [text, path] of [
      [`${base}accounts: ${ref("X")}\n`, "accounts"],
      [`${base}accounts:\n  me: ${ref("X")}\n`, "accounts.me"],
      [`${base}accounts:\n  me: { auth: a.json, oauth_client: ${ref("X")} }\n`, "accounts.me.oauth_client"],
      [`${base}accounts:\n  me: { emulator: { seed: ${ref("X")} } }\n`, "accounts.me.emulator.seed"],
      [`${base}notify: ${ref("X")}\n`, "notify"],
      [`${base}notify:\n  - ${ref("X")}\n`, "notify[0]"],
      [
        `${base}notify:\n  - { type: webhook, url: "https://x.org", headers: ${ref("X")} }\n`,
        "notify[0].headers",
      ],
      [`${base}notify:\n  - { type: command, command: ${ref("X")} }\n`, "notify[0].command"],
      [`${base}notify:\n  - { type: webhook, url: "https://x.org", name: ${ref("X")} }\n`, "notify[0].name"],
    ]) {
      const { project, issues } = loadProjectText("musicsync.yaml", text!, {});
      expect(project, `${path}: ${text}`).toBeNull();
      expect(
        issues.map((i) => i.message),
        path,
      ).toContain("environment variable X is not set");
    }
    const leaves = `${base}defaults: { account: me }\naccounts:\n  me: { token: ${ref("T")}, oauth_client: { id: ${ref("I")}, secret: ${ref("S")} } }\nnotify:\n  - { type: command, command: [/bin/page, ${ref("C")}] }\n`;
    const { project, issues } = loadProjectText("musicsync.yaml", leaves, {});
    expect(issues).toEqual([]);
    expect(project!.unresolved!.map((u) => u.variables[0])).toEqual(["T", "I", "S", "C"]);
  });
});

describe("the status page's account", () => {
  it("says which variable its settings need, not that its credentials cannot be read", async () => {
    const { project } = loadProjectText("musicsync.yaml", PROJECT, {});
    const state = openState(":memory:");
    try {
      const other = await accountData(project!, "musicsync.yaml", state, [], "other", Date.now());
      expect(other).toMatchObject({
        verdict: "missing",
        reason:
          "its settings name the environment variables OTHER_AUTH, OTHER_URL, which are not set where the page runs",
      });
    } finally {
      await state.close();
    }
  });
});
