/**
 * The soak's runs through the proxy that echoes credentials back (docs/ENGINE.md#credentials): the account's
 * `base_url` pointed at test/support/echo-server.ts in front of the seed's emulator, for the engine
 * in this process (a project with that base_url) and for the real `musicsync` process (a second
 * project file beside the first: same account file, state database and recipe folder).
 */

import { readFile, writeFile } from "node:fs/promises";
import type { IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import type { Project } from "../../engine/recipe/types.js";
import { credentialSecrets } from "../support/credential-leaks.js";
import { type EchoServer, startEchoServer } from "../support/echo-server.js";
import type { Harness } from "../support/sync-harness.js";
import { secretsOfHeaders } from "./leaks.js";

export interface EchoRoute {
  server: EchoServer;
  /** The seed's project with every account's base_url at the proxy. */
  project: Project;
  projectFile: string;
}

export function withBaseUrl(project: Project, url: string): Project {
  const accounts = Object.fromEntries(
    Object.entries(project.accounts).map(([name, a]) => [name, { ...a, base_url: url }]),
  );
  return { ...project, accounts };
}

export async function startEchoRoute(h: Harness): Promise<EchoRoute> {
  const server = await startEchoServer({ upstream: h.emulator.url });
  const projectFile = join(h.dir, "musicsync-echo.yaml");
  const text = await readFile(h.projectFile, "utf8");
  const quoted = `"${h.emulator.url}"`;
  // The harness's project file with only its base_url changed, so it cannot drift from the original.
  if (!text.includes(quoted)) {
    await server.close();
    throw new Error(`the harness's project file does not name ${quoted}: cannot point it at the echo proxy`);
  }
  await writeFile(projectFile, text.replace(quoted, `"${server.url}"`));
  return { server, project: withBaseUrl(h.project, server.url), projectFile };
}

/**
 * The secrets one request carried: the engine signs each request itself (the SAPISIDHASH holds the
 * time), so the hash echoed back is not the harness's and must be looked for too.
 */
export function requestSecrets(headers: IncomingHttpHeaders): string[] {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join("; ") : value;
  return [...credentialSecrets(flat), ...secretsOfHeaders(flat)];
}
