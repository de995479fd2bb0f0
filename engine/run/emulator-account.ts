/**
 * An `emulator:` account: the emulator, started in-process on 127.0.0.1 the first time the account's
 * client is used, signed in as one of its seeded accounts, stopped when the command ends. Its
 * database file keeps the library between commands, so a second `sync` finds what the first wrote.
 * The emulator's module graph is loaded only then: commands that never touch such an account
 * (`--help`, `validate`) do not pay for it.
 */
import { resolve } from "node:path";
import { MusicClient, type MusicClientOptions } from "../../src/index.js";
import type { EngineClient } from "../apply/client.js";
import type { EmulatorAccount, Project } from "../recipe/types.js";
import { AccountError } from "./account-error.js";

export interface EmbeddedEmulator {
  /** Answers as the account's client; the first call starts the emulator. */
  client: EngineClient;
  /**
   * The emulator's address, starting it if need be: its stand-ins for other music services are
   * read there (`services: { spotify: { emulator: true } }`, engine/run/service-settings.ts).
   */
  url(): Promise<string>;
  /** Stops the emulator if it was started (safe to call more than once). */
  stop(): Promise<void>;
}

/** The account whose embedded emulator the other services' stand-ins are read on: the project's first `emulator:` one. */
export function standInAccount(project: Project): string | undefined {
  return Object.keys(project.accounts).find((name) => project.accounts[name]?.emulator);
}

/**
 * That account's embedded emulator, for a command that needs only its address (`auth spotify`
 * signing in to the Spotify stand-in); null when the project has no `emulator:` account. `base`
 * is the project file's folder, which its database is relative to.
 */
export function standInEmulator(project: Project, base: string): EmbeddedEmulator | null {
  const name = standInAccount(project);
  const settings = name === undefined ? undefined : project.accounts[name]?.emulator;
  return name === undefined || !settings ? null : embeddedEmulator(name, settings, base, {});
}

interface Started {
  stop(): Promise<void>;
  client: MusicClient;
  url: string;
}

/**
 * `options` are the client options of the account (language, logger…) without auth and base URL;
 * `onClient` sees the client once made (the engine's scrubber learns its credentials from it).
 */
export function embeddedEmulator(
  name: string,
  settings: EmulatorAccount,
  base: string,
  options: MusicClientOptions,
  onClient: (client: MusicClient) => void = () => {},
): EmbeddedEmulator {
  let started: Promise<Started> | null = null;
  const ready = () => {
    started ??= start(name, settings, base, options).then((s) => {
      onClient(s.client);
      return s;
    });
    return started;
  };
  return {
    client: lazyClient(async () => (await ready()).client),
    url: async () => (await ready()).url,
    async stop() {
      if (!started) return;
      // A start that failed has nothing to stop.
      const s = await started.catch(() => null);
      await s?.stop();
    },
  };
}

async function start(
  name: string,
  settings: EmulatorAccount,
  base: string,
  options: MusicClientOptions,
): Promise<Started> {
  const { startEmulator } = await import("../../emulator/index.js");
  const emulator = await startEmulator({
    db: resolve(base, settings.db),
    seed: settings.seed,
    catalogueSize: settings.catalogue,
  });
  try {
    const headers = await accountHeaders(emulator.url, settings.account, name);
    const client = new MusicClient({ ...options, auth: headers, baseUrl: emulator.url });
    return { client, url: emulator.url, stop: () => emulator.stop() };
  } catch (e) {
    await emulator.stop();
    throw e;
  }
}

/** The browser headers of a seeded account, as the emulator hands them out. */
async function accountHeaders(url: string, account: number, name: string): Promise<Record<string, string>> {
  const response = await fetch(`${url}/_emulator/accounts/${account}/headers`);
  if (!response.ok) {
    throw new AccountError(
      `accounts.${name}.emulator.account: the emulator has no account ${account} (HTTP ${response.status})`,
    );
  }
  return (await response.json()) as Record<string, string>;
}

/**
 * A client whose every method waits for the real one first. The engine asks for clients
 * synchronously; only calling one needs the emulator to be up.
 */
function lazyClient(get: () => Promise<MusicClient>): EngineClient {
  return new Proxy({} as EngineClient, {
    get(_target, property) {
      const method = typeof property === "string" ? Reflect.get(MusicClient.prototype, property) : undefined;
      // Only the client's methods: `then` and the like stay undefined, so the proxy is not a promise.
      if (typeof method !== "function" || property === "constructor") return undefined;
      return async (...args: unknown[]) => {
        const client = await get();
        return (method as (...a: unknown[]) => unknown).apply(client, args);
      };
    },
  });
}
