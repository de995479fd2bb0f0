/**
 * Load generator for bench/emulator.ts, run as a second process (child_process.fork): sends one
 * scenario's requests with a fixed concurrency for a bounded time and count, and reports back.
 */
import { Agent, request } from "undici";

export interface LoadJob {
  url: string;
  name: string;
  /** Requests to cycle through (endpoint path and JSON body). */
  requests: { path: string; body: string }[];
  headers: Record<string, string>;
  concurrency: number;
  durationMs: number;
  maxRequests: number;
}

export interface LoadResult {
  name: string;
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50ms: number;
  p99ms: number;
  bytes: number;
}

async function run(job: LoadJob): Promise<LoadResult> {
  const dispatcher = new Agent({ connections: job.concurrency, pipelining: 1, keepAliveTimeout: 30_000 });
  const latencies: number[] = [];
  let sent = 0;
  let errors = 0;
  let bytes = 0;
  const start = performance.now();
  const deadline = start + job.durationMs;
  const worker = async () => {
    while (performance.now() < deadline && sent < job.maxRequests) {
      const r = job.requests[sent % job.requests.length]!;
      sent++;
      const t0 = performance.now();
      try {
        const res = await request(job.url + r.path, {
          method: "POST",
          body: r.body,
          headers: { "content-type": "application/json", "accept-encoding": "gzip, deflate", ...job.headers },
          dispatcher,
        });
        const buf = await res.body.arrayBuffer();
        bytes += buf.byteLength;
        if (res.statusCode !== 200) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  const seconds = (performance.now() - start) / 1000;
  await dispatcher.close();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return {
    name: job.name,
    requests: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50ms: pct(0.5),
    p99ms: pct(0.99),
    bytes,
  };
}

process.on("message", (job: LoadJob) => {
  run(job).then(
    (result) => process.send?.(result, () => process.exit(0)),
    (error: unknown) => {
      process.send?.({ name: job.name, error: String(error) }, () => process.exit(1));
    },
  );
});
