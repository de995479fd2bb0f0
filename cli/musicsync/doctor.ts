/**
 * `musicsync doctor`: one line per check — the project file, each account's credentials (and a read
 * of its library), the state database, every recipe — as ok / warning / error with what to do.
 * Exit 0 when nothing is an error, 1 otherwise. Never prints a credential (see doctor-account.ts).
 * This module, and the checks with it, load when the command runs (commands/project.ts).
 */
import { projectPath, renderChecks, runChecks } from "./doctor-run.js";
import { CliError, type CommandRun } from "./io.js";

export async function doctor(run: CommandRun): Promise<void> {
  const { io, g } = run;
  const checks = await runChecks(projectPath(g.project), {
    state: g.state,
    env: io.env,
    nowMs: Date.now(),
  });
  if (g.json) io.stdout.write(`${JSON.stringify({ checks }, null, 2)}\n`);
  else io.stdout.write(renderChecks(checks));
  const errors = checks.filter((x) => x.level === "error").length;
  if (errors > 0) throw new CliError(`doctor found ${errors} error${errors === 1 ? "" : "s"}`);
}
