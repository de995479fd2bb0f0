/**
 * From a project (accounts, pacing, state file) to what the runner needs: one client and one pacer
 * per account, the state database, a clock and a logger.
 */
import { dirname, isAbsolute, resolve } from "node:path";
import { MusicClient, type MusicClientOptions } from "../../src/index.js";
import type { EngineClient } from "../apply/client.js";
import { type Clock, DEFAULT_PACING, Pacer, type PacingOptions, systemClock } from "../apply/pacer.js";
import type { Project } from "../recipe/types.js";
import { openSqliteState } from "../state/sqlite.js";
import type { EngineState } from "../state/types.js";
import type { EngineLogger } from "./logger.js";
import type { EngineEnv } from "./runner.js";

export interface EnvOptions {
  project: Project;
  /** The project file's path: relative paths in it are relative to its folder. */
  projectFile: string;
  logger: EngineLogger;
  /** Overrides the project's `state` (e.g. `:memory:`). */
  stateFile?: string;
  state?: EngineState;
  clock?: Clock;
  /** Overrides parts of the project's pacing (tests and the demo write without waiting). */
  pacing?: Partial<PacingOptions>;
  onAction?: EngineEnv["onAction"];
}

export class AccountError extends Error {}

export function createEnv(options: EnvOptions): EngineEnv & { close(): Promise<void> } {
  const base = dirname(resolve(options.projectFile));
  const at = (p: string) => (isAbsolute(p) || p === ":memory:" ? p : resolve(base, p));
  const project = options.project;
  const state = options.state ?? openSqliteState(at(options.stateFile ?? project.state));
  const clients = new Map<string, EngineClient>();
  const pacers = new Map<string, Pacer>();
  const clock = options.clock ?? systemClock;
  const pacing: PacingOptions = {
    ...DEFAULT_PACING,
    minIntervalMs: project.pacing.min_interval_ms,
    maxPerMinute: project.pacing.max_writes_per_minute,
    ...options.pacing,
  };
  return {
    state,
    clock,
    logger: options.logger,
    suspendAfterFailures: project.pacing.suspend_after_failures,
    ...(options.onAction ? { onAction: options.onAction } : {}),
    clientFor(name: string): EngineClient {
      let client = clients.get(name);
      if (client) return client;
      const account = project.accounts[name];
      if (!account) throw new AccountError(`account "${name}" is not in the project file`);
      const auth = account.auth ?? account.token;
      const opts: MusicClientOptions = {
        ...(auth ? { auth: at(auth) } : {}),
        ...(account.base_url ? { baseUrl: account.base_url } : {}),
        ...(account.brand_account ? { user: account.brand_account } : {}),
        ...(account.language ? { language: account.language } : {}),
        ...(account.location ? { location: account.location } : {}),
        ...(account.oauth_client
          ? {
              oauthCredentials: {
                clientId: account.oauth_client.id,
                clientSecret: account.oauth_client.secret,
              },
            }
          : {}),
        logger: options.logger.child({ account: name }),
      };
      client = new MusicClient(opts);
      clients.set(name, client);
      return client;
    },
    pacerFor(name: string): Pacer {
      let pacer = pacers.get(name);
      if (!pacer) {
        pacer = new Pacer(pacing, clock);
        pacers.set(name, pacer);
      }
      return pacer;
    },
    close: () => state.close(),
  };
}
