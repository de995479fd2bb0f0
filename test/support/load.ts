import { availableParallelism, loadavg } from "node:os";

/**
 * A time bound of the soak or of a heavy test, stretched by how oversubscribed the machine is now (the one-minute load
 * average over its cores, never below 1). A process starved of CPU by other work is slow, not stuck:
 * a reader blocked on a pipe or a process that never exits stays so however long it is given, so
 * the stretch hides no hang. Without it, a soak beside a busy build took slow start-ups and exits
 * for hangs (PostgreSQL seeds 104, 108, 116, 127, 128 at a load of 17 on 2 cores, each passing alone),
 * and a test's own time limit, read when its file starts, took a busy machine for a failure.
 */
export function stretched(ms: number): number {
  return Math.round(ms * Math.max(1, loadavg()[0]! / availableParallelism()));
}

/**
 * `check`'s first truthy value, asked every `everyMs`; an error naming `what` once `timeoutMs`, stretched by
 * the load as it waits, has passed (a machine that became busy since the wait began is slow, not stuck).
 */
export async function waitUntil<T>(
  check: () => T | Promise<T>,
  what: string | (() => string),
  timeoutMs = 15_000,
  everyMs = 50,
): Promise<NonNullable<T>> {
  const start = Date.now();
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() - start > stretched(timeoutMs))
      throw new Error(`timed out waiting for ${typeof what === "string" ? what : what()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
