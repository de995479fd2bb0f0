/**
 * Prometheus metrics for `/metrics` (docs/ENGINE.md#the-status-page-and-metrics). Importing this module is cheap: prom-client and the
 * registry load on the first `enableMetrics()` or `metricsText()`, so a process that never serves
 * metrics never loads them.
 */
import { metrics, setRecorder } from "./recorder.js";

export {
  type MetricsRecorder,
  metrics,
  NO_METRICS,
  type RequestKind,
  type StatusSource,
  setStatusSource,
} from "./recorder.js";

type Prometheus = typeof import("./prometheus.js");

let loading: Promise<Prometheus> | null = null;

/**
 * Loads the registry and starts counting. Call it when the server that will serve `/metrics`
 * starts, before the daemon's first run: what happens before it is not counted.
 */
export function enableMetrics(): Promise<void> {
  return prometheus().then(() => {});
}

function prometheus(): Promise<Prometheus> {
  loading ??= import("./prometheus.js").then(
    (p) => {
      setRecorder(p.prometheusRecorder);
      return p;
    },
    (e: unknown) => {
      loading = null;
      throw e;
    },
  );
  return loading;
}

/** The body of a `/metrics` answer and its content type (enables the metrics if they were not). */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return (await prometheus()).scrape();
}

/** A notification's delivery ended: delivered (ok) or given up on after its retries. */
export function countNotification(target: string, ok: boolean): void {
  metrics().notification(target, ok);
}
