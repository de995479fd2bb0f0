/** `musicsync init` and `doctor`: starting a project and checking one. */

import type { InitOptions } from "../init.js";
import { DEFAULTS } from "../init-files.js";
import type { CommandRun, MusicsyncCommand } from "../io.js";

export const init: MusicsyncCommand = {
  name: "init",
  description: "start a project: musicsync.yaml, a starter recipe and a .gitignore",
  arguments: [["[dir]", "the project folder (created if missing)", "."]],
  options: [
    ["--auth <file>", `the credentials file (default ${DEFAULTS.auth})`],
    ["--account <name>", `the account's name (default ${DEFAULTS.account})`],
    ["--emulator", "use the embedded emulator instead of an account (nothing to sign in to)"],
    ["--base-url <url>", "the account's service: an emulator running at that URL, or a replay server"],
    ["--force", "overwrite files that exist"],
    ["-y, --yes", "ask nothing: take the flags and defaults"],
  ],
  action: async (run: CommandRun, dir: string, o: InitOptions) => {
    await (await import("../init.js")).init(run, dir, o);
  },
};

export const doctor: MusicsyncCommand = {
  name: "doctor",
  description: "check the project, credentials, state database and recipes; say what to fix",
  action: async (run: CommandRun) => {
    await (await import("../doctor.js")).doctor(run);
  },
};
