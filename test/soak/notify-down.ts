/**
 * Notification targets that are all down, on one run of a seed made by `musicsync sync`
 * as a process: a webhook and an ntfy topic where nothing listens, a webhook that takes the request
 * and never answers, one that answers 500, a command that does not exist, one that exits 1, one
 * that sleeps, and one that writes its environment to a file. The process gets secrets in its own
 * environment (a PostgreSQL URL with a password, the status page's token, the accounts key), as a
 * server's would have. What must hold:
 * - the sync's outcome and writes are what they would be without `notify:` (soak.ts judges the run
 *   as any other);
 * - it exits at most a few seconds after it printed its report (README: `sync` waits at most 3 s
 *   for deliveries; the bound here is 3 s plus a generous 5 s);
 * - nothing it printed, nothing a receiver got (headers and bodies) and nothing in a command's
 *   environment holds a piece of a credential or of the parent's secrets.
 * So that every such run has something to tell, the project also reads a folder with one recipe of
 * its own that always fails before any write (its source playlist does not exist): `run_failed`.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { stretched } from "../support/load.js";
import type { Found } from "./invariants.js";
import type { ProcessRun } from "./kill.js";
import { findLeaks } from "./leaks.js";

/** README: "sync at most 3 s" for its deliveries; a margin on top, stretched on a loaded machine. */
const DRAIN_BOUND_MS = 3_000 + 5_000;

export interface NotifyDown {
  /** The project file with the `notify:` targets (the route's own, plus them). */
  projectFile: string;
  /** The secrets put in the process's environment. */
  env: Record<string, string>;
  /** Where the `env` command writes. */
  envFile: string;
  /** What the receivers that listen were sent. */
  received: { path: string; text: string }[];
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** A port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const s = createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
}

/** A PostgreSQL URL, a page token and an accounts key, all random: what a server's environment holds. */
function parentSecrets(): Record<string, string> {
  const password = randomBytes(18).toString("base64url");
  return {
    MUSICSYNC_STATE: `postgres://soak:${password}@127.0.0.1:1/soak`,
    MUSICSYNC_HTTP_TOKEN: randomBytes(24).toString("base64url"),
    MUSICSYNC_ACCOUNTS_KEY: randomBytes(32).toString("hex"),
  };
}

/** The value to look for in one variable: a URL's password (not the URL around it), else all of it. */
export function secretOf(value: string): string {
  return URL.canParse(value) ? new URL(value).password || value : value;
}

/** A recipe that fails before any write, so the run always has a `run_failed` to tell. */
export const CANARY_ID = "notify-canary";
const CANARY = `apiVersion: musicsync/v1
kind: Recipe
id: ${CANARY_ID}
sources:
  - { id: gone, type: playlist, playlistId: PLsoaknotifycanarydoesnotexist00 }
target: { type: playlist, playlist: { title: "Soak notify canary", privacy: PRIVATE } }
mode: mirror
`;

const EVENTS =
  "[run_failed, recipe_suspended, credentials_expiring, credentials_expired, approval_pending, drift_found, applied]";

/** The receivers started and the project written beside `projectFile`, its `notify:` added. */
export async function startNotifyDown(dir: string, projectFile: string): Promise<NotifyDown> {
  const received: { path: string; text: string }[] = [];
  const held: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({
        path,
        text: `${JSON.stringify(req.headers)}\n${Buffer.concat(chunks).toString("utf8")}`,
      });
      // Taken and never answered: the sender's own timeout, or the drain, must end it.
      if (path.startsWith("/hang")) held.push(() => res.destroy());
      else {
        res.statusCode = 500;
        res.end("down for maintenance");
      }
    });
  });
  const port = await listen(server);
  const down = await closedPort();
  const envFile = join(dir, "notify-env.txt");
  const target = (line: string) => `  - ${line}`;
  const notify = [
    target(`{ type: webhook, name: refused, url: "http://127.0.0.1:${down}/hook", events: ${EVENTS} }`),
    target(`{ type: ntfy, name: ntfy-down, url: "http://127.0.0.1:${down}/soak", events: ${EVENTS} }`),
    target(`{ type: webhook, name: never-answers, url: "http://127.0.0.1:${port}/hang", events: ${EVENTS} }`),
    target(`{ type: webhook, name: answers-500, url: "http://127.0.0.1:${port}/500", events: ${EVENTS} }`),
    target(`{ type: ntfy, name: ntfy-500, url: "http://127.0.0.1:${port}/500/ntfy", events: ${EVENTS} }`),
    target(`{ type: command, name: missing, command: ["/nonexistent/musicsync-notify"], events: ${EVENTS} }`),
    target(`{ type: command, name: exits-1, command: ["/bin/sh", "-c", "exit 1"], events: ${EVENTS} }`),
    target(`{ type: command, name: sleeps, command: ["/bin/sleep", "30"], events: ${EVENTS} }`),
    target(
      `{ type: command, name: env, command: ["/bin/sh", "-c", "env > \\"$1\\"", "sh", ${JSON.stringify(envFile)}], events: ${EVENTS} }`,
    ),
  ];
  const file = projectFile.replace(/\.yaml$/, "-notify.yaml");
  const text = (await readFile(projectFile, "utf8")).trimEnd();
  if (!text.includes("recipes: [recipes]"))
    throw new Error(`${projectFile} does not read recipes: [recipes]`);
  const canary = join(dirname(projectFile), "notify-recipes");
  await mkdir(canary, { recursive: true });
  await writeFile(join(canary, "notify-canary.yaml"), CANARY);
  const withCanary = text.replace("recipes: [recipes]", "recipes: [recipes, notify-recipes]");
  await writeFile(file, `${withCanary}\nnotify:\n${notify.join("\n")}\n`);
  return {
    projectFile: file,
    env: parentSecrets(),
    envFile,
    received,
    async close() {
      for (const h of held) h();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * After the process: it exited soon after its report, and neither what it printed, nor what the
 * receivers got, nor the command's environment holds a secret of the parent or a credential
 * (`leaks` is the soak's own scan for the latter). `fired`: whether the run had anything to tell.
 */
export async function checkNotifyDown(
  n: NotifyDown,
  p: ProcessRun,
  fired: boolean,
  leaks: (where: string, text: string) => void,
): Promise<Found[]> {
  const out: Found[] = [];
  if (p.hung)
    out.push({ invariant: "notify-down-bounded", detail: "sync with every notify target down hung" });
  else if (!p.killed && p.stdoutAtMs !== null && p.ms - p.stdoutAtMs > stretched(DRAIN_BOUND_MS))
    out.push({
      invariant: "notify-down-bounded",
      detail: `sync exited ${((p.ms - p.stdoutAtMs) / 1000).toFixed(1)} s after its report (it waits at most 3 s for deliveries)`,
    });
  const envText = existsSync(n.envFile) ? await readFile(n.envFile, "utf8") : null;
  const texts = [
    { where: "sync stdout", text: p.stdout },
    { where: "sync stderr", text: p.stderr },
    ...n.received.map((r) => ({ where: `a notify receiver (${r.path})`, text: r.text })),
    ...(envText === null ? [] : [{ where: "a notify command's environment", text: envText }]),
  ];
  for (const { where, text } of texts) {
    // What it printed the soak scans for credentials anyway (soak.ts): here only the parent's secrets.
    if (!where.startsWith("sync ")) leaks(where, text);
    const leaked = Object.entries(n.env).filter(([, v]) => findLeaks(text, [secretOf(v)]).length > 0);
    if (leaked.length > 0)
      out.push({
        invariant: "no-credential-leak",
        detail: `${where}: a secret of the parent's environment (${leaked.map(([k]) => k).join(", ")})`,
      });
  }
  // The soak must see a delivery tried, or it checked nothing (a run with nothing to tell is fine).
  if (fired && !p.killed && envText === null && n.received.length === 0)
    out.push({
      invariant: "soak-sees-notify",
      detail: "the run had events, but no receiver and no command saw one",
    });
  return out;
}
