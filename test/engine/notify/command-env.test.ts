/**
 * A `command` notifier's environment: the command is spawned for real and dumps what it
 * sees. The daemon's own secrets — the state URL with its password, the page's access token, the
 * accounts key, a variable a webhook's header names — are in this process's environment, where a
 * notifier finds them by default; the command sees none of them, only the allow-listed variables
 * and the event's own MUSICSYNC_* fields.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { NotifyEvent } from "../../../engine/notify/events.js";
import { createSender } from "../../../engine/notify/senders.js";
import type { NotifyTarget } from "../../../engine/recipe/types.js";
import { commandWriting } from "../support/notify-receivers.js";

const SECRETS: Record<string, string> = {
  MUSICSYNC_STATE: "postgres://musicsync:state-password-0123456789@127.0.0.1:5432/music",
  MUSICSYNC_HTTP_TOKEN: "page-token-abcdefghijklmnop",
  MUSICSYNC_ACCOUNTS_KEY: "accounts-key-ABCDEFGHIJKLMNOPQRSTUVWX",
  HOOK_TOKEN: "receiver-token-zyxwvutsrqponm",
  SOME_OTHER_SETTING: "not-a-credential-but-not-asked-for",
  LC_FORWARDED_TOKEN: "forwarded-by-ssh-9876543210",
};

const PASSED: Record<string, string> = { LANG: "C.UTF-8", LC_TIME: "en_GB.UTF-8", TZ: "Europe/Paris" };

const event: NotifyEvent = {
  event: "run_failed",
  at: "2026-01-02T03:04:05.000Z",
  title: "musicsync: daily failed",
  message: "the service said no",
  recipe: "daily",
  account: "default",
  run: 7,
  details: {},
};

let dir: string | null = null;
const saved: Record<string, string | undefined> = {};
afterEach(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

describe("a command notifier's environment", () => {
  it("holds the allow-listed variables and the event's, never the daemon's secrets", async () => {
    dir = await mkdtemp(join(tmpdir(), "musicsync-command-env-"));
    for (const [name, value] of Object.entries({ ...SECRETS, ...PASSED })) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    const out = join(dir, "env.jsonl");
    const target: NotifyTarget = {
      type: "command",
      name: "script",
      command: commandWriting(out),
      events: ["run_failed"],
    };
    const sender = createSender({ scrub: (v) => v, timeoutMs: 10_000 });
    try {
      await sender.send(target, event);
    } finally {
      await sender.close();
    }
    const seen = JSON.parse((await readFile(out, "utf8")).trim()) as { env: Record<string, string> };
    for (const name of Object.keys(SECRETS)) expect(seen.env[name], name).toBeUndefined();
    const dump = JSON.stringify(seen);
    for (const value of Object.values(SECRETS)) expect(dump).not.toContain(value.slice(0, 12));
    expect(seen.env).toMatchObject({
      ...PASSED,
      PATH: process.env.PATH,
      MUSICSYNC_EVENT: "run_failed",
      MUSICSYNC_RECIPE: "daily",
      MUSICSYNC_RUN: "7",
    });
  });
});
