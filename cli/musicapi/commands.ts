/**
 * Every `musicapi` command, in the order `musicapi --help` lists them. A new command is a module
 * (cli/command.ts) added here; its action imports what it needs when it runs.
 */
import { call, methods } from "./call.js";
import { emulator } from "./emulator.js";
import type { MusicapiCommand } from "./io.js";
import { browser, oauth } from "./setup.js";

export const COMMANDS: readonly MusicapiCommand[] = [browser, oauth, call, methods, emulator];
