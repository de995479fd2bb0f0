/**
 * Writes `recipes/recipe.schema.json` from the schema object (`npx tsx engine/recipe/export-schema.ts`).
 * `--check` exits 1 when the file differs, for CI; a test does the same comparison.
 */
import { readFile, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { exportedRecipeSchema } from "./schema.js";

export function schemaFileText(): string {
  return JSON.stringify(exportedRecipeSchema(), null, 2) + "\n";
}

/** The repository root: the nearest folder above this file that holds package.json. */
async function repoRoot(): Promise<URL> {
  let dir = new URL("./", import.meta.url);
  for (let i = 0; i < 8; i++) {
    try {
      await readFile(new URL("package.json", dir));
      return dir;
    } catch {
      dir = new URL("../", dir);
    }
  }
  throw new Error("package.json not found above engine/recipe");
}

async function main(): Promise<void> {
  const file = new URL("recipes/recipe.schema.json", await repoRoot());
  const text = schemaFileText();
  if (process.argv.includes("--check")) {
    const current = await readFile(file, "utf8").catch(() => "");
    if (current !== text) {
      console.error("recipes/recipe.schema.json is out of date: run npx tsx engine/recipe/export-schema.ts");
      process.exit(1);
    }
    return;
  }
  await writeFile(file, text);
  console.log(`wrote ${file.pathname}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
