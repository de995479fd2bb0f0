/**
 * A command of either program (`musicapi`, `musicsync`) as a plain module: its name, what it says
 * in `--help`, its arguments and options, and its action. Each program keeps a list of them
 * (cli/musicapi/commands.ts, cli/musicsync/commands/index.ts) and builds its commander tree from
 * that list with {@link addCommands}.
 *
 * A command module imports nothing heavy: its action imports what the command needs when it runs,
 * so that `--help`, `--version` and the other commands start without it (bench/startup.ts).
 */
import { type Command, Option } from "commander";

/** `[syntax, description, default]`, as commander's `.argument()` takes them. */
export type ArgumentSpec = readonly [syntax: string, description?: string, defaultValue?: string];

/**
 * `[flags, description, default]`, as commander's `.option()` takes them, or an `Option` for what
 * that cannot say (choices, conflicts, a parser, a hidden or mandatory option).
 */
export type OptionSpec = Option | readonly [flags: string, description: string, defaultValue?: string];

/** One command; `Context` is what its program hands every action (the streams, the exit code…). */
export interface CommandModule<Context> {
  readonly name: string;
  /** The one line `--help` of the program shows, when shorter than the description. */
  readonly summary?: string;
  readonly description: string;
  readonly arguments?: readonly ArgumentSpec[];
  readonly options?: readonly OptionSpec[];
  readonly subcommands?: readonly CommandModule<Context>[];
  /**
   * Called with the context, then what commander parsed: each argument in order, then the options.
   * (Typed loosely here so each module can name its own arguments' and options' types.)
   */
  readonly action?: (context: Context, ...parsed: never[]) => Promise<void>;
}

/**
 * Adds the commands to `parent`, in order. Each is made with `parent.command()`, so it inherits
 * the parent's output and exit settings as commands defined inline do.
 */
export function addCommands<Context>(
  parent: Command,
  modules: readonly CommandModule<Context>[],
  contextOf: (command: Command) => Context,
): void {
  for (const module of modules) define(parent.command(module.name), module, contextOf);
}

function define<Context>(
  command: Command,
  module: CommandModule<Context>,
  contextOf: (command: Command) => Context,
): void {
  if (module.summary !== undefined) command.summary(module.summary);
  command.description(module.description);
  for (const [syntax, description, defaultValue] of module.arguments ?? [])
    command.argument(syntax, description, defaultValue);
  for (const option of module.options ?? []) {
    if (option instanceof Option) command.addOption(option);
    else command.option(option[0], option[1], option[2]);
  }
  addCommands(command, module.subcommands ?? [], contextOf);
  const action = module.action;
  if (action === undefined) return;
  // commander calls an action with the arguments, the options, then the command itself.
  command.action(async (...parsed: unknown[]) => {
    const self = parsed.pop() as Command;
    await action(contextOf(self), ...(parsed as never[]));
  });
}
