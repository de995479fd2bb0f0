/**
 * Before any test file: dist/ as fresh as the sources, since the command-line tests run the compiled
 * commands as a user does (`npx musicsync`). Built once here rather than by the first test that
 * needs it, whose time-out would then include the build.
 */
import { ensureBuilt } from "./support/cli-process.js";

export default async function setup(): Promise<void> {
  await ensureBuilt();
}
