/** The one-shot commands' logger (the daemon has its own: engine/daemon/log.ts). */
import { createLogger, type EngineLogger } from "../../engine/run/logger.js";
import { type CliIo, type GlobalOptions, logLevel } from "./io.js";

/** The command's logger: on stderr, readable lines on a terminal, JSON lines otherwise. */
export function commandLogger(io: CliIo, g: GlobalOptions): EngineLogger {
  const tty = io.stderr.isTTY === true;
  return createLogger(logLevel(io, g), io.stderr, { pretty: tty, color: tty && !io.env.NO_COLOR });
}
