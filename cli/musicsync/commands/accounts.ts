/** `musicsync accounts …` (each action loads cli/musicsync/accounts.ts when it runs). */
import type { AddOptions } from "../accounts.js";
import type { CommandRun, MusicsyncCommand } from "../io.js";

const add: MusicsyncCommand = {
  name: "add",
  description: "store an account (or replace it): its credentials file's content, sealed",
  arguments: [["<name>", "the account's name, as recipes' `account:` names it"]],
  options: [
    ["--auth <file>", "browser headers or an OAuth token file (`-`: read stdin); its content is stored"],
    ["--token <file>", "an OAuth token file (`-`: read stdin), with --oauth-client-id and -secret"],
    ["--oauth-client-id <id>", "the OAuth client's id"],
    ["--oauth-client-secret <file>", "a file holding the OAuth client's secret (`-`: read stdin)"],
    ["--base-url <url>", "point the account at the emulator or a replay server"],
    ["--language <code>", "the account's language (default en)"],
    ["--location <country>", "the account's location (two capital letters)"],
    ["--brand-account <id>", "act as this brand account (21 digits)"],
  ],
  action: async (run: CommandRun, name: string, o: AddOptions) => {
    await (await import("../accounts.js")).add(run, name, o);
  },
};

const list: MusicsyncCommand = {
  name: "list",
  description: "the stored accounts: settings and the key that sealed them, never a credential",
  action: async (run: CommandRun) => {
    await (await import("../accounts.js")).list(run);
  },
};

const reseal: MusicsyncCommand = {
  name: "reseal",
  description:
    "seal a stored account's settings as the database holds them now (after checking them with `list`)",
  arguments: [["<name>"]],
  action: async (run: CommandRun, name: string) => {
    await (await import("../accounts.js")).reseal(run, name);
  },
};

const remove: MusicsyncCommand = {
  name: "remove",
  description: "delete a stored account (exit 1 when there is none of that name)",
  arguments: [["<name>"]],
  action: async (run: CommandRun, name: string) => {
    await (await import("../accounts.js")).remove(run, name);
  },
};

const key: MusicsyncCommand = {
  name: "key",
  description: "print a new random key for MUSICSYNC_ACCOUNTS_KEY (--id: the id of the one set)",
  options: [["--id", "print the id of the key in MUSICSYNC_ACCOUNTS_KEY instead (as `list` shows)"]],
  action: async (run: CommandRun, o: { id?: boolean }) => {
    await (await import("../accounts.js")).key(run, o.id === true);
  },
};

export const accounts: MusicsyncCommand = {
  name: "accounts",
  description: "accounts kept in the state, their credentials sealed with MUSICSYNC_ACCOUNTS_KEY",
  subcommands: [add, list, reseal, remove, key],
};
