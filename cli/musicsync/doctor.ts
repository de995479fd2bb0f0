/**
 * `musicsync doctor`: one line per check — the project file, each account's credentials (and a read
 * of its library), the state database, every recipe — as ok / warning / error with what to do.
 * Exit 0 when nothing is an error, 1 otherwise. Never prints a credential (see doctor-account.ts).
 * The checks load when the command runs, not when the command line starts.
 */
import type { Command } from "commander";
import { CliError, type CliIo } from "./io.js";

interface DoctorGlobals {
  project: string;
  state?: string;
  json?: boolean;
}

export function registerDoctor(program: Command, io: CliIo): void {
  program
    .command("doctor")
    .description("check the project, credentials, state database and recipes; say what to fix")
    .action(async (_o: unknown, c: Command) => {
      const g = c.optsWithGlobals() as DoctorGlobals;
      const { projectPath, renderChecks, runChecks } = await import("./doctor-run.js");
      const checks = await runChecks(projectPath(g.project), {
        state: g.state,
        env: io.env,
        nowMs: Date.now(),
      });
      if (g.json) io.stdout.write(`${JSON.stringify({ checks }, null, 2)}\n`);
      else io.stdout.write(renderChecks(checks));
      const errors = checks.filter((x) => x.level === "error").length;
      if (errors > 0) throw new CliError(`doctor found ${errors} error${errors === 1 ? "" : "s"}`);
    });
}
