/**
 * Counts deliveries in the Prometheus metrics (engine/metrics, `countNotification`). Loaded on first
 * use, so `sync` without a metrics endpoint loads no prom-client; a build without the metrics module
 * (or one whose load fails) counts nothing and notifies as before.
 */
type CountFn = (target: string, ok: boolean) => void;

let loading: Promise<CountFn | null> | null = null;

function load(): Promise<CountFn | null> {
  loading ??= import("../metrics/index.js")
    .then((m: Record<string, unknown>) =>
      typeof m.countNotification === "function" ? (m.countNotification as CountFn) : null,
    )
    .catch(() => null);
  return loading;
}

const counting = new Set<Promise<void>>();

export function countDelivery(target: string, ok: boolean): void {
  const p: Promise<void> = load()
    .then((count) => {
      try {
        count?.(target, ok);
      } catch {
        // A metric that cannot be counted never fails a notification.
      }
    })
    .finally(() => counting.delete(p));
  counting.add(p);
}

/** Resolves once every delivery so far is counted (the first count waits for the module's load). */
export async function countsSettled(): Promise<void> {
  await Promise.allSettled([...counting]);
}
