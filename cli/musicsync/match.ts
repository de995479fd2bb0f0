/**
 * `musicsync match <file>`: what each entry of a playlist file matches on the service, with the
 * score and the reasons, as a file source would match it (same cache, same matches.yaml). In place
 * of a file, another service's list (`spotify:playlist:<id>`, engine/sources/service-ref.ts),
 * matched as its source would match it; a Spotify library's albums and artists are matched by
 * match-library.ts, and every listing is drawn by match-render.ts. A tie shows every one that
 * tied. With `--write-overrides` the matches are drafted into matches.yaml for a person to review
 * and commit; with `--interactive` the person picks, on a terminal, for each tie and each unsure
 * entry (match-interactive.ts). Songs, albums and artists go through the same code, each as its
 * kind reads (engine/match/choices.ts Shown).
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { SingleBar } from "cli-progress";
import { type EntriesRead, FileSourceError, readEntriesFile } from "../../engine/files/index.js";
import { draftOverrides, loadOverrides, readOverridesText } from "../../engine/files/overrides.js";
import { replaceFile } from "../../engine/files/replace-file.js";
import type { FileFormat } from "../../engine/files/types.js";
import { SONGS_SHOWN } from "../../engine/match/choices.js";
import type { SongEntry } from "../../engine/match/entry.js";
import { type ResolveDeps, resolveEntries } from "../../engine/match/resolve.js";
import { OVERRIDES_FILE } from "../../engine/recipe/defaults.js";
import type { Project, ServiceSource } from "../../engine/recipe/types.js";
import { createEnv } from "../../engine/run/env.js";
import type { EngineEnv } from "../../engine/run/run-types.js";
import { pacedSearch } from "../../engine/run/runner.js";
import { credentialLine } from "../../engine/sources/file-source.js";
import {
  looksLikeServiceList,
  SERVICE_LIST_FORMS,
  serviceListNamed,
} from "../../engine/sources/service-ref.js";
import { songEntry } from "../../engine/sources/service-source.js";
import { loadProjectFor } from "./accounts.js";
import { terminalAsker } from "./ask.js";
import { CliError, type CliIo, type CommandRun, Exit, type GlobalOptions } from "./io.js";
import { commandLogger } from "./log.js";
import { chooseInteractively } from "./match-interactive.js";
import { isLibraryList, matchLibrary } from "./match-library.js";
import { type Matched, matchesText, type SomeMatched, someMatched } from "./match-render.js";
import { accountOf, stateFileOf } from "./project.js";

export interface MatchOptions {
  format?: FileFormat;
  account?: string;
  overrides?: string;
  writeOverrides?: boolean;
  interactive?: boolean;
}

/** matches.yaml beside the project's recipes: in the first recipes folder (or a recipe file's folder). */
export function defaultOverridesFile(project: Project, projectFile: string): string {
  const base = dirname(resolve(projectFile));
  const first = project.recipes[0];
  if (!first) return join(base, OVERRIDES_FILE);
  const at = resolve(base, first);
  const folder = existsSync(at) && statSync(at).isDirectory() ? at : dirname(at);
  return join(folder, OVERRIDES_FILE);
}

/** The file `match` was given, read as a file source reads one; a refusal names the file. */
export async function readNamedFile(file: string, format: FileFormat | undefined): Promise<EntriesRead> {
  try {
    return await readEntriesFile(resolve(file), format ? { format } : {});
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new CliError(`${file} does not exist`);
    if (e instanceof FileSourceError)
      throw new CliError(`${file}${e.line === null ? "" : `:${e.line}`}: ${e.message}`);
    throw e;
  }
}

/** A bar of entries resolved, on a terminal only: at the service's pace a long file takes minutes. */
function entriesBar(
  io: CliIo,
  g: GlobalOptions,
): { onProgress?(done: number, total: number): void; stop(): void } {
  if (!io.stdout.isTTY || g.json) return { stop() {} };
  const bar = new SingleBar({
    format: "matching [{bar}] {value}/{total} entries",
    stream: io.stdout,
    hideCursor: true,
    clearOnComplete: true,
  });
  let started = false;
  return {
    onProgress(done, total) {
      if (!started) bar.start(total, 0);
      started = true;
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}

export async function match(run: CommandRun, file: string, o: MatchOptions): Promise<void> {
  const { g } = run;
  // Refused before anything is read or searched: the questions need a person at a terminal.
  if (o.interactive) refuseWithoutTerminal(run);
  const project = await loadProjectFor(run);
  const account = accountOf(project, o.account, g.project);
  const overridesFile = o.overrides ?? defaultOverridesFile(project, g.project);
  const spec = serviceListNamed(file, overridesFile);
  if (!spec && looksLikeServiceList(file)) {
    throw new CliError(`${file}: not a list musicsync reads; write one of: ${SERVICE_LIST_FORMS}`);
  }
  const input: MatchInput = spec
    ? { kind: "service", spec }
    : { kind: "file", read: await readNamedFile(file, o.format) };
  const matched = await matchFile(run, project, account, file, input, {
    overridesFile,
    // A miss's candidates are shown (and offered), which the cache does not keep.
    searchCachedMisses: true,
    show: o.interactive ? "count" : "entries",
  });
  if (o.interactive) await matched((m) => askFor(run, overridesFile, m));
  if (o.writeOverrides) await matched((m) => writeDraft(run, overridesFile, m));
  run.setExit(Exit.OK);
}

function refuseWithoutTerminal(run: CommandRun): void {
  if (run.g.json) throw new CliError("match --interactive asks questions: it does not go with --json");
  if (!(run.io.stdin ?? process.stdin).isTTY) {
    throw new CliError(
      "match --interactive asks on a terminal, and standard input is not one: run it in a terminal, " +
        "or use --write-overrides and uncomment the right lines in matches.yaml",
    );
  }
}

/**
 * The questions, once every entry is matched: the terminal is taken (raw mode, where Ctrl-C is a
 * key) only then, so Ctrl-C during the searches still stops the command.
 */
async function askFor<E, C>(run: CommandRun, file: string, m: Matched<E, C>): Promise<void> {
  const ask = await terminalAsker(run.io);
  if (!ask) return refuseWithoutTerminal(run);
  try {
    await chooseInteractively(run.io, ask, file, m, today());
  } finally {
    ask.close();
  }
}

interface MatchFileOptions {
  overridesFile: string;
  searchCachedMisses?: boolean;
  /**
   * Every entry, or the summary with how to choose a tie, or the summary alone (ties being chosen
   * now); --json prints the entries as JSON whatever this says.
   */
  show: "entries" | "summary" | "count";
}

/** What `match` matches: a file's entries as read, or another service's list, read once the environment is up. */
export type MatchInput = { kind: "file"; read: EntriesRead } | { kind: "service"; spec: ServiceSource };

/** The entries to match. */
async function entriesOf(env: EngineEnv, file: string, input: MatchInput): Promise<readonly SongEntry[]> {
  if (input.kind === "file") {
    // The client's credentials are known once it is made: a file holding them is refused.
    const secret = credentialLine(input.read.entries);
    if (secret !== null)
      throw new CliError(`${file}:${secret}: holds a credential, so nothing of the file is searched`);
    return input.read.entries;
  }
  if (!env.services)
    throw new CliError(`${file}: reading ${input.spec.type} needs the project's services settings`);
  const list = await env.services.songs(input.spec);
  return list.entries.map(songEntry);
}

/** What `input` names, matched: a Spotify library's albums or artists, else songs. */
async function matchInput(env: EngineEnv, file: string, input: MatchInput, deps: ResolveDeps) {
  if (input.kind === "service" && isLibraryList(input.spec)) return matchLibrary(env, input.spec, deps);
  const { resolutions, searches } = await resolveEntries(await entriesOf(env, file, input), deps);
  return someMatched({ resolutions, searches, shown: SONGS_SHOWN });
}

/**
 * The entries of `file` (or a service's list) resolved as a source would, printed; the searches
 * are cached. What was matched is given back of whichever kind, to draft or ask about.
 */
export async function matchFile(
  run: CommandRun,
  project: Project,
  account: string,
  file: string,
  input: MatchInput,
  o: MatchFileOptions,
): Promise<SomeMatched> {
  const { io, g } = run;
  if (input.kind === "file") {
    for (const i of input.read.issues) io.stderr.write(`warning: ${file}:${i.line}: ${i.message}\n`);
  }
  const env = createEnv({
    project,
    projectFile: g.project,
    logger: commandLogger(io, g),
    stateFile: stateFileOf(g, project),
  });
  const bar = entriesBar(io, g);
  try {
    const deps = {
      search: pacedSearch(env, account),
      cache: env.state,
      overrides: await loadOverrides(o.overridesFile),
      now: env.clock.now(),
      searchCachedMisses: o.searchCachedMisses === true,
      ...(bar.onProgress ? { onProgress: bar.onProgress } : {}),
    };
    const matched = await matchInput(env, file, input, deps);
    bar.stop();
    io.stdout.write(matched((m) => matchesText(m, file, o.show, g.json === true)));
    return matched;
  } finally {
    bar.stop();
    await env.close();
  }
}

const today = () => new Date().toISOString().slice(0, 10);

export async function writeDraft<E, C>(run: CommandRun, file: string, m: Matched<E, C>): Promise<void> {
  const existing = await readOverridesText(file);
  const text = draftOverrides(existing, m.resolutions, today(), m.shown);
  if (text === null) {
    run.io.stderr.write(`${file}: nothing to draft: every entry is there already or names its video.\n`);
    return;
  }
  await replaceFile(file, text);
  run.io.stderr.write(`${file}: drafted; review it (uncomment or correct lines), then commit it.\n`);
}
