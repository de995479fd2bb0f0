/**
 * The bundled commands take undici from scripts/undici-for-commands.cjs, not its index. A name our
 * code imports from "undici" that the file does not give would be undefined at run time, on that
 * command's path only (a CommonJS module's names are not checked when bundling): so every value our
 * code imports from "undici" must be one it gives.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(ROOT, dir, f));
}

/** The values (not types) named in `import { … } from "undici"` lines. */
function undiciValues(file: string): string[] {
  const names: string[] = [];
  for (const m of readFileSync(file, "utf8").matchAll(/import\s*(type\s*)?\{([^}]*)\}\s*from\s*"undici"/g)) {
    if (m[1]) continue;
    for (const part of (m[2] ?? "").split(",")) {
      const name = part.trim();
      if (name && !name.startsWith("type ")) names.push(name.split(/\s+as\s+/)[0]!);
    }
  }
  return names;
}

describe("undici in the bundled commands", () => {
  it("gives every value the commands' code imports from undici", () => {
    const files = ["src", "engine", "cli", "shared", "emulator"].flatMap(sources);
    const wanted = new Set(files.flatMap(undiciValues));
    expect(wanted.size).toBeGreaterThan(0);
    const given = createRequire(import.meta.url)(join(ROOT, "scripts/undici-for-commands.cjs"));
    for (const name of wanted) expect(given[name], `undici's ${name}`).toBeTypeOf("function");
  });
});
