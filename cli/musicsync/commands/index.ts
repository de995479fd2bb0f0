/**
 * Every `musicsync` command, in the order `musicsync --help` lists them. A new command is a
 * module (cli/command.ts) in one of this folder's files, added here; its action imports what it
 * needs when it runs.
 */
import type { MusicsyncCommand } from "../io.js";
import { accounts } from "./accounts.js";
import { auth } from "./auth.js";
import { approve, daemon, drift, history, resume, serve, status } from "./daemon.js";
import { exportList, importFile, match } from "./files.js";
import { doctor, init } from "./project.js";
import { apply, demo, plan, sync, unlock, validate } from "./sync.js";
import { undo } from "./undo.js";
import { enqueue, worker } from "./worker.js";

export const COMMANDS: readonly MusicsyncCommand[] = [
  validate,
  plan,
  apply,
  sync,
  unlock,
  demo,
  match,
  importFile,
  exportList,
  undo,
  accounts,
  auth,
  init,
  doctor,
  daemon,
  serve,
  status,
  history,
  drift,
  approve,
  resume,
  worker,
  enqueue,
];
