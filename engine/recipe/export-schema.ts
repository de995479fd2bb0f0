/**
 * Writes what is made from the schema objects the loader checks: the editor schemas the package
 * ships, `recipes/recipe.schema.json` (a recipe) and `recipes/project.schema.json` (a
 * musicsync.yaml), and the validators as code, `engine/recipe/validators.generated.ts`
 * (`npx tsx engine/recipe/export-schema.ts`). `--check` exits 1 when a file differs, for CI; a test
 * does the same comparison.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { packageRoot } from "../../shared/package-root.js";
import { exportedProjectSchema, exportedRecipeSchema } from "./schema.js";
import { validatorsModuleText } from "./validators-code.js";

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export function schemaFileText(): string {
  return json(exportedRecipeSchema());
}

export function projectSchemaFileText(): string {
  return json(exportedProjectSchema());
}

async function main(): Promise<void> {
  const files = [
    { name: "recipes/recipe.schema.json", text: schemaFileText() },
    { name: "recipes/project.schema.json", text: projectSchemaFileText() },
    { name: "engine/recipe/validators.generated.ts", text: validatorsModuleText() },
  ];
  for (const { name, text } of files) {
    const file = join(packageRoot(), name);
    if (process.argv.includes("--check")) {
      const current = await readFile(file, "utf8").catch(() => "");
      if (current !== text) {
        console.error(`${name} is out of date: run npx tsx engine/recipe/export-schema.ts`);
        process.exitCode = 1;
      }
      continue;
    }
    await writeFile(file, text);
    console.log(`wrote ${file}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
