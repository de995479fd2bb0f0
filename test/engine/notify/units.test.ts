/**
 * Notifications (docs/ENGINE.md#the-status-page-and-metrics), the parts without I/O: the `notify:` setting as loaded, which target
 * gets which event, the retry schedule, what each kind of target is sent, the queue's retries and
 * give-ups with a sender that fails on purpose, the expiry rule, and the events of a finished run.
 */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { applied, driftFound, type NotifyEvent, runFailed } from "../../../engine/notify/events.js";
import { accountExpiry, expiringSoon, reminderDue } from "../../../engine/notify/expiry.js";
import { commandDelivery, ntfyRequest, webhookRequest } from "../../../engine/notify/format.js";
import { Notifier } from "../../../engine/notify/notifier.js";
import { routeEvent } from "../../../engine/notify/router.js";
import { runEvents } from "../../../engine/notify/run-events.js";
import { type DeliveryPolicy, nextTryAt } from "../../../engine/notify/schedule.js";
import { CredentialScrubber } from "../../../engine/output/scrub.js";
import type { Plan } from "../../../engine/plan/types.js";
import { formatIssue } from "../../../engine/recipe/errors.js";
import { loadProjectText } from "../../../engine/recipe/load.js";
import type { NotifyTarget, Project } from "../../../engine/recipe/types.js";
import { createLogger } from "../../../engine/run/logger.js";
import type { RecipeRun } from "../../../engine/run/runner.js";
import { backoffStep } from "../../../shared/retry.js";

const head = `apiVersion: musicsync/v1
kind: Project
accounts:
  default: { auth: browser.json }
`;

const notify = `notify:
  - type: webhook
    url: https://hooks.example.org/musicsync
    headers: { Authorization: "Bearer \${HOOK_TOKEN}" }
    events: [run_failed, credentials_expired]
  - type: ntfy
    name: phone
    url: https://ntfy.sh/my-music
    priority: 5
    tags: [home]
  - type: command
    command: [/usr/local/bin/tell-me, --quiet]
    events: [applied]
`;

function load(text: string, env: Record<string, string> = { HOOK_TOKEN: "receiver-token-123" }) {
  return loadProjectText("musicsync.yaml", text, env);
}

function project(): Project {
  const r = load(head + notify);
  expect(r.issues.map(formatIssue)).toEqual([]);
  return r.project!;
}

const event = (kind: NotifyEvent["event"], message = "something happened"): NotifyEvent => ({
  event: kind,
  at: "2026-01-02T03:04:05.000Z",
  title: `musicsync: ${kind}`,
  message,
  recipe: "daily",
  account: "default",
  run: 7,
  details: {},
});

function captureLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger("debug", sink), lines };
}

describe("the notify: setting", () => {
  it("loads the three kinds with their defaults (names by position, every event but applied)", () => {
    const p = project();
    expect(p.notify).toEqual([
      {
        type: "webhook",
        name: "webhook-1",
        url: "https://hooks.example.org/musicsync",
        headers: { Authorization: "Bearer receiver-token-123" },
        events: ["run_failed", "credentials_expired"],
      },
      {
        type: "ntfy",
        name: "phone",
        url: "https://ntfy.sh/my-music",
        headers: {},
        priority: 5,
        tags: ["home"],
        events: [
          "run_failed",
          "recipe_suspended",
          "credentials_expiring",
          "credentials_expired",
          "approval_pending",
          "drift_found",
        ],
      },
      {
        type: "command",
        name: "command-3",
        command: ["/usr/local/bin/tell-me", "--quiet"],
        events: ["applied"],
      },
    ]);
    expect(load(head).project?.notify).toEqual([]);
  });

  it("reports a bad target at its file:line:col", () => {
    const cases: [string, string][] = [
      [
        "notify:\n  - { type: webhook, url: ftp://example.org/x }\n",
        "musicsync.yaml:6:27 notify[0].url: must be an http:// or https:// URL",
      ],
      ["notify:\n  - { type: ntfy, url: https://ntfy.sh/t, events: [run_exploded] }\n", "musicsync.yaml:6:"],
      ['notify:\n  - { type: command, command: "notify-send hello" }\n', "musicsync.yaml:6:"],
      ["notify:\n  - { type: ntfy, url: https://ntfy.sh/t, priority: 9 }\n", "musicsync.yaml:6:"],
      [
        "notify:\n  - { type: pager, url: https://example.org }\n",
        'musicsync.yaml:6:13 notify[0].type: unknown notify target type "pager"',
      ],
      [
        "notify:\n  - { type: webhook, url: https://e.org, headers: { 'Bad Header': x } }\n",
        "notify[0].headers: must be an HTTP header name",
      ],
    ];
    for (const [text, expected] of cases) {
      const r = load(head + text);
      expect(r.project, text).toBeNull();
      const lines = r.issues.map(formatIssue);
      expect(lines, text).toHaveLength(1);
      expect(lines[0], text).toContain(expected);
      expect(lines[0], text).toMatch(/notify\[0\]/);
    }
  });
});

describe("routing and the retry schedule", () => {
  it("sends each event only to the targets that name it", () => {
    const targets = project().notify;
    const names = (kind: NotifyEvent["event"]) => routeEvent(targets, event(kind)).map((t) => t.name);
    expect(names("run_failed")).toEqual(["webhook-1", "phone"]);
    expect(names("credentials_expired")).toEqual(["webhook-1", "phone"]);
    expect(names("drift_found")).toEqual(["phone"]);
    expect(names("applied")).toEqual(["command-3"]);
  });

  const policy: DeliveryPolicy = {
    attempts: 4,
    baseDelayMs: 1000,
    maxDelayMs: 3000,
    totalMs: 10_000,
    timeoutMs: 500,
  };

  it("doubles the wait after each failure up to its cap", () => {
    expect([1, 2, 3].map((n) => nextTryAt(n, 0, 0, { ...policy, attempts: 9 }))).toEqual([1000, 2000, 3000]);
    expect([1, 2, 3, 4, 5].map((n) => backoffStep(n, 1000, 3000))).toEqual([1000, 2000, 3000, 3000, 3000]);
  });

  it("gives up after the last attempt, and when the next try would start past the deadline", () => {
    expect(nextTryAt(1, 0, 0, policy)).toBe(1000);
    expect(nextTryAt(3, 0, 3000, policy)).toBe(6000);
    expect(nextTryAt(4, 0, 6000, policy)).toBeNull();
    // Slow failures: the third fails at 8 s, and 8 s + 3 s is past the 10 s deadline.
    expect(nextTryAt(3, 0, 8000, policy)).toBeNull();
  });
});

describe("what each target is sent", () => {
  const secret = "SAPISID-value-0123456789abcdef";
  const scrubber = new CredentialScrubber();
  scrubber.addSecrets([secret]);
  const scrub = <T>(v: T) => scrubber.value(v);
  const [webhook, ntfy, command] = project().notify as [NotifyTarget, NotifyTarget, NotifyTarget];
  const leaky = event("run_failed", `the service said: bad cookie SAPISID=${secret}`);

  it("a webhook: the event as JSON with the receiver's headers, the credential scrubbed", () => {
    if (webhook.type !== "webhook") throw new Error("order");
    const r = webhookRequest(webhook, leaky, scrub);
    expect(r.url).toBe("https://hooks.example.org/musicsync");
    expect(r.headers).toMatchObject({
      Authorization: "Bearer receiver-token-123",
      "content-type": "application/json",
    });
    const body = JSON.parse(r.body) as NotifyEvent;
    expect(body).toMatchObject({ event: "run_failed", recipe: "daily", account: "default", run: 7 });
    expect(body.message).toContain("[redacted]");
    expect(r.body).not.toContain(secret.slice(0, 12));
  });

  it("an ntfy topic: the message as text, Title, Priority and Tags as headers", () => {
    if (ntfy.type !== "ntfy") throw new Error("order");
    const r = ntfyRequest(ntfy, { ...leaky, title: `musicsync: daily failed ${secret}` }, scrub);
    expect(r.body).toBe("the service said: bad cookie SAPISID=[redacted]");
    expect(r.headers.Title).toBe("musicsync: daily failed [redacted]");
    expect(r.headers.Priority).toBe("5");
    expect(r.headers.Tags).toBe("warning,musicsync,home");
    const byEvent = ntfyRequest({ ...ntfy, priority: null }, event("applied"), scrub);
    expect(byEvent.headers.Priority).toBe("2");
  });

  it("a command: argv as given, the event on stdin and in variables, no variable holding a credential", () => {
    if (command.type !== "command") throw new Error("order");
    const d = commandDelivery(command, leaky, scrub, {
      PATH: "/usr/bin",
      MUSICSYNC_AUTH: `{"cookie":"SAPISID=${secret}"}`,
    });
    expect(d.file).toBe("/usr/local/bin/tell-me");
    expect(d.args).toEqual(["--quiet"]);
    expect(d.env.PATH).toBe("/usr/bin");
    expect(d.env.MUSICSYNC_AUTH).toBeUndefined();
    expect(d.env).toMatchObject({
      MUSICSYNC_EVENT: "run_failed",
      MUSICSYNC_RECIPE: "daily",
      MUSICSYNC_RUN: "7",
    });
    expect(JSON.parse(d.stdin)).toMatchObject({ event: "run_failed", recipe: "daily" });
    expect(`${d.stdin}${JSON.stringify(d.env)}`).not.toContain(secret.slice(0, 12));
  });
});

describe("the queue", () => {
  const target: NotifyTarget = {
    type: "webhook",
    name: "hook",
    url: "http://x",
    headers: {},
    events: ["run_failed"],
  };
  const quick = { attempts: 3, baseDelayMs: 5, maxDelayMs: 10, totalMs: 60_000, timeoutMs: 100 };

  it("tries again after a failure and counts one delivery", async () => {
    const counted: [string, boolean][] = [];
    let tries = 0;
    const n = new Notifier({
      targets: [target],
      logger: createLogger("silent"),
      policy: quick,
      count: (t, ok) => counted.push([t, ok]),
      send: async () => {
        tries++;
        if (tries < 3) throw new Error("connection refused");
      },
    });
    n.notify(event("run_failed"));
    n.notify(event("applied"));
    const r = await n.close(5_000);
    expect(tries).toBe(3);
    expect(counted).toEqual([["hook", true]]);
    expect(r).toEqual({ delivered: 1, failed: 0, abandoned: 0 });
  });

  it("gives up after its attempts: logged with the target, counted as failed", async () => {
    const counted: [string, boolean][] = [];
    const { logger, lines } = captureLogger();
    let tries = 0;
    const n = new Notifier({
      targets: [target],
      logger,
      policy: quick,
      count: (t, ok) => counted.push([t, ok]),
      send: async () => {
        tries++;
        throw new Error("HTTP 503");
      },
    });
    n.notify(event("run_failed"));
    const r = await n.close(5_000);
    expect(tries).toBe(3);
    expect(counted).toEqual([["hook", false]]);
    expect(r.failed).toBe(1);
    const line = lines.find((l) => l.msg === "notification not delivered");
    expect(line).toMatchObject({ target: "hook", event: "run_failed", error: "HTTP 503 (after 3 tries)" });
  });

  it("notify returns before a hung receiver answers; close gives it up at its bound", async () => {
    const counted: [string, boolean][] = [];
    const n = new Notifier({
      targets: [target],
      logger: createLogger("silent"),
      policy: quick,
      count: (t, ok) => counted.push([t, ok]),
      send: () => new Promise(() => {}),
    });
    n.notify(event("run_failed"));
    expect(n.pending).toBe(1);
    const r = await n.close(50);
    expect(r).toEqual({ delivered: 0, failed: 0, abandoned: 1 });
    expect(counted).toEqual([["hook", false]]);
  });
});

describe("expiry and the events of a run", () => {
  const hour = 3_600_000;

  it("says expiring within 24 h of the end of a token that cannot be refreshed, at most daily", () => {
    const now = 1_000 * hour;
    expect(expiringSoon({ expiresAt: now + 5 * hour, refreshable: false }, now)).toBe(true);
    expect(expiringSoon({ expiresAt: now + 5 * hour, refreshable: true }, now)).toBe(false);
    expect(expiringSoon({ expiresAt: now + 30 * hour, refreshable: false }, now)).toBe(false);
    expect(expiringSoon({ expiresAt: now - hour, refreshable: false }, now)).toBe(false);
    expect(reminderDue(undefined, now)).toBe(true);
    expect(reminderDue(now - 23 * hour, now)).toBe(false);
    expect(reminderDue(now - 24 * hour, now)).toBe(true);
  });

  it("reads nothing from an account without a token file", () => {
    const p = project();
    expect(accountExpiry("default", p.accounts.default!, "/nowhere/musicsync.yaml")).toBeNull();
  });

  const plan = (over: Partial<Plan> = {}) =>
    ({
      recipe: { id: "daily", hash: "h" },
      account: "default",
      actions: [{ kind: "add" }],
      tombstones: [],
      summary: { add: 3, remove: 1, move: 0, rate: 0, keep: 5, skip: 0, create: 0, edit: 0, requests: 2 },
      ...over,
    }) as unknown as Plan;
  const run = (over: Partial<RecipeRun>): RecipeRun => ({
    recipeId: "daily",
    plan: null,
    apply: null,
    outcome: "converged",
    error: null,
    ...over,
  });
  const kinds = (r: RecipeRun) => runEvents(r, "default", 0).map((e) => e.event);

  it("a sync's run: failed, applied with drift adopted, held, or nothing", () => {
    expect(kinds(run({ outcome: "failed", error: "boom" }))).toEqual(["run_failed"]);
    expect(kinds(run({ outcome: "partial", plan: plan() }))).toEqual(["run_failed", "applied"]);
    expect(kinds(run({ plan: plan({ tombstones: ["a", "b"] }) }))).toEqual(["drift_found", "applied"]);
    expect(kinds(run({ outcome: "pending_approval", error: "12 removals" }))).toEqual(["approval_pending"]);
    expect(kinds(run({ outcome: "no_changes", plan: plan({ actions: [] }) }))).toEqual([]);
    expect(kinds(run({ outcome: "locked", error: 'account "default" is locked by h:1 (lock 3)' }))).toEqual(
      [],
    );
    expect(kinds(run({ outcome: "locked", error: "the service refused the credentials" }))).toEqual([
      "run_failed",
    ]);
    const where = { recipe: "daily", account: "default", at: 0 };
    expect(applied(where, plan(), "converged")?.message).toBe(
      "Recipe daily: 3 added, 1 removed (converged).",
    );
    expect(driftFound(where, plan({ tombstones: ["x"] }))?.details).toMatchObject({ adopted: 1 });
    expect(runFailed(where, "failed", null).message).toContain("failed");
  });
});
