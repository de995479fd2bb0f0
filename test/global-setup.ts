/**
 * Before any test file: dist/ as fresh as the sources, since the command-line tests run the compiled
 * commands as a user does (`npx musicsync`). Built once here rather than by the first test that
 * needs it, whose time-out would then include the build.
 *
 * And a folder for the run's PostgreSQL template (see StartOptions.templates): made empty here and
 * removed after the run, so that no run ever finds one left by another (of other binaries, or half
 * written). The first file that starts a server fills it; a run without PostgreSQL tests pays nothing.
 */
import type { TestProject } from "vitest/node";
import { ensureBuilt } from "./support/cli-process.js";
import { makeTemplatesFolder } from "./support/postgres-server.js";

export default async function setup(project: TestProject): Promise<() => void> {
  const templates = makeTemplatesFolder();
  if (templates) project.provide("postgresTemplates", templates.folder);
  await ensureBuilt();
  return () => templates?.remove();
}
