/**
 * The daemon's clients and pacers, counted: each client operation as a read or a write, and each
 * write the pacer sends again or sees rate-limited. Counting goes to `metrics()`, the do-nothing
 * recorder unless metrics are served. Nothing here loads prom-client.
 */
import { RateLimitError } from "../../src/index.js";
import type { EngineClient, WriteClient } from "../apply/client.js";
import { WRITE_METHODS } from "../apply/client.js";
import { isThrottle400, type Pacer } from "../apply/pacer.js";
import { metrics, type RequestKind } from "./recorder.js";

/** The client's operations that read (its other methods, like `redact`, send nothing). */
const READ_METHOD = /^(get|search)/;

function kindOf(property: string | symbol): RequestKind | null {
  if (typeof property !== "string") return null;
  if (WRITE_METHODS.has(property as keyof WriteClient)) return "write";
  return READ_METHOD.test(property) ? "read" : null;
}

export function countedClient(client: EngineClient, account: string): EngineClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      const kind = kindOf(property);
      if (kind === null) return value.bind(target);
      return (...args: unknown[]) => {
        metrics().request(account, kind);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** A 429, or the 400 the service sometimes throttles with instead. */
function rateLimit(error: unknown): boolean {
  return error instanceof RateLimitError || isThrottle400(error);
}

const wrapped = new WeakMap<Pacer, Pacer>();

/** The pacer with its retries and rate-limit answers counted; the same wrapper for the same pacer. */
export function countedPacer(pacer: Pacer, account: string): Pacer {
  const known = wrapped.get(pacer);
  if (known) return known;
  const send: Pacer["send"] = (write, onRetry) =>
    pacer.send(
      async () => {
        try {
          return await write();
        } catch (e) {
          // Counted at every such answer, the last one (when the pacer gives up) included.
          if (rateLimit(e)) metrics().rateLimited(account);
          throw e;
        }
      },
      (note) => {
        metrics().retry(account);
        onRetry?.(note);
      },
    );
  const counted = new Proxy(pacer, {
    get(target, property, receiver) {
      if (property === "send") return send;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  wrapped.set(pacer, counted);
  return counted;
}
