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

async function post(d: HttpDelivery, dispatcher: Agent, signal: AbortSignal): Promise<void> {
  let status: number;
  try {
    const res = await request(d.url, {
      method: "POST",
      headers: d.headers,
      body: d.body,
      dispatcher,
      signal,
    });
    status = res.statusCode;
    await res.body.dump();
  } catch (e) {
    throw new DeliveryError(`POST ${urlOrigin(d.url)}: ${reasonOf(e)}`);
  }
  if (status < 200 || status >= 300) throw new DeliveryError(`POST ${urlOrigin(d.url)}: HTTP ${status}`);
}

/**
 * The command, killed when `signal` aborts (its try timed out, or the notifier closed). Not spawn's
 * own `timeout`: its timer outlives a command that could not start (ENOENT), which kept a finished
 * `sync` alive for the whole timeout.
 */
function run(d: CommandDelivery, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(d.file, d.args, {
      env: d.env,
      stdio: ["pipe", "ignore", "ignore"],
      signal,
      killSignal: "SIGKILL",
    });
    child.on("error", (e: NodeJS.ErrnoException) =>
      reject(new DeliveryError(`command ${d.file}: ${signal.aborted ? "timed out" : (e.code ?? e.message)}`)),
    );
    child.on("close", (code, killed) => {
      if (code === 0) resolve();
      else
        reject(
          new DeliveryError(
            `command ${d.file}: ${killed ? `killed by ${killed}${signal.aborted ? " (timed out)" : ""}` : `exit code ${String(code)}`}`,
          ),
        );
    });
    // A command that does not read its stdin closes the pipe: that is its business, not a failure.
    child.stdin.on("error", () => {});
    child.stdin.end(d.stdin);
  });
}

/** The senders of one notifier; `close` ends their connections and stops the tries under way. */
export function createSender(options: {
  scrub: Scrub;
  timeoutMs: number;
  env?: Readonly<Record<string, string | undefined>>;
}): { send: Sender; close(): Promise<void> } {
  const agent = new Agent({ connect: { timeout: options.timeoutMs } });
  // A try given up by drain must not outlive it: a command that sleeps, or a receiver that never
  // answers, would otherwise keep a finished process alive until its own timeout.
  const closing = new AbortController();
  const send: Sender = async (target, event) => {
    const signal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs), closing.signal]);
    switch (target.type) {
      case "webhook":
        return post(webhookRequest(target, event, options.scrub), agent, signal);
      case "ntfy":
        return post(ntfyRequest(target, event, options.scrub), agent, signal);
      case "command":
        return run(commandDelivery(target, event, options.scrub, options.env ?? process.env), signal);
    }
  };
  return {
    send,
    close: () => {
      closing.abort();
      return agent.destroy();
    },
  };
}
