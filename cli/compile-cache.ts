/**
 * V8's compiled code kept on disk between runs of a command (Node's module compile cache): a
 * `sync` compiles the same few hundred kilobytes of engine, client and packages every time it
 * starts, and the second and later runs of the same files read that work back instead.
 *
 * Where: NODE_COMPILE_CACHE's folder when it is set (Node's own setting); else the user's cache
 * folder, `$XDG_CACHE_HOME/musicsync/compile-cache` (`~/.cache/…` without it). Not Node's default,
 * `<os.tmpdir()>/node-compile-cache`: on a machine shared with other users, /tmp is theirs to write
 * too, and whoever makes that folder first owns it and could put compiled code there that our
 * commands (holding account credentials) would run. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 * Several processes at once are safe: Node writes each entry to a temporary file and renames it into
 * place, and checks an entry against the source's hash before using it (a stale entry is compiled
 * afresh). It is an optimisation only: when the folder cannot be written, Node says nothing and
 * compiles.
 *
 * Called by the commands' entry points only (not by the library), before a command's own modules
 * are imported: what the entry imported statically (commander, the option lists) is compiled already.
 */
import { enableCompileCache } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";

/** The folder the commands ask Node to keep the cache in; undefined leaves it to NODE_COMPILE_CACHE. */
export function compileCacheFolder(env: NodeJS.ProcessEnv, home: string): string | undefined {
  if (env.NODE_COMPILE_CACHE) return undefined;
  return join(env.XDG_CACHE_HOME || join(home, ".cache"), "musicsync", "compile-cache");
}

export function cacheCompiledCode(): void {
  enableCompileCache(compileCacheFolder(process.env, homedir()));
}
