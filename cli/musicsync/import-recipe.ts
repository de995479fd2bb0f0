/**
 * The recipe `musicsync import` writes: one file source, a new private playlist, `mode: sync`.
 * Sync, because an imported playlist becomes the person's: songs they add to it by hand stay, songs
 * they remove are not added back (a tombstone), and only what the import itself added goes when
 * it leaves the file or its match is corrected in matches.yaml. `mirror` would remove the person's
 * own additions on the next sync; `append` would keep a wrong match for ever. Pure.
 */

import type { FileFormat } from "../../engine/files/types.js";
import { oneLine } from "../../engine/match/choices.js";
import { yamlScalar } from "./init-files.js";

/** Longest id drawn from a title (the schema allows 64; a file name stays readable). */
const ID_FROM_TITLE = 48;

/** "Old favourites" -> "old-favourites"; accents dropped; "import" when no letter or digit is left. */
export function recipeIdFor(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, ID_FROM_TITLE)
    .replace(/^-+|-+$/g, "");
  return slug === "" ? "import" : slug;
}

export interface ImportRecipe {
  id: string;
  title: string;
  /** The file, relative to the recipe's folder (forward slashes), or absolute. */
  path: string;
  format?: FileFormat | undefined;
  /** Written only when the person named one; else the project's default account. */
  account?: string | undefined;
  today: string;
}

export function importRecipeText(r: ImportRecipe): string {
  const source = [`id: file`, "type: file", `path: ${yamlScalar(r.path)}`];
  if (r.format) source.push(`format: ${r.format}`);
  return [
    `# Written by \`musicsync import\` on ${r.today}: the songs of ${oneLine(r.path)}, matched (corrections in`,
    "# matches.yaml beside this file), in a new private playlist. mode: sync adds the file's songs and",
    "# removes only those it added that leave the file; songs you add to the playlist stay, and songs",
    `# you remove are not added back. After editing the file: musicsync sync -r ${r.id}`,
    "apiVersion: musicsync/v1",
    "kind: Recipe",
    `id: ${r.id}`,
    ...(r.account ? [`account: ${yamlScalar(r.account)}`] : []),
    "sources:",
    `  - { ${source.join(", ")} }`,
    "target:",
    "  type: playlist",
    `  playlist: { title: ${JSON.stringify(r.title)}, privacy: PRIVATE }`,
    "mode: sync",
    "",
  ].join("\n");
}
