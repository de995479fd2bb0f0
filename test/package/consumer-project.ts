/**
 * A fresh TypeScript project that uses the installed package, with the settings `tsc --init` (TS 6)
 * writes, except that it checks every declaration file (no `skipLibCheck`) and reads Node's types
 * (a Node project has `@types/node`). Our declarations must check there as they are: a consumer
 * should not have to turn checks off or install the types of our devDependencies.
 *
 * Used by test/package/declarations.test.ts and by `.ci/after-tests` (on the installed tarball):
 *   tsx test/package/consumer-project.ts <folder>   writes tsconfig.json and check.ts into <folder>
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const CONSUMER_TSCONFIG = {
  compilerOptions: {
    module: "nodenext",
    target: "esnext",
    types: ["node"],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    noUncheckedSideEffectImports: true,
    moduleDetection: "force",
    skipLibCheck: false,
    noEmit: true,
  },
  files: ["check.ts"],
};

/** Uses each entry point as the README shows it, so the types a person meets first are checked. */
export const CONSUMER_SOURCE = `import { MusicClient, type SearchResult } from "musicapi";
import { loadProjectText, renderPlansMarkdown } from "musicapi/engine";
import { startEmulator } from "musicapi/emulator";

const emulator = await startEmulator({ catalogueSize: 500 });
const client = new MusicClient({ baseUrl: emulator.url });
const results: SearchResult[] = await client.search("daft punk");
const loaded = loadProjectText("musicsync.yaml", "apiVersion: musicsync/v1\\nkind: Project\\n");
const markdown: string = renderPlansMarkdown([]);
console.log(results.length, loaded.issues.length, markdown.length);
await emulator.stop();
`;

export function writeConsumerProject(dir: string): void {
  writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(CONSUMER_TSCONFIG, null, 2)}\n`);
  writeFileSync(join(dir, "check.ts"), CONSUMER_SOURCE);
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ private: true, type: "module" }, null, 2)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write("usage: tsx test/package/consumer-project.ts <folder>\n");
    process.exit(1);
  }
  writeConsumerProject(dir);
}
