/** `musicsync accounts …` on the command line (each action loads engine/cli/accounts.ts when it runs). */
import type { Command } from "commander";
import type { AddOptions } from "../accounts.js";
import type { CommandRun } from "../io.js";

export function registerAccounts(cmd: Command, run: (c: Command) => CommandRun): void {
  const accounts = cmd
    .command("accounts")
    .description("accounts kept in the state, their credentials sealed with MUSICSYNC_ACCOUNTS_KEY");

  accounts
    .command("add")
    .description("store an account (or replace it): its credentials file's content, sealed")
    .argument("<name>", "the account's name, as recipes' `account:` names it")
    .option(
      "--auth <file>",
      "browser headers or an OAuth token file (`-`: read stdin); its content is stored",
    )
    .option("--token <file>", "an OAuth token file (`-`: read stdin), with --oauth-client-id and -secret")
    .option("--oauth-client-id <id>", "the OAuth client's id")
    .option("--oauth-client-secret <file>", "a file holding the OAuth client's secret (`-`: read stdin)")
    .option("--base-url <url>", "point the account at the emulator or a replay server")
    .option("--language <code>", "the account's language (default en)")
    .option("--location <country>", "the account's location (two capital letters)")
    .option("--brand-account <id>", "act as this brand account (21 digits)")
    .action(async (name: string, o: AddOptions, c: Command) => {
      await (await import("../accounts.js")).add(run(c), name, o);
    });

  accounts
    .command("list")
    .description("the stored accounts: settings and the key that sealed them, never a credential")
    .action(async (_o: unknown, c: Command) => {
      await (await import("../accounts.js")).list(run(c));
    });

  accounts
    .command("reseal")
    .description(
      "seal a stored account's settings as the database holds them now (after checking them with `list`)",
    )
    .argument("<name>")
    .action(async (name: string, _o: unknown, c: Command) => {
      await (await import("../accounts.js")).reseal(run(c), name);
    });

  accounts
    .command("remove")
    .description("delete a stored account (exit 1 when there is none of that name)")
    .argument("<name>")
    .action(async (name: string, _o: unknown, c: Command) => {
      await (await import("../accounts.js")).remove(run(c), name);
    });

  accounts
    .command("key")
    .description("print a new random key for MUSICSYNC_ACCOUNTS_KEY (--id: the id of the one set)")
    .option("--id", "print the id of the key in MUSICSYNC_ACCOUNTS_KEY instead (as `list` shows)")
    .action(async (o: { id?: boolean }, c: Command) => {
      await (await import("../accounts.js")).key(run(c), o.id === true);
    });
}
