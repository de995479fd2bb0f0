/**
 * V8's compiled code kept on disk between runs of a command (Node's module compile cache): a
 * `sync` compiles the same few hundred kilobytes of engine, client and packages every time it
 * starts, and the second and later runs of the same files read that work back instead.
 *
 * Where: Node's choice — NODE_COMPILE_CACHE's folder when it is set, else
 * `<os.tmpdir()>/node-compile-cache`, one subfolder per Node version, architecture and user, files
 * readable by their owner only. NODE_DISABLE_COMPILE_CACHE=1 turns it off. Several processes at
 * once are safe: Node writes each entry to a temporary file and renames it into place, and checks
 * an entry against the source's hash before using it (a stale or foreign entry is compiled afresh).
 * It is an optimisation only: when the folder cannot be written, Node says nothing and compiles.
 *
 * Called by the commands' entry points only (not by the library), before a command's own modules
 * are imported: what the entry imported statically (commander, the option lists) is compiled already.
 */
import { enableCompileCache } from "node:module";

export function cacheCompiledCode(): void {
  enableCompileCache();
}
