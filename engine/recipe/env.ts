/**
 * `${VAR}` and `${VAR:-fallback}` in the project file's values, so secrets and machine paths stay in
 * the environment. Only values are substituted, never keys; `$${` writes a literal `${`.
 */
import { visit } from "yaml";
import type { RecipeIssue } from "./errors.js";
import type { SourceDocument } from "./yaml-source.js";

const REFERENCE = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export type Environment = Readonly<Record<string, string | undefined>>;

/** Replaces references in `text`; returns the names that had no value and no fallback. */
export function expandReferences(text: string, env: Environment): { value: string; missing: string[] } {
  const missing: string[] = [];
  const value = text.replace(
    REFERENCE,
    (whole, escaped: string, name: string, fallback: string | undefined) => {
      if (escaped) return whole.slice(1);
      const found = env[name];
      if (found !== undefined && found !== "") return found;
      if (fallback !== undefined) return fallback;
      missing.push(name);
      return "";
    },
  );
  return { value, missing };
}

export function substituteEnvironment(source: SourceDocument, env: Environment): RecipeIssue[] {
  const issues: RecipeIssue[] = [];
  let changed = false;
  visit(source.doc, {
    Scalar(key, node) {
      if (key === "key" || typeof node.value !== "string" || !node.value.includes("${")) return;
      const { value, missing } = expandReferences(node.value, env);
      for (const name of missing) {
        const pos = node.range ? source.positionOf(node.range[0]) : source.at([]);
        issues.push({ file: source.file, ...pos, message: `environment variable ${name} is not set` });
      }
      node.value = value;
      changed = true;
    },
  });
  if (changed) source.value = source.doc.toJS();
  return issues;
}
