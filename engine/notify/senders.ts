/**
 * The I/O of a delivery: one try, bounded by a timeout, that resolves when the receiver took the
 * notification and throws a DeliveryError (whose message names no header, body or URL query: they
 * may hold the receiver's token) when it did not.
 */
import { spawn } from "node:child_process";
import { Agent, request } from "undici";
import type { NotifyTarget } from "../recipe/types.js";
import type { NotifyEvent } from "./events.js";
import {
  type CommandDelivery,
  commandDelivery,
  type HttpDelivery,
  ntfyRequest,
  type Scrub,
  webhookRequest,
} from "./format.js";

export class DeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DeliveryError";
  }
}

/** One try of one event to one target. */
export type Sender = (target: NotifyTarget, event: NotifyEvent) => Promise<void>;

/** Where a URL points, without its path's secrets or query (for messages and logs). */
export function urlOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(invalid URL)";
  }
}

function reasonOf(e: unknown): string {
  const err = e as { name?: string; code?: string; message?: string } | null;
  if (err?.name === "TimeoutError" || err?.name === "AbortError") return "timed out";
  return err?.code ?? err?.name ?? "failed";
}

async function post(d: HttpDelivery, dispatcher: Agent, timeoutMs: number): Promise<void> {
  let status: number;
  try {
    const res = await request(d.url, {
      method: "POST",
      headers: d.headers,
      body: d.body,
      dispatcher,
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = res.statusCode;
    await res.body.dump();
  } catch (e) {
    throw new DeliveryError(`POST ${urlOrigin(d.url)}: ${reasonOf(e)}`);
  }
  if (status < 200 || status >= 300) throw new DeliveryError(`POST ${urlOrigin(d.url)}: HTTP ${status}`);
}

function run(d: CommandDelivery, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(d.file, d.args, {
      env: d.env,
      stdio: ["pipe", "ignore", "ignore"],
      timeout: timeoutMs,
      killSignal: "SIGKILL",
    });
    child.on("error", (e: NodeJS.ErrnoException) =>
      reject(new DeliveryError(`command ${d.file}: ${e.code ?? e.message}`)),
    );
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new DeliveryError(
            `command ${d.file}: ${signal ? `killed by ${signal} (timed out?)` : `exit code ${String(code)}`}`,
          ),
        );
    });
    // A command that does not read its stdin closes the pipe: that is its business, not a failure.
    child.stdin.on("error", () => {});
    child.stdin.end(d.stdin);
  });
}

/** The senders of one notifier; `close` ends their connections. */
export function createSender(options: {
  scrub: Scrub;
  timeoutMs: number;
  env?: Readonly<Record<string, string | undefined>>;
}): { send: Sender; close(): Promise<void> } {
  const agent = new Agent({ connect: { timeout: options.timeoutMs } });
  const send: Sender = async (target, event) => {
    switch (target.type) {
      case "webhook":
        return post(webhookRequest(target, event, options.scrub), agent, options.timeoutMs);
      case "ntfy":
        return post(ntfyRequest(target, event, options.scrub), agent, options.timeoutMs);
      case "command":
        return run(
          commandDelivery(target, event, options.scrub, options.env ?? process.env),
          options.timeoutMs,
        );
    }
  };
  return { send, close: () => agent.destroy() };
}
