/**
 * Debian's Chromium (the `chromium` package, which `.ci/run` installs) driven by playwright-core,
 * which brings no browser of its own. The flags keep Chromium from reaching for the network on its
 * own (updates, sync, field trials): a closed network would refuse it and slow every start.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** A name this browser resolves to 127.0.0.1, as a DNS-rebinding attacker's domain would be. */
export const REBOUND_NAME = "rebind.attacker.test";

/**
 * Why the browser tests cannot run here, or null when they can. Without Chromium they are skipped on
 * a person's machine but run (and fail) in CI, where `.ci/run` must have installed it.
 */
export function browserSkipReason(env: NodeJS.ProcessEnv = process.env): string | null {
  if (existsSync(CHROMIUM) || env.CI) return null;
  return `${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium) to run the status page's browser tests (they run, and fail, when CI is set)`;
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function startChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing; .ci/run installs Debian's chromium package`);
  // A fresh profile each time: nothing carried over from another run (cookies, cache).
  const profile = await mkdtemp(join(tmpdir(), "musicsync-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    timeout: 60_000,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--host-resolver-rules=MAP ${REBOUND_NAME} 127.0.0.1`,
    ],
    viewport: { width: 1280, height: 900 },
  });
  // Bounded waits everywhere: a page that never loads fails the test instead of hanging it.
  context.setDefaultTimeout(20_000);
  context.setDefaultNavigationTimeout(30_000);
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
