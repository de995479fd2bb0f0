/**
 * ajv, compiled once, with its errors turned into positioned issues written for people:
 * `sources[0].section: must be one of songs, videos, artists, trending`.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import type { RecipeIssue } from "./errors.js";
import * as generated from "./validators.generated.js";
import type { Path, SourceDocument } from "./yaml-source.js";

/**
 * The validators, made at build time from the schemas (validators-code.ts): compiling them here cost
 * every start about a quarter of a second.
 */
function validators(): { recipe: ValidateFunction; project: ValidateFunction } {
  return generated as unknown as { recipe: ValidateFunction; project: ValidateFunction };
}

/** A key as it may be shown: a hostile file's 900,000-character key is cut to its start. */
export function keyText(key: string): string {
  return key.length > 40 ? `${key.slice(0, 40)}…` : key;
}

/** `sources[0].type` from `["sources", 0, "type"]`. */
export function pathText(path: Path): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else out += out ? `.${keyText(seg)}` : keyText(seg);
  }
  return out;
}

function parsePointer(pointer: string, value: unknown): (string | number)[] {
  if (!pointer) return [];
  const out: (string | number)[] = [];
  let cursor: unknown = value;
  for (const raw of pointer.slice(1).split("/")) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(cursor)) {
      out.push(Number(seg));
      cursor = cursor[Number(seg)];
    } else {
      out.push(seg);
      cursor = cursor && typeof cursor === "object" ? (cursor as Record<string, unknown>)[seg] : undefined;
    }
  }
  return out;
}

function list(values: readonly unknown[]): string {
  return values.map((v) => String(v)).join(", ");
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function typeWord(type: unknown): string {
  if (type === "object") return "a mapping";
  if (type === "array") return "a list";
  return article(String(type));
}

interface Described {
  path: Path;
  key: boolean;
  message: string;
}

function describe(err: ErrorObject, value: unknown): Described | null {
  const path = parsePointer(err.instancePath, value);
  const params = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case "required":
      return { path, key: false, message: `missing required property "${String(params.missingProperty)}"` };
    case "additionalProperties": {
      const prop = keyText(String(params.additionalProperty));
      const parent = err.parentSchema as { properties?: Record<string, unknown> } | undefined;
      const known = parent?.properties ? ` (expected one of: ${list(Object.keys(parent.properties))})` : "";
      return { path: [...path, prop], key: true, message: `unknown property "${prop}"${known}` };
    }
    case "enum":
      return { path, key: false, message: `must be one of: ${list(params.allowedValues as unknown[])}` };
    case "const":
      return { path, key: false, message: `must be "${String(params.allowedValue)}"` };
    case "type":
      return { path, key: false, message: `must be ${typeWord(params.type)}` };
    case "minimum":
      return { path, key: false, message: `must be at least ${String(params.limit)}` };
    case "maximum":
      return { path, key: false, message: `must be at most ${String(params.limit)}` };
    case "minLength":
      return {
        path,
        key: false,
        message:
          params.limit === 1 ? "must not be empty" : `must be at least ${String(params.limit)} characters`,
      };
    case "maxLength":
      return { path, key: false, message: `must be at most ${String(params.limit)} characters` };
    case "minItems":
      return { path, key: false, message: `must have at least ${String(params.limit)} item(s)` };
    case "minProperties":
      return { path, key: false, message: "must not be empty" };
    case "maxProperties":
      return {
        path,
        key: false,
        message: "a pipeline step must have exactly one key (write one step per list item)",
      };
    case "pattern": {
      const pattern = String(params.pattern);
      if (pattern === "^[^<>]*$") return { path, key: false, message: "must not contain < or >" };
      if (pattern === "^[A-Za-z0-9_-]{11}$")
        return { path, key: false, message: "must be an 11-character video id" };
      if (pattern === "^[A-Z]{2}$")
        return { path, key: false, message: "must be a two-letter upper-case code" };
      if (pattern === "^[a-z0-9][a-z0-9-]*$")
        return { path, key: false, message: "must be lower-case letters, digits and dashes" };
      if (pattern === "^MPRE")
        return { path, key: false, message: 'must be an album browse id (starting "MPRE")' };
      if (pattern.startsWith("^\\S+( +\\S+)"))
        return { path, key: false, message: "must be a cron expression" };
      return { path, key: false, message: `must match ${pattern}` };
    }
    case "discriminator": {
      const parent = err.parentSchema as
        | { oneOf?: { properties?: { type?: { const?: string } } }[] }
        | undefined;
      const allowed = (parent?.oneOf ?? []).map((b) => b.properties?.type?.const).filter(Boolean);
      if (params.error === "tag") {
        // A missing `type` is already reported by `required`.
        if (params.tagValue === undefined) return null;
        return { path: [...path, "type"], key: false, message: "must be a string" };
      }
      const what = path[0] === "target" ? "target" : "source";
      return {
        path: [...path, "type"],
        key: false,
        message: `unknown ${what} type "${String(params.tagValue)}" (expected one of: ${list(allowed)})`,
      };
    }
    case "oneOf":
    case "if":
      // Reported through the errors of the branch the discriminator chose.
      return null;
    default:
      return { path, key: false, message: err.message ?? err.keyword };
  }
}

function check(validate: ValidateFunction, source: SourceDocument, what: string): RecipeIssue[] {
  const value = source.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const pos = source.at([]);
    return [{ file: source.file, ...pos, message: `${what} must be a mapping` }];
  }
  if (validate(value)) return [];
  const issues: RecipeIssue[] = [];
  for (const err of validate.errors ?? []) {
    const d = describe(err, value);
    if (!d) continue;
    const pos = source.at(d.path, d.key);
    const where = pathText(d.path);
    issues.push({ file: source.file, ...pos, message: where ? `${where}: ${d.message}` : d.message });
  }
  return issues;
}

export function checkRecipeSchema(source: SourceDocument): RecipeIssue[] {
  return check(validators().recipe, source, "a recipe");
}

export function checkProjectSchema(source: SourceDocument): RecipeIssue[] {
  return check(validators().project, source, "the project file");
}
