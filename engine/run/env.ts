/**
 * From a project (accounts, pacing, state file) to what the runner needs: one client and one pacer
 * per account, the state database, a clock and a logger.
 */
import { dirname, resolve } from "node:path";
import { authTextKind, looksLikePath } from "../../shared/auth-text.js";
import { MusicClient, type MusicClientOptions } from "../../src/index.js";
import type { EngineClient } from "../apply/client.js";
import { type Clock, DEFAULT_PACING, Pacer, type PacingOptions, systemClock } from "../apply/pacer.js";
import { engineScrubber, learnStateUrl } from "../output/scrub.js";
import { requireResolved } from "../recipe/deferred-settings.js";
import type { Environment } from "../recipe/env.js";
import type { Account, Project } from "../recipe/types.js";
import { openState } from "../state/open.js";
import type { EngineState } from "../state/types.js";
import { resolveStateUrl } from "../state/url.js";
import { AccountError } from "./account-error.js";
import { authOption, settingError } from "./auth-setting.js";
import { type EmbeddedEmulator, embeddedEmulator, standInAccount } from "./emulator-account.js";
import type { EngineLogger } from "./logger.js";
import type { EngineEnv } from "./runner.js";
import { scrubbingState } from "./scrubbing-state.js";
import { serviceReaders } from "./service-readers.js";

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
  /** Where the other services' keys are read when the project file does not write them (default process.env). */
  environment?: Environment;
}

export { AccountError };

export function createEnv(options: EnvOptions): EngineEnv & { close(): Promise<void> } {
  const base = dirname(resolve(options.projectFile));
  const at = (p: string) => {
    const url = resolveStateUrl(p, base);
    learnStateUrl(url);
    return url;
  };
  const project = options.project;
  if (!options.state && !options.stateFile) requireResolved(project, ["state"], "the state is opened");
  // Whatever the engine stores goes through the scrubber first (docs/ENGINE.md#credentials).
  const state = scrubbingState(options.state ?? openState(at(options.stateFile ?? project.state)));
  const clients = new Map<string, EngineClient>();
  const emulators = new Map<string, EmbeddedEmulator>();
  const pacers = new Map<string, Pacer>();
  const clock = options.clock ?? systemClock;
  const pacing: PacingOptions = {
    ...DEFAULT_PACING,
    minIntervalMs: project.pacing.min_interval_ms,
    maxPerMinute: project.pacing.max_writes_per_minute,
    ...options.pacing,
  };
  // The other services' stand-ins are read on the emulator of the project's first `emulator:` account.
  const emulatorAccount = standInAccount(project);
  const env = {
    state,
    clock,
    logger: options.logger,
    suspendAfterFailures: project.pacing.suspend_after_failures,
    ...(options.onAction ? { onAction: options.onAction } : {}),
    clientFor(name: string): EngineClient {
      const client = clients.get(name);
      if (client) return client;
      const account = project.accounts[name];
      if (!account) throw new AccountError(`account "${name}" is not in the project file`);
      requireResolved(project, ["accounts", name], `account ${name} is used`);
      const opts = clientOptions(account, options.logger.child({ account: name }));
      if (account.emulator) {
        const embedded = embeddedEmulator(name, account.emulator, base, opts, (made) =>
          engineScrubber.addClient(
            (value) => made.redact(value),
            () => made.secretIndex(),
          ),
        );
        emulators.set(name, embedded);
        clients.set(name, embedded.client);
        return embedded.client;
      }
      const auth = accountAuth(name, account, base);
      if (auth) opts.auth = auth;
      const setting = { account: name, setting: account.auth ? "auth" : "token" } as const;
      let made: MusicClient;
      try {
        made = new MusicClient(opts);
      } catch (error) {
        throw settingError(setting, error);
      }
      engineScrubber.addClient(
        (value) => made.redact(value),
        () => made.secretIndex(),
      );
      clients.set(name, made);
      return made;
    },
    pacerFor(name: string, purpose: "writes" | "searches" = "writes"): Pacer {
      const key = `${name} (${purpose})`;
      let pacer = pacers.get(key);
      if (!pacer) {
        // Pacing spares the service's rate limits; an emulator embedded in this process has none,
        // so its account is not paced (retries stay). An emulator at a base_url is paced as the service is.
        const embedded = project.accounts[name]?.emulator && !options.pacing;
        pacer = new Pacer(embedded ? { ...pacing, minIntervalMs: 0, maxPerMinute: 0 } : pacing, clock);
        pacers.set(key, pacer);
      }
      return pacer;
    },
    async close() {
      try {
        await state.close();
      } finally {
        await Promise.all([...emulators.values()].map((e) => e.stop()));
      }
    },
  };
  return {
    ...env,
    services: serviceReaders({
      project,
      environment: options.environment ?? process.env,
      signIn: { projectFile: options.projectFile, state },
      ...(emulatorAccount !== undefined
        ? {
            emulatorUrl: () => {
              env.clientFor(emulatorAccount);
              return emulators.get(emulatorAccount)!.url();
            },
          }
        : {}),
    }),
  };
}

/** The client options an account's settings give, but its credentials. */
function clientOptions(account: Account, logger: EngineLogger): MusicClientOptions {
  return {
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
    logger,
  };
}

/**
 * The account's credentials as the client option: inline values (headers or token JSON, header
 * text) as they are, paths made absolute. Inline credentials become known to the scrubber through
 * the client made from them (its errors never quote them); a value that is neither inline nor
 * named like a file (a bare token, a one-line cookie) is made known here, as no client may ever
 * be made from it. A path may be shown, so it is not.
 */
function accountAuth(name: string, account: Account, base: string): string | undefined {
  const value = account.auth ?? account.token;
  const secret = value && authTextKind(value) === "path" && !looksLikePath(value) ? value.trim() : null;
  engineScrubber.addSecrets([secret, account.oauth_client?.secret].filter((v): v is string => !!v));
  if (!value) return undefined;
  return authOption({ account: name, setting: account.auth ? "auth" : "token", value, base }).auth;
}
