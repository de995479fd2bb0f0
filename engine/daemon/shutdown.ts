/**
 * A graceful stop: once requested, no write is sent any more, while the one already on the wire is
 * left to finish (its answer is journaled as usual). Waits — pacing, backoff, the lock — end at once.
 * The applier then marks each write it could not send as failed, so the journal holds no write
 * whose fate is unknown and the next run simply plans again.
 */
import { type EngineClient, WRITE_METHODS, type WriteClient } from "../apply/client.js";
import { type Clock, systemClock } from "../apply/pacer.js";

/** Thrown instead of sending a write once a stop was requested (never reaches the service). */
export class InterruptedError extends Error {
  /** The applier counts an action stopped by it before any request as "not sent", not "failed". */
  readonly notSent = true;
  constructor(readonly signal: string) {
    super(`not sent: interrupted by ${signal}`);
    this.name = "InterruptedError";
  }
}

export class Shutdown {
  private reason: string | null = null;
  private readonly waiters = new Set<() => void>();

  get requested(): boolean {
    return this.reason !== null;
  }

  /** The signal (or other cause) that asked for the stop; null while running. */
  get signal(): string | null {
    return this.reason;
  }

  request(signal: string): void {
    if (this.reason !== null) return;
    this.reason = signal;
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /** Sleeps `ms`, or less if a stop is requested meanwhile; true when it slept the whole time. */
  sleep(ms: number, clock: Clock = systemClock): Promise<boolean> {
    if (this.reason !== null) return Promise.resolve(false);
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | null = null;
      const wake = () => {
        if (timer) clearTimeout(timer);
        resolve(false);
      };
      this.waiters.add(wake);
      const done = () => {
        this.waiters.delete(wake);
        resolve(this.reason === null);
      };
      // A real wait is a timer that a stop clears, so that nothing is left holding the process.
      if (clock === systemClock) timer = setTimeout(done, Math.max(0, ms));
      else clock.sleep(ms).then(done);
    });
  }

  /** A clock whose sleeps end when a stop is requested (the pacer's waits, the apply's back-offs). */
  clock(inner: Clock): Clock {
    return {
      now: () => inner.now(),
      sleep: async (ms) => {
        await this.sleep(ms, inner);
      },
    };
  }

  /** The client with its writes refused (before any request) once a stop is requested; reads pass. */
  guard(client: EngineClient): EngineClient {
    return new Proxy(client, {
      get: (target, property, receiver) => {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== "function") return value;
        if (!WRITE_METHODS.has(property as keyof WriteClient)) return value.bind(target);
        return (...args: unknown[]) => {
          if (this.reason !== null) return Promise.reject(new InterruptedError(this.reason));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }
}
