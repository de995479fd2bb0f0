/** What every route handler receives: the emulator's state and one parsed request. */
import type { IncomingHttpHeaders } from "node:http";
import type { AuthConfig, OAuthConfig } from "./auth-config.js";
import type { ResponseCache } from "./cache.js";
import type { FaultInjector } from "./faults.js";
import type { RenderCache } from "./raw-json.js";
import type { AccountRow } from "./store/rows.js";
import type { Store } from "./store/store.js";

export interface EmulatorState {
  store: Store;
  faults: FaultInjector;
  /** Requests answered per endpoint key (`browse`, `browse/edit_playlist`, `GET /`, …). */
  counts: Map<string, number>;
  auth: AuthConfig;
  oauth: OAuthConfig;
  /** Clock in Unix milliseconds (tests may pin it). */
  now: () => number;
  /** The server's own origin, e.g. `http://127.0.0.1:41234` (for URLs it hands out). */
  baseUrl: string;
  /**
   * Edits of a playlist created less than this many milliseconds ago are refused with 409, as the
   * service does for up to ~20 s (docs/PROTOCOL.md#errors); 0 turns it off.
   */
  recentPlaylistConflictMs: number;
  /** Serialized read responses of the current state version; null turns caching off. */
  cache: ResponseCache | null;
  /** Serialized playlist rows by their inputs (kept across writes); null turns it off. */
  rows: RenderCache | null;
  /** Upload sessions opened by step one of an upload, by session id. */
  uploadSessions: Map<string, { accountId: number; fileName: string; size: number }>;
}

export interface Viewer {
  /** The account acting: a login, or the brand account chosen by `onBehalfOfUser`. */
  account: AccountRow;
  via: "cookie" | "oauth";
}

export interface ApiContext {
  state: EmulatorState;
  endpoint: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  viewer: Viewer | null;
  /** `clientName`, `hl` and `gl` from `context.client`. */
  clientName: string;
  language: string;
  location: string | null;
}

export type ApiHandler = (ctx: ApiContext) => unknown;

export interface ApiRoute {
  handler: ApiHandler;
  /** Writes run inside one transaction and may be answered with a failed status by a fault. */
  write?: boolean;
}
