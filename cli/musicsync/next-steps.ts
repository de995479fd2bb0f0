/**
 * What a person does about refused credentials, in the same words wherever a command meets them:
 * `doctor`'s account check, and `sync` / `apply` when the service refused an account's
 * credentials (exit 4) — renew them, then lift the account's suspension for the daemon.
 */
import type { RecipeRun } from "../../engine/run/runner.js";
import type { HealthStore } from "../../engine/state/types.js";
import type { CliIo } from "./io.js";

export const RENEW = "renew them with `musicapi browser` (or `musicapi oauth`)";

/**
 * One line per account whose credentials a run found refused: what to run. The resume is named
 * when the refusal suspended the account (the daemon then runs nothing of it until lifted).
 */
export async function refusedCredentialsSteps(
  runs: readonly RecipeRun[],
  state: Pick<HealthStore, "health">,
): Promise<string[]> {
  const accounts = [...new Set(runs.map((r) => r.credentialsRefused).filter((a): a is string => !!a))];
  const lines: string[] = [];
  for (const account of accounts) {
    const suspended = await state.health(account).then(
      (h) => h.suspendedAt !== null,
      () => false,
    );
    const resume = suspended ? `, then \`musicsync resume ${account}\` (it is suspended until then)` : "";
    lines.push(`account ${account}: the service refused its credentials: ${RENEW}${resume}`);
  }
  return lines;
}

/** After a command's runs, on stderr: what to do about each account whose credentials were refused. */
export async function sayNextSteps(
  io: CliIo,
  state: Pick<HealthStore, "health">,
  runs: readonly RecipeRun[],
): Promise<void> {
  for (const line of await refusedCredentialsSteps(runs, state)) io.stderr.write(`${line}\n`);
}
