/**
 * `${VAR}` and `${VAR:-fallback}` in the project file's values, so secrets and machine paths stay in
 * the environment. Only values are substituted, never keys; `$${` writes a literal `${`.
 */
import { isPair, isScalar, isSeq, visit } from "yaml";
import type { RecipeIssue } from "./errors.js";
import type { Path, SourceDocument } from "./yaml-source.js";

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

/** A value naming a variable that is not set, left as written for the command that reads it. */
export interface UnsetReference {
  path: Path;
  variables: string[];
  line: number;
  col: number;
}

/**
 * Substitutes every reference. A value naming a variable that is not set is an error, unless
 * `deferred` says its setting is read only when a command uses it (a webhook's token, an account's
 * credentials): that value is then left as written and returned, for that command to refuse.
 */
export function substituteEnvironment(
  source: SourceDocument,
  env: Environment,
  deferred: (path: Path) => boolean = () => false,
): { issues: RecipeIssue[]; unset: UnsetReference[] } {
  const issues: RecipeIssue[] = [];
  const unset: UnsetReference[] = [];
  let changed = false;
  visit(source.doc, {
    Scalar(key, node, ancestors) {
      if (key === "key" || typeof node.value !== "string" || !node.value.includes("${")) return;
      const { value, missing } = expandReferences(node.value, env);
      const pos = node.range ? source.positionOf(node.range[0]) : source.at([]);
      if (missing.length > 0) {
        const path = pathOf(ancestors, node);
        if (deferred(path)) {
          unset.push({ path, variables: [...new Set(missing)], ...pos });
          return;
        }
      }
      for (const name of missing)
        issues.push({ file: source.file, ...pos, message: `environment variable ${name} is not set` });
      node.value = value;
      changed = true;
    },
  });
  if (changed) source.value = source.doc.toJS();
  return { issues, unset };
}

/** The value's path (`["notify", 1, "headers", "Authorization"]`) from the visitor's ancestors. */
function pathOf(ancestors: readonly unknown[], node: unknown): Path {
  const path: (string | number)[] = [];
  for (const [i, a] of ancestors.entries()) {
    const next = ancestors[i + 1] ?? node;
    if (isSeq(a)) path.push(a.items.indexOf(next as never));
    else if (isPair(a)) path.push(isScalar(a.key) ? String(a.key.value) : String(a.key));
  }
  return path;
}
