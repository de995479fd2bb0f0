/**
 * The emulator's entry point: `startEmulator(options)` opens (and if needed generates) the
 * database, starts the HTTP server on 127.0.0.1, and returns its URL and a way to stop it.
 */
import type { AddressInfo } from "node:net";
import { type AuthConfig, DEFAULT_AUTH, DEFAULT_OAUTH, type OAuthConfig } from "./auth-config.js";
import { ResponseCache } from "./cache.js";
import type { CatalogueSummary } from "./catalogue/summary.js";
import { ensureIsrcs, generateCatalogue, hasCatalogue } from "./catalogue.js";
import type { EmulatorState } from "./context.js";
import { type FaultConfig, FaultInjector } from "./faults.js";
import { RenderCache } from "./raw-json.js";
import { apiRoutes } from "./routes/index.js";
import { createEmulatorServer } from "./server.js";
import { openDb } from "./store/db.js";
import { Store } from "./store/store.js";

export type { AuthConfig, OAuthConfig } from "./auth-config.js";
export { browserHeaders, sapisidHash } from "./browser-headers.js";
export type { CatalogueSummary } from "./catalogue/summary.js";
export type { FaultConfig, FaultKind, QueuedFault } from "./faults.js";

export interface EmulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** A database file, or `:memory:` (the default). A file keeps its state between runs. */
  db?: string;
  seed?: number;
  /** Number of songs in the generated catalogue (default 500). */
  catalogueSize?: number;
  faults?: FaultConfig | null;
  auth?: Partial<AuthConfig>;
  oauth?: Partial<OAuthConfig>;
  /** Clock in Unix milliseconds (tests may pin it). */
  now?: () => number;
  /** Reuse serialized read responses until the next write (default true). */
  cache?: boolean;
  /**
   * Reuse each serialized playlist row while its inputs (song, position, the viewer's like and
   * library marks…) stay the same, across writes (default true).
   */
  rowCache?: boolean;
  /** Refuse edits of playlists younger than this with HTTP 409, as the service does (default 0: off). */
  recentPlaylistConflictMs?: number;
}

export interface RunningEmulator {
  /** e.g. `http://127.0.0.1:41234` — use as the client's `baseUrl`. */
  url: string;
  port: number;
  /** Catalogue figures (null when an existing database was reused). */
  catalogue: CatalogueSummary | null;
  /** Milliseconds spent generating the catalogue (0 when reused). */
  generationMs: number;
  /**
   * @internal Internal state, for tests that inspect the database directly. Left out of the
   * published declarations (stripInternal), whose types must not reach drizzle's.
   */
  state: EmulatorState;
  /** Requests answered so far per endpoint key, as `GET /_emulator/stats` reports them. */
  counts(): Record<string, number>;
  resetCounts(): void;
  stop(): Promise<void>;
}

/**
 * In-memory databases as their catalogue left them, serialized, by seed and size: an emulator
 * started again in this process with the same ones opens a copy (a few milliseconds) instead of
 * generating the catalogue again (a fifth of a second of CPU for 300 songs, over a second for
 * 11,000), which a test suite starting an emulator per test paid hundreds of times. Generation
 * reads no clock, so the copy is what generating again would make. The newest are kept, up to
 * GENERATED_BYTES (a catalogue of 300 songs takes 3.3 MB, one of 11,000 13 MB).
 */
const generated = new Map<string, { bytes: Buffer; summary: CatalogueSummary }>();
const GENERATED_BYTES = 64 * 1024 * 1024;

/** The database, its catalogue generated (or, in memory, copied from the last generation of it). */
function openWithCatalogue(file: string, seed: number, size: number) {
  const key = `${seed}:${size}`;
  const t0 = performance.now();
  const kept = file === ":memory:" ? generated.get(key) : undefined;
  if (kept) {
    return { db: openDb(kept.bytes), catalogue: kept.summary, generationMs: performance.now() - t0 };
  }
  const db = openDb(file);
  if (hasCatalogue(db, { seed, size })) {
    ensureIsrcs(db, { seed, size });
    return { db, catalogue: null, generationMs: 0 };
  }
  const catalogue = generateCatalogue(db, { seed, size });
  if (file === ":memory:") {
    generated.set(key, { bytes: db.$client.serialize(), summary: catalogue });
    let bytes = 0;
    for (const kept of generated.values()) bytes += kept.bytes.length;
    // Oldest first, the newest always kept.
    for (const [old, kept] of generated) {
      if (bytes <= GENERATED_BYTES || old === key) break;
      generated.delete(old);
      bytes -= kept.bytes.length;
    }
  }
  return { db, catalogue, generationMs: performance.now() - t0 };
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed = options.seed ?? 1;
  const size = options.catalogueSize ?? 500;
  const now = options.now ?? Date.now;
  const { db, catalogue, generationMs } = openWithCatalogue(options.db ?? ":memory:", seed, size);
  const store = new Store(db, now);
  const state: EmulatorState = {
    store,
    faults: new FaultInjector(options.faults ?? null),
    counts: new Map(),
    auth: { ...DEFAULT_AUTH, ...options.auth },
    oauth: { ...DEFAULT_OAUTH, ...options.oauth },
    now,
    baseUrl: "",
    uploadSessions: new Map(),
    cache: options.cache === false ? null : new ResponseCache(),
    rows: options.rowCache === false ? null : new RenderCache(),
    recentPlaylistConflictMs: options.recentPlaylistConflictMs ?? 0,
  };
  const server = createEmulatorServer(state, apiRoutes());
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    // A port in use leaves nothing open behind it: an embedding program goes on without a handle.
    const failed = (e: Error) => {
      db.$client.close();
      reject(e);
    };
    server.once("error", failed);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", failed);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  state.baseUrl = url;
  let stopped = false;
  return {
    url,
    port,
    catalogue,
    generationMs,
    state,
    counts: () => Object.fromEntries(state.counts),
    resetCounts: () => state.counts.clear(),
    async stop() {
      if (stopped) return;
      stopped = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      db.$client.close();
    },
  };
}
