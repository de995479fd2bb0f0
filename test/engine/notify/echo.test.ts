/**
 * No credential in a notification (docs/ENGINE.md#the-status-page-and-metrics): against a service that echoes the credentials back
 * (test/support/echo-server.ts), with the account's credentials inline in an environment variable,
 * nothing a webhook, an ntfy topic or a command receives — bodies, headers, stdin, environment —
 * holds a piece of the cookie, the SAPISID or the authorization.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { credentialSecrets, describePieces, findCredentialPieces } from "../../support/credential-leaks.js";
import { type EchoServer, startEchoServer } from "../../support/echo-server.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";
import {
  commandWriting,
  notifyProject,
  type Receivers,
  runMain,
  startReceivers,
  writeRecipes,
} from "../support/notify-receivers.js";

let h: Harness | null = null;
let rx: Receivers | null = null;
let echo: EchoServer | null = null;
afterEach(async () => {
  delete process.env.MUSICSYNC_AUTH;
  await echo?.close();
  await rx?.close();
  await h?.stop();
  h = rx = echo = null;
});

describe("notifications from a sync against a service echoing the credentials", () => {
  it("carry no piece of a credential in any body, header, stdin or variable", async () => {
    h = await startHarness();
    rx = await startReceivers();
    echo = await startEchoServer({ upstream: h.emulator.url });
    await writeRecipes(h, catalogueSongs(h, 3));
    const commandFile = join(h.dir, "command-out.jsonl");
    const all = "[run_failed, recipe_suspended, approval_pending, drift_found, applied]";
    // Written with concatenation: the literal `${…}` reference a project file holds.
    const auth = `"$` + "{MUSICSYNC_AUTH}" + `"`;
    const file = await notifyProject(h, "echo.yaml", auth, echo.url, [
      `  - { type: webhook, url: "${rx.url}/hook", events: ${all} }`,
      `  - { type: ntfy, url: "${rx.url}/ntfy/echo", events: ${all} }`,
      `  - { type: command, command: ${JSON.stringify(commandWriting(commandFile))}, events: ${all} }`,
    ]);
    // In this process's environment too: the command inherits it, less what holds a credential.
    process.env.MUSICSYNC_AUTH = JSON.stringify(h.headers);
    const sync = await runMain(["sync", "--json", "-p", file]);

    const secrets = [...credentialSecrets(h.headers)];
    for (const r of echo.requests) secrets.push(...credentialSecrets(r.headers as Record<string, string>));
    // The service really echoed them, and notifications went out.
    expect(findCredentialPieces(echo.sent.join("\n"), secrets).length).toBeGreaterThan(0);
    expect(JSON.parse(sync.stdout).runs.length).toBe(2);
    const events = rx.received.map((r) => r.path);
    expect(events.filter((p) => p === "/hook").length).toBeGreaterThanOrEqual(1);
    expect(events.filter((p) => p === "/ntfy/echo").length).toBeGreaterThanOrEqual(1);
    const commandOut = await readFile(commandFile, "utf8");
    expect(commandOut).toContain('"event":"run_failed"');

    for (const r of rx.received) {
      const found = findCredentialPieces(`${JSON.stringify(r.headers)}\n${r.body}`, secrets);
      expect(found, `${r.path}: ${describePieces(found)}`).toEqual([]);
    }
    const found = findCredentialPieces(commandOut, secrets);
    expect(found, `command: ${describePieces(found)}`).toEqual([]);
  });
});
