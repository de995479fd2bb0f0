/**
 * What the readers' tests share: a clock that moves only when a reader sleeps (given to the
 * emulator too, so that a rate-limit window passes when the reader waits it out), the emulator's
 * control routes, and a hostile service that echoes credentials.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServiceReadError } from "../../../engine/services/http.js";

export function fakeClock(start = Date.UTC(2026, 10, 25, 15, 0, 0)) {
  let now = start;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    /** Time passing without the reader asking (a token growing old). */
    advance: (ms: number) => {
      now += ms;
    },
    http: {
      now: () => now,
      random: () => 0.5,
      sleep: async (ms: number) => {
        waits.push(ms);
        now += ms;
      },
    },
  };
}

export async function postJson(base: string, path: string, body: unknown): Promise<unknown> {
  const r = await fetch(`${base}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
  return r.json();
}

/** Every text an error carries: message, stack, JSON, and the same of each cause. */
export function everyText(e: unknown): string {
  const parts: string[] = [];
  let cur: unknown = e;
  for (let depth = 0; cur && depth < 10; depth++) {
    const err = cur as Error & { cause?: unknown };
    parts.push(String(err), String(err.stack), JSON.stringify(err), JSON.stringify(Object.entries(err)));
    cur = err.cause;
  }
  return parts.join("\n");
}

/** A server answering every request with `answer`; its base address and a way to close it. */
export async function hostileServer(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const server: Server = createServer(answer);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The error a read ended with, or null when it succeeded. */
export function failure(p: Promise<unknown>): Promise<ServiceReadError | null> {
  return p.then(
    () => null,
    (e: unknown) => e as ServiceReadError,
  );
}
