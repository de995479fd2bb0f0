/**
 * The `file` source: a playlist file read into entries (engine/files/), each matched to a video
 * (engine/match/: the file's id, matches.yaml, the cache, then search), as items. Rows that cannot
 * be read and entries nothing was found for become notes the plan shows; they are never guessed.
 */
import { isAbsolute, relative } from "node:path";
import { type FileEntry, FileSourceError, readEntriesFile } from "../files/index.js";
import { loadOverrides, OverridesError } from "../files/overrides.js";
import { type ResolveDeps, resolveEntries } from "../match/resolve.js";
import { engineScrubber } from "../output/scrub.js";
import type { FileSource } from "../recipe/types.js";
import { matchedItems } from "./matched.js";
import { SourceError, type SourceNote, type SourceRead } from "./read.js";

export type FileSourceDeps = Omit<ResolveDeps, "overrides">;

/** A path as a person finds it: relative to where the command runs, when it is below it. */
export function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

/**
 * The line of the first entry that holds a credential the engine knows (a cookie, a token): a
 * credentials file read as a playlist, whose every line would otherwise go out as a search and
 * into the service's search history. Null when there is none.
 */
export function credentialLine(entries: readonly FileEntry[]): number | null {
  for (const e of entries) {
    const text = [e.title, ...e.artists, e.album ?? "", e.isrc ?? "", e.videoId ?? ""].join("\n");
    if (engineScrubber.text(text) !== text) return e.line;
  }
  return null;
}

async function entriesOf(spec: FileSource) {
  const read = await readEntries(spec);
  const line = credentialLine(read.entries);
  if (line !== null) {
    throw new SourceError(
      spec.id,
      `${shownPath(spec.path)}:${line}: holds a credential, so nothing of the file is searched: a file source never reads credentials`,
    );
  }
  return read;
}

async function readEntries(spec: FileSource) {
  try {
    return await readEntriesFile(spec.path, {
      ...(spec.format ? { format: spec.format } : {}),
      ...(spec.columns ? { columns: spec.columns } : {}),
      strict: spec.strict,
      within: spec.within,
    });
  } catch (e) {
    if (e instanceof FileSourceError) {
      const at = e.line !== null ? `:${e.line}` : "";
      throw new SourceError(spec.id, `${shownPath(spec.path)}${at}: ${e.message}`, { cause: e });
    }
    if ((e as NodeJS.ErrnoException).code === "ENOENT") {
      throw new SourceError(spec.id, `${shownPath(spec.path)} does not exist`, { cause: e });
    }
    throw e;
  }
}

/** The person's corrections of a source that matches songs (matches.yaml beside its recipe file). */
export async function overridesOf(spec: Pick<FileSource, "id" | "overrides">) {
  try {
    return await loadOverrides(spec.overrides);
  } catch (e) {
    if (e instanceof OverridesError) throw new SourceError(spec.id, e.message, { cause: e });
    throw e;
  }
}

/** A file source's local part: its rows and matches.yaml, read before anything is asked of the service. */
export interface LoadedFile {
  read: Awaited<ReturnType<typeof entriesOf>>;
  overrides: Awaited<ReturnType<typeof overridesOf>>;
}

/**
 * Reads a file source's file and corrections. A run does this before its first request, so a file
 * that cannot be read (missing, a device, a credentials file) fails the run naming the file, never
 * after the service has been asked anything (or with a service fault hiding the file's fault).
 */
export async function loadFileSource(spec: FileSource): Promise<LoadedFile> {
  const read = await entriesOf(spec);
  return { read, overrides: await overridesOf(spec) };
}

export async function readFileSource(
  spec: FileSource,
  deps: FileSourceDeps,
  loaded?: LoadedFile,
): Promise<SourceRead> {
  const { read, overrides } = loaded ?? (await loadFileSource(spec));
  const { resolutions } = await resolveEntries(read.entries, { ...deps, overrides });
  const notes: SourceNote[] = read.issues.map((i) => ({
    source: spec.id,
    kind: "unreadable",
    text: `${shownPath(spec.path)}:${i.line}: ${i.message}`,
  }));
  const { items, unmatched } = matchedItems(resolutions, spec.id);
  notes.push(...unmatched);
  const capped = spec.limit === null ? items : items.slice(0, spec.limit);
  return { id: spec.id, items: capped, truncated: false, expected: null, ...(notes.length ? { notes } : {}) };
}
