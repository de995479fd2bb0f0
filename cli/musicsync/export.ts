/**
 * `musicsync export <playlist id | liked | library>`: a backup a person can keep, in the formats a
 * `file` source reads. Each row keeps its video id, so mirroring the file back needs no search.
 */
import { writeFile } from "node:fs/promises";
import { extname } from "node:path";
import { writeEntries } from "../../engine/files/index.js";
import type { FileFormat } from "../../engine/files/types.js";
import type { SongEntry } from "../../engine/match/entry.js";
import { createEnv } from "../../engine/run/env.js";
import type { Item } from "../../engine/sources/item.js";
import { fromTrack } from "../../engine/sources/normalise.js";
import type { SourceClient, TrackResult } from "../../engine/sources/reader.js";
import { loadProjectFor } from "./accounts.js";
import { outputFileArg } from "./args.js";
import { type CommandRun, Exit } from "./io.js";
import { commandLogger } from "./log.js";
import { accountOf } from "./project.js";

export interface ExportOptions {
  format?: FileFormat;
  out?: string;
  account?: string;
}

const EXTENSIONS: Record<string, FileFormat> = {
  ".csv": "csv",
  ".m3u": "m3u",
  ".m3u8": "m3u",
  ".xspf": "xspf",
  ".json": "json",
  ".txt": "text",
};

/** The format asked for (commander has checked it is one), else the output file's extension, else CSV. */
export function exportFormat(o: ExportOptions): FileFormat {
  return o.format ?? ((o.out && EXTENSIONS[extname(o.out).toLowerCase()]) || "csv");
}

/** A row as a file keeps it. */
export function entryOfItem(item: Item): SongEntry {
  return {
    title: item.title ?? "",
    artists: item.artists.map((a) => a.name).filter((n) => n !== ""),
    album: item.album?.name || null,
    durationSeconds: item.duration_seconds,
    isrc: null,
    explicit: item.isExplicit,
    videoId: item.videoId,
  };
}

/** The rows of what is exported, whole (no limit). */
async function rowsOf(client: SourceClient, what: string): Promise<readonly TrackResult[]> {
  if (what === "liked") return (await client.getLikedSongs({ limit: null })).tracks;
  if (what === "library") return client.getLibrarySongs({ limit: null });
  return (await client.getPlaylist(what.replace(/^VL/, ""), { limit: null })).tracks;
}

export async function exportList(run: CommandRun, what: string, o: ExportOptions): Promise<void> {
  const { io, g } = run;
  const format = exportFormat(o);
  if (o.out) outputFileArg(o.out);
  const project = await loadProjectFor(run);
  const account = accountOf(project, o.account, g.project);
  const env = createEnv({
    project,
    projectFile: g.project,
    logger: commandLogger(io, g),
    stateFile: ":memory:",
  });
  try {
    const rows = await rowsOf(env.clientFor(account), what);
    const entries = rows
      .map((t, i) => fromTrack(t, "export", i + 1))
      .filter((item) => item.videoId && item.title)
      .map(entryOfItem);
    const text = writeEntries(entries, format);
    if (o.out) {
      await writeFile(o.out, text);
      io.stderr.write(`${entries.length} rows written to ${o.out} (${format}).\n`);
    } else io.stdout.write(text);
    run.setExit(Exit.OK);
  } finally {
    await env.close();
  }
}
