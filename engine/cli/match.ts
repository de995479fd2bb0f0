/**
 * `musicsync match <file>`: what each entry of a playlist file matches on the service, with the
 * score and the reasons, as a file source would match it (same cache, same matches.yaml). With
 * `--write-overrides` the matches are drafted into matches.yaml for a person to review and commit.
 */
import { existsSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { SingleBar } from "cli-progress";
import { FileSourceError, readEntriesFile } from "../files/index.js";
import { draftOverrides, loadOverrides, readOverridesText } from "../match/overrides.js";
import { entryLabel, type Resolution, resolveEntries } from "../match/resolve.js";
import { OVERRIDES_FILE } from "../recipe/defaults.js";
import type { FileFormat, Project } from "../recipe/types.js";
import { createEnv } from "../run/env.js";
import { pacedSearch } from "../run/runner.js";
import { credentialLine } from "../sources/file-source.js";
import { loadProjectFor } from "./accounts.js";
import { CliError, type CliIo, type CommandRun, Exit, type GlobalOptions } from "./io.js";
import { commandLogger } from "./log.js";
import { accountOf, stateFileOf } from "./project.js";

export interface MatchOptions {
  format?: FileFormat;
  account?: string;
  overrides?: string;
  writeOverrides?: boolean;
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
async function readNamedFile(file: string, format: FileFormat | undefined) {
  try {
    return await readEntriesFile(resolve(file), format ? { format } : {});
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new CliError(`${file} does not exist`);
    if (e instanceof FileSourceError)
      throw new CliError(`${file}${e.line === null ? "" : `:${e.line}`}: ${e.message}`);
    throw e;
  }
}

/** One entry as JSON: what it is, what it matched, and every candidate weighed. */
function entryJson(r: Resolution) {
  return {
    // A file's entries carry their line (engine/files FileEntry).
    entry: { ...r.entry, key: r.key },
    videoId: r.videoId,
    by: r.by,
    score: r.score,
    reasons: r.reasons,
    candidates: r.candidates.map((c) => ({ ...c.candidate, score: c.score, reasons: c.reasons })),
  };
}

/** The text listing: one line per entry, then a summary. Pure. */
export function renderMatches(resolutions: readonly Resolution[], searches: number): string {
  const out: string[] = [];
  for (const [i, r] of resolutions.entries()) {
    const head = `${String(i + 1).padStart(4)}  ${entryLabel(r.entry)}`;
    const score = r.score === null ? "" : ` ${r.score.toFixed(2)}`;
    if (r.videoId) out.push(`${head}\n        -> ${r.videoId}${score} (${r.by}) ${r.reasons.join(", ")}`);
    else if (r.skipped) out.push(`${head}\n        skipped (matches.yaml)`);
    else {
      const best = r.best ? ` best: ${r.best.candidate.videoId} "${r.best.candidate.title}"` : "";
      out.push(`${head}\n        unmatched${score}${best} ${r.reasons.join(", ")}`);
    }
  }
  const matched = resolutions.filter((r) => r.videoId).length;
  const by = (k: Resolution["by"]) => resolutions.filter((r) => r.videoId && r.by === k).length;
  const unmatched = resolutions.filter((r) => !r.videoId && !r.skipped).length;
  out.push(
    `Matched ${matched} of ${resolutions.length} (${by("cache")} from the cache, ${by("override")} from matches.yaml, ` +
      `${by("file")} named by the file); ${unmatched} unmatched; ${searches} search${searches === 1 ? "" : "es"}.`,
  );
  return `${out.join("\n")}\n`;
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
  const { io, g } = run;
  const project = await loadProjectFor(run);
  const account = accountOf(project, o.account, g.project);
  const read = await readNamedFile(file, o.format);
  for (const i of read.issues) io.stderr.write(`warning: ${file}:${i.line}: ${i.message}\n`);
  const overridesFile = o.overrides ?? defaultOverridesFile(project, g.project);
  const env = createEnv({
    project,
    projectFile: g.project,
    logger: commandLogger(io, g),
    stateFile: stateFileOf(g, project),
  });
  const bar = entriesBar(io, g);
  try {
    // Made first: the client's credentials are then known, and a file holding them is refused.
    const search = pacedSearch(env, account);
    const secret = credentialLine(read.entries);
    if (secret !== null)
      throw new CliError(`${file}:${secret}: holds a credential, so nothing of the file is searched`);
    const { resolutions, searches } = await resolveEntries(read.entries, {
      search,
      cache: env.state,
      overrides: await loadOverrides(overridesFile),
      now: env.clock.now(),
      ...(bar.onProgress ? { onProgress: bar.onProgress } : {}),
    });
    bar.stop();
    if (g.json) io.stdout.write(`${JSON.stringify(resolutions.map(entryJson), null, 2)}\n`);
    else io.stdout.write(renderMatches(resolutions, searches));
    if (o.writeOverrides) await writeDraft(run, overridesFile, resolutions);
    run.setExit(Exit.OK);
  } finally {
    bar.stop();
    await env.close();
  }
}

async function writeDraft(run: CommandRun, file: string, resolutions: readonly Resolution[]): Promise<void> {
  const existing = await readOverridesText(file);
  const today = new Date().toISOString().slice(0, 10);
  const text = draftOverrides(existing, resolutions, today);
  if (text === null) {
    run.io.stderr.write(`${file}: nothing to draft: every entry is there already or names its video.\n`);
    return;
  }
  await writeFile(file, text);
  run.io.stderr.write(`${file}: drafted; review it (uncomment or correct lines), then commit it.\n`);
}
