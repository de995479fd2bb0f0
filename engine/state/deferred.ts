/**
 * A state opened by its first call: openState is synchronous (the engine opens its state while it
 * builds its environment), yet PostgreSQL's driver must be imported only by a process whose state
 * is on PostgreSQL, and an import is asynchronous. Every call of a PostgreSQL state already waits
 * for its connection; here it also waits for the module that makes it.
 */
import { State } from "./state.js";
import type { EngineState } from "./types.js";

export function deferredState(open: () => Promise<EngineState>): EngineState {
  let opened: EngineState | null = null;
  let opening: Promise<EngineState> | null = null;
  let closed = false;
  const state = (): Promise<EngineState> => {
    // Opening after close would start a pool nothing ever ends.
    if (closed) return Promise.reject(new Error("the state is closed"));
    opening ??= open().then((s) => {
      opened = s;
      return s;
    });
    return opening;
  };
  const own: Partial<EngineState> = {
    // Synchronous, asked before every write: a lock is only held once a call has opened the state.
    lockLost: (lockId: string) => opened?.lockLost?.(lockId) ?? null,
    close: async () => {
      closed = true;
      const inner = await opening?.catch(() => null);
      await inner?.close();
    },
  };
  return new Proxy({} as EngineState, {
    get(_target, property) {
      if (typeof property !== "string") return undefined;
      if (property in own) return own[property as keyof EngineState];
      // Only the state's methods: `then` and the like stay undefined, so the proxy is not a promise.
      const method: unknown = Reflect.get(State.prototype, property);
      if (typeof method !== "function" || property === "constructor") return undefined;
      return async (...args: unknown[]) => {
        const inner = (await state()) as unknown as Record<string, (...a: unknown[]) => unknown>;
        return inner[property]!(...args);
      };
    },
  });
}
