/**
 * The playlist files a seed's `file` sources read: the soak writes each recipe's list of video ids
 * as a CSV with a "Video ID" column, an M3U of watch URLs or a JSON list, so desired is the list
 * it chose (no search, no guess), and the person edits the file between runs by changing the list.
 * The files sit in `data/` of the project folder; a recipe names one as `../data/<id>.<ext>`.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { RecipeSpec } from "./generate.js";
import type { FileFormat } from "./surfaces.js";

export const DATA_DIR = "data";

/** Where recipe `id`'s file is, relative to the project folder, and as the recipe names it. */
export function sourceFilePath(id: string, format: FileFormat): { file: string; fromRecipe: string } {
  const name = `${id}.${format}`;
  return { file: join(DATA_DIR, name), fromRecipe: `../${DATA_DIR}/${name}` };
}

/** A file of `format` that names each video of `ids`, in order, duplicates kept. */
export function renderSourceFile(format: FileFormat, ids: readonly string[]): string {
  const songs = ids.map((id, i) => ({ id, title: `Soak song ${i + 1}`, artist: "Soak" }));
  switch (format) {
    case "csv":
      return ["Title,Artist,Video ID", ...songs.map((s) => `${s.title},${s.artist},${s.id}`), ""].join("\n");
    case "m3u":
      return [
        "#EXTM3U",
        ...songs.flatMap((s) => [
          `#EXTINF:-1,${s.artist} - ${s.title}`,
          `https://music.youtube.com/watch?v=${s.id}`,
        ]),
        "",
      ].join("\n");
    case "json":
      return `${JSON.stringify(songs.map((s) => ({ title: s.title, artists: [s.artist], videoId: s.id })))}\n`;
  }
}

/** Writes the file of every recipe that reads one (called whenever the recipes are written). */
export async function writeSourceFiles(projectDir: string, specs: readonly RecipeSpec[]): Promise<void> {
  for (const spec of specs) {
    if (!spec.file || spec.source.type !== "static") continue;
    const { file } = sourceFilePath(spec.id, spec.file.format);
    await mkdir(join(projectDir, DATA_DIR), { recursive: true });
    await writeFile(join(projectDir, file), renderSourceFile(spec.file.format, spec.source.ids));
  }
}
