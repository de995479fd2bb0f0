/**
 * Faults on demand: per request (header `x-emulator-fault`), queued through the control endpoint
 * for the next matching requests, or drawn at a configured rate from a seeded generator.
 */
import { Rng } from "./random.js";
import { RawJson } from "./raw-json.js";

export type FaultKind =
  | "rate-limit"
  | "server-error"
  | "unavailable"
  | "slow"
  | "cut"
  | "failed-status"
  | "gated"
  | "truncate"
  | "conflict"
  | "throttled";

export interface Fault {
  kind: FaultKind;
  /** Seconds for Retry-After (rate-limit, unavailable, throttled). */
  retryAfter?: number;
  /** Added latency for `slow`, in milliseconds. */
  delayMs?: number;
}

export interface FaultConfig {
  /** Probability in [0, 1] that a request gets a fault. */
  rate: number;
  seed?: number;
  /** Kinds to draw from (default: rate-limit, server-error, unavailable). */
  kinds?: FaultKind[];
  /** Only requests to these endpoints (e.g. `browse`, `browse/edit_playlist`); all when absent. */
  endpoints?: string[];
  retryAfter?: number;
  delayMs?: number;
}

export interface QueuedFault extends Fault {
  endpoint?: string;
  /** How many matching requests this fault applies to (default 1). */
  count?: number;
}

/** Every fault kind, in a fixed order (the soak draws from it by seed). */
export const FAULT_KINDS: readonly FaultKind[] = [
  "rate-limit",
  "server-error",
  "unavailable",
  "slow",
  "cut",
  "failed-status",
  "gated",
  "truncate",
  "conflict",
  "throttled",
];

export function isFaultKind(v: unknown): v is FaultKind {
  return typeof v === "string" && (FAULT_KINDS as readonly string[]).includes(v);
}

/**
 * Reads the per-request header: `429`, `429;retry-after=3`, `500`, `503`, `slow=250`, `cut`,
 * `failed`, `gated`, `truncate`, `409`, `throttled;retry-after=5` (or the kind names themselves).
 */
export function parseFaultHeader(value: string | undefined): Fault | null {
  if (!value) return null;
  const [head = "", ...rest] = value.split(";").map((s) => s.trim());
  const opts = new Map(rest.map((p) => p.split("=").map((s) => s.trim()) as [string, string]));
  const [name = "", arg] = head.split("=");
  const num = (s: string | undefined) => (s !== undefined && /^\d+$/.test(s) ? Number(s) : undefined);
  const retryAfter = num(opts.get("retry-after"));
  switch (name) {
    case "429":
    case "rate-limit":
      return { kind: "rate-limit", retryAfter: retryAfter ?? 1 };
    case "500":
    case "server-error":
      return { kind: "server-error" };
    case "503":
    case "unavailable":
      return { kind: "unavailable", ...(retryAfter !== undefined ? { retryAfter } : {}) };
    case "slow":
      return { kind: "slow", delayMs: num(arg) ?? num(opts.get("ms")) ?? 1000 };
    case "cut":
      return { kind: "cut" };
    case "failed":
    case "failed-status":
      return { kind: "failed-status" };
    case "gated":
      return { kind: "gated" };
    case "truncate":
      return { kind: "truncate" };
    case "409":
    case "conflict":
      return { kind: "conflict" };
    case "throttled":
      return { kind: "throttled", retryAfter: retryAfter ?? 1 };
    default:
      return null;
  }
}

export class FaultInjector {
  private config: FaultConfig | null = null;
  private rng = new Rng(1);
  private queue: QueuedFault[] = [];

  constructor(config?: FaultConfig | null) {
    this.configure(config ?? null);
  }

  configure(config: FaultConfig | null): void {
    this.config = config;
    this.rng = new Rng(config?.seed ?? 1);
  }

  enqueue(faults: QueuedFault[]): void {
    this.queue.push(...faults.map((f) => ({ ...f, count: f.count ?? 1 })));
  }

  clear(): void {
    this.queue = [];
    this.configure(null);
  }

  state(): { config: FaultConfig | null; queue: QueuedFault[] } {
    return { config: this.config, queue: this.queue.map((f) => ({ ...f })) };
  }

  /** The fault for this request, if any: the header first, then the queue, then the rate. */
  pick(endpoint: string, header: string | undefined): Fault | null {
    const fromHeader = parseFaultHeader(header);
    if (fromHeader) return fromHeader;
    const i = this.queue.findIndex((f) => !f.endpoint || f.endpoint === endpoint);
    if (i >= 0) {
      const f = this.queue[i]!;
      f.count = (f.count ?? 1) - 1;
      if (f.count <= 0) this.queue.splice(i, 1);
      const { endpoint: _e, count: _c, ...fault } = f;
      return fault;
    }
    const c = this.config;
    if (!c || c.rate <= 0) return null;
    if (c.endpoints && !c.endpoints.includes(endpoint)) return null;
    if (this.rng.next() >= c.rate) return null;
    const kinds = c.kinds?.length ? c.kinds : (["rate-limit", "server-error", "unavailable"] as FaultKind[]);
    const kind = this.rng.pick(kinds);
    return { kind, retryAfter: c.retryAfter ?? 1, delayMs: c.delayMs ?? 1000 };
  }
}

/** Containers whose item lists a `truncate` fault cuts, and the key holding the list. */
const LISTS: Record<string, string> = {
  musicPlaylistShelfRenderer: "contents",
  musicShelfRenderer: "contents",
  gridRenderer: "items",
  playlistPanelRenderer: "contents",
  musicShelfContinuation: "contents",
  gridContinuation: "items",
  playlistPanelContinuation: "contents",
  appendContinuationItemsAction: "continuationItems",
};

/**
 * A list cut short: every item list keeps its first half and loses its continuation, while counts
 * elsewhere in the page (a playlist's track count) still describe the whole — what a client sees
 * when the service drops part of a list.
 */
export function truncateLists(value: unknown): unknown {
  // A serialized row holds no list; it stays as it is.
  if (value instanceof RawJson) return value;
  if (Array.isArray(value)) return value.map(truncateLists);
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "continuations") continue;
    out[k] = truncateLists(v);
  }
  for (const [container, key] of Object.entries(LISTS)) {
    const inner = out[container] as Record<string, unknown> | undefined;
    const list = inner?.[key];
    if (Array.isArray(list)) {
      const items = list.filter((x) => !(x && typeof x === "object" && "continuationItemRenderer" in x));
      inner![key] = items.slice(0, Math.ceil(items.length / 2));
    }
  }
  return out;
}
