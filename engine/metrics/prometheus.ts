/**
 * The Prometheus side: a registry of our own (never prom-client's global one, which a library
 * sharing the process could fill) with musicsync's metrics, the recorder that feeds them, and the
 * text a scrape gets. Loaded only by engine/metrics/index.ts, on demand.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { ActionPhase } from "../apply/context.js";
import { gaugesOf } from "./gauges.js";
import { type MetricsRecorder, type RequestKind, statusSource } from "./recorder.js";

export const registry = new Registry();

// Memory, CPU, event-loop lag and open handles of the process, under the same prefix.
collectDefaultMetrics({ register: registry, prefix: "musicsync_" });

const registers = [registry];

const runs = new Counter({
  name: "musicsync_runs_total",
  help: "Attempts of a recipe by their result (converged, no_changes, partial, failed, suspended, ...)",
  labelNames: ["recipe", "result"] as const,
  registers,
});

const runDuration = new Histogram({
  name: "musicsync_run_duration_seconds",
  help: "How long a recipe's run took, reads, plan and writes included",
  labelNames: ["recipe"] as const,
  buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 1800],
  registers,
});

const actions = new Counter({
  name: "musicsync_actions_total",
  help: "Plan actions applied, by kind and fate (confirmed, failed, unknown)",
  labelNames: ["kind", "fate"] as const,
  registers,
});

const requests = new Counter({
  name: "musicsync_requests_total",
  help: "Client operations sent to the service, by account and kind (read or write); a paged read counts once",
  labelNames: ["account", "kind"] as const,
  registers,
});

const retries = new Counter({
  name: "musicsync_write_retries_total",
  help: "Writes sent again after the service said not now (429, throttling 400, 5xx)",
  labelNames: ["account"] as const,
  registers,
});

const rateLimited = new Counter({
  name: "musicsync_rate_limited_total",
  help: "Rate-limit answers to writes (HTTP 429 or a throttling 400)",
  labelNames: ["account"] as const,
  registers,
});

const lockWaits = new Counter({
  name: "musicsync_lock_waits_total",
  help: "Runs that found their account's lock held by another process and waited",
  labelNames: ["account"] as const,
  registers,
});

const lockWaitSeconds = new Histogram({
  name: "musicsync_lock_wait_seconds",
  help: "How long a run waited for its account's lock",
  labelNames: ["account"] as const,
  buckets: [0.5, 1, 5, 15, 60, 300, 900],
  registers,
});

const notifications = new Counter({
  name: "musicsync_notifications_total",
  help: "Notification deliveries by target and result (ok or failed, after its retries)",
  labelNames: ["target", "result"] as const,
  registers,
});

const suspended = new Gauge({
  name: "musicsync_recipe_suspended",
  help: "1 while the recipe (or its account) is suspended until `musicsync resume`, else 0",
  labelNames: ["recipe", "account"] as const,
  registers,
});

const credentials = new Gauge({
  name: "musicsync_credentials_valid",
  help: "1 when the service last accepted the account's credentials, 0 when it last refused them",
  labelNames: ["account"] as const,
  registers,
});

const lastSuccess = new Gauge({
  name: "musicsync_last_success_timestamp_seconds",
  help: "When the recipe's last converged (or unchanged) run finished, in Unix seconds",
  labelNames: ["recipe"] as const,
  registers,
});

const statusErrors = new Counter({
  name: "musicsync_status_read_errors_total",
  help: "Scrapes whose gauges could not be read from the state (they kept their previous values)",
  registers,
});

/** Final phases only: "sent" is on the way to one of them, not a fate. */
const FATES: ReadonlySet<ActionPhase> = new Set(["confirmed", "failed", "unknown"]);

export const prometheusRecorder: MetricsRecorder = {
  run(recipe, result, seconds) {
    runs.inc({ recipe, result });
    if (seconds !== null) runDuration.observe({ recipe }, seconds);
  },
  action(kind, phase) {
    if (FATES.has(phase)) actions.inc({ kind, fate: phase });
  },
  request(account: string, kind: RequestKind) {
    requests.inc({ account, kind });
  },
  retry: (account) => retries.inc({ account }),
  rateLimited: (account) => rateLimited.inc({ account }),
  lockWaiting: (account) => lockWaits.inc({ account }),
  lockWaited: (account, seconds) => lockWaitSeconds.observe({ account }, seconds),
  notification(target, ok) {
    notifications.inc({ target, result: ok ? "ok" : "failed" });
  },
};

/** Sets the gauges from the state as it is now; without a source (nothing registered) they stay empty. */
async function refreshGauges(): Promise<void> {
  const read = statusSource();
  if (!read) return;
  let report: Awaited<ReturnType<typeof read>>;
  try {
    report = await read();
  } catch {
    // A state busy or gone for a moment must not cost the scrape its counters.
    statusErrors.inc();
    return;
  }
  const g = gaugesOf(report);
  suspended.reset();
  credentials.reset();
  lastSuccess.reset();
  for (const s of g.suspended) suspended.set({ recipe: s.recipe, account: s.account }, s.value);
  for (const c of g.credentials) credentials.set({ account: c.account }, c.value);
  for (const l of g.lastSuccess) lastSuccess.set({ recipe: l.recipe }, l.seconds);
}

/** The scrape: the gauges read afresh, then every metric in Prometheus' text format. */
export async function scrape(): Promise<{ contentType: string; body: string }> {
  await refreshGauges();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
