/**
 * Receivers for the notification tests, all on 127.0.0.1: a webhook and an ntfy-like topic that
 * record what they were sent, one that answers only when told (slower than any timeout), an address
 * where nothing listens (connection refused), and a command that writes its stdin to a file; and
 * `musicsync sync` run in this process on a project with `notify:` targets.
 */
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { musicsync } from "../../support/daemon-harness.js";
import type { Harness } from "../../support/sync-harness.js";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receivers {
  /** http://127.0.0.1:port; paths: /hook, /ntfy/<topic>, /slow. */
  url: string;
  /** Where nothing listens. */
  downUrl: string;
  received: Received[];
  /** Requests the slow path has taken, and whether it has answered any yet. */
  slow: { taken: number; answered: boolean };
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** A port that was free a moment ago and is closed now. */
async function closedPort(): Promise<number> {
  const s = createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
}

export async function startReceivers(): Promise<Receivers> {
  const received: Received[] = [];
  const slow = { taken: 0, answered: false };
  const held = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      if (path === "/slow") {
        slow.taken++;
        const answer = () => {
          slow.answered = true;
          res.end("late");
        };
        held.add(answer);
        return;
      }
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.setHeader("content-type", "application/json");
      res.end(path.startsWith("/ntfy/") ? JSON.stringify({ id: "x", event: "message" }) : "{}");
    });
  });
  const port = await listen(server);
  const down = await closedPort();
  return {
    url: `http://127.0.0.1:${port}`,
    downUrl: `http://127.0.0.1:${down}/hook`,
    received,
    slow,
    async close() {
      for (const answer of held) answer();
      held.clear();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** argv of a command that writes {stdin, event} (the JSON it read, its MUSICSYNC_EVENT) to `file`. */
export function commandWriting(file: string): string[] {
  const script = [
    "const fs = require('node:fs');",
    "const stdin = fs.readFileSync(0, 'utf8');",
    "fs.appendFileSync(process.argv[1], JSON.stringify({ stdin, event: process.env.MUSICSYNC_EVENT, env: process.env }) + '\\n');",
  ].join(" ");
  return [process.execPath, "-e", script, file];
}

/** What the command wrote, one entry per run. */
export function commandRuns(file: string): { stdin: string; event: string; env: Record<string, string> }[] {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { stdin: string; event: string; env: Record<string, string> });
}

/** `musicsync` in this process with warnings logged (a failed delivery is one). */
export function runMain(args: readonly string[], env: Record<string, string> = {}) {
  return musicsync(args, { MUSICSYNC_LOG_LEVEL: "warn", ...env });
}

/** Two recipes: one that converges (a new playlist of fixed songs), one whose source does not exist. */
export async function writeRecipes(harness: Harness, songs: readonly string[]): Promise<void> {
  await mkdir(join(harness.dir, "recipes"), { recursive: true });
  const recipe = (id: string, source: string) =>
    `apiVersion: musicsync/v1\nkind: Recipe\nid: ${id}\nsources:\n  - ${source}\ntarget:\n  type: playlist\n  playlist: { title: "${id}", privacy: PRIVATE }\nmode: mirror\n`;
  await writeFile(
    join(harness.dir, "recipes", "two.yaml"),
    [
      recipe("fine", `{ id: list, type: static, videoIds: [${songs.join(", ")}] }`),
      recipe("broken", "{ id: src, type: playlist, playlistId: PLdoesnotexist000000000000000000 }"),
    ].join("---\n"),
  );
}

/** A project whose account is `auth`, with `notify` lines appended. */
export async function notifyProject(
  harness: Harness,
  name: string,
  auth: string,
  baseUrl: string,
  notify: readonly string[],
): Promise<string> {
  const file = join(harness.dir, name);
  await writeFile(
    file,
    [
      "apiVersion: musicsync/v1",
      "kind: Project",
      "accounts:",
      `  default: { auth: ${auth}, base_url: "${baseUrl}" }`,
      "pacing: { min_interval_ms: 0 }",
      "recipes: [recipes]",
      `state: ${name}.db`,
      ...(notify.length > 0 ? ["notify:", ...notify] : []),
      "",
    ].join("\n"),
  );
  return file;
}
