/**
 * ajv, compiled once, with its errors turned into positioned issues written for people:
 * `sources[0].section: must be one of songs, videos, artists, trending`.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import type { RecipeIssue } from "./errors.js";
import { didYouMean } from "./suggest.js";
import * as generated from "./validators.generated.js";
import { MBID_PATTERN } from "./vocabulary.js";
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

/** The schema's patterns as what they mean; one not named here is shown as the expression. */
const PATTERN_MESSAGES: ReadonlyMap<string, string> = new Map([
  ["^[^<>]*$", "must not contain < or >"],
  ["^[A-Za-z0-9_-]{11}$", "must be an 11-character video id"],
  ["^[A-Z]{2}$", "must be a two-letter upper-case code"],
  ["^[a-z0-9][a-z0-9-]*$", "must be lower-case letters, digits and dashes"],
  ["^MPRE", 'must be an album browse id (starting "MPRE")'],
  ["^https?://\\S+$", "must be an http:// or https:// URL"],
  ["^[A-Za-z0-9!#$%&'*+.^_`|~-]+$", "must be an HTTP header name"],
  ["^https?://", "must start with http:// or https://"],
  [MBID_PATTERN, "must be a MusicBrainz id (8-4-4-4-12 hexadecimal digits)"],
]);

function patternMessage(pattern: string): string {
  const known = PATTERN_MESSAGES.get(pattern);
  if (known !== undefined) return known;
  if (pattern.startsWith("^\\S+( +\\S+)")) return "must be a cron expression";
  return `must match ${pattern}`;
}

/** The message of an error about the value at its own path (not a key, not a branch choice). */
function valueMessage(err: ErrorObject, params: Record<string, unknown>): string {
  switch (err.keyword) {
    case "required":
      return `missing required property "${String(params.missingProperty)}"`;
    case "enum":
      return `must be one of: ${list(params.allowedValues as unknown[])}`;
    case "const":
      return `must be "${String(params.allowedValue)}"`;
    case "type":
      return `must be ${typeWord(params.type)}`;
    case "minimum":
      return `must be at least ${String(params.limit)}`;
    case "maximum":
      return `must be at most ${String(params.limit)}`;
    case "minLength":
      return params.limit === 1 ? "must not be empty" : `must be at least ${String(params.limit)} characters`;
    case "maxLength":
      return `must be at most ${String(params.limit)} characters`;
    case "minItems":
      return `must have at least ${String(params.limit)} item(s)`;
    case "minProperties":
      return "must not be empty";
    case "maxProperties":
      return "a pipeline step must have exactly one key (write one step per list item)";
    case "pattern":
      return patternMessage(String(params.pattern));
    default:
      return err.message ?? err.keyword;
  }
}

/** A key the schema does not know, pointed at the key itself, with the keys it does know. */
function unknownProperty(err: ErrorObject, path: Path, params: Record<string, unknown>): Described {
  const prop = keyText(String(params.additionalProperty));
  const parent = err.parentSchema as { properties?: Record<string, unknown> } | undefined;
  const names = Object.keys(parent?.properties ?? {});
  const known = names.length > 0 ? ` (expected one of: ${list(names)})` : "";
  const near = didYouMean(String(params.additionalProperty), names);
  return { path: [...path, prop], key: true, message: `unknown property "${prop}"${near}${known}` };
}

/** A source or target whose `type` is not a string, or names no branch. */
function unknownType(err: ErrorObject, path: Path, params: Record<string, unknown>): Described | null {
  const parent = err.parentSchema as { oneOf?: { properties?: { type?: { const?: string } } }[] } | undefined;
  const allowed = (parent?.oneOf ?? []).map((b) => b.properties?.type?.const).filter(Boolean);
  if (params.error === "tag") {
    // A missing `type` is already reported by `required`.
    if (params.tagValue === undefined) return null;
    return { path: [...path, "type"], key: false, message: "must be a string" };
  }
  const what = path[0] === "target" ? "target" : path[0] === "notify" ? "notify target" : "source";
  return {
    path: [...path, "type"],
    key: false,
    message: `unknown ${what} type "${String(params.tagValue)}"${didYouMean(String(params.tagValue), allowed as string[])} (expected one of: ${list(allowed)})`,
  };
}

function describe(err: ErrorObject, value: unknown): Described | null {
  const path = parsePointer(err.instancePath, value);
  const params = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case "additionalProperties":
      return unknownProperty(err, path, params);
    case "discriminator":
      return unknownType(err, path, params);
    case "oneOf":
    case "if":
    // The name's own error (its pattern) says what is wrong with it.
    case "propertyNames":
      // Reported through the errors of the branch the discriminator chose.
      return null;
    default:
      return { path, key: false, message: valueMessage(err, params) };
  }
}

function samePath(a: Path, b: Path): boolean {
  return a.length === b.length && a.every((seg, i) => seg === b[i]);
}

/** `unchecked`: values whose own errors are not reported (left as written, checked later). */
function check(
  validate: ValidateFunction,
  source: SourceDocument,
  what: string,
  unchecked: readonly Path[] = [],
): RecipeIssue[] {
  const value = source.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const pos = source.at([]);
    return [{ file: source.file, ...pos, message: `${what} must be a mapping` }];
  }
  if (validate(value)) return [];
  const issues: RecipeIssue[] = [];
  for (const err of validate.errors ?? []) {
    const d = describe(err, value);
    if (!d || (!d.key && unchecked.some((p) => samePath(p, d.path)))) continue;
    const pos = source.at(d.path, d.key);
    const where = pathText(d.path);
    issues.push({ file: source.file, ...pos, message: where ? `${where}: ${d.message}` : d.message });
  }
  return issues;
}

export function checkRecipeSchema(source: SourceDocument): RecipeIssue[] {
  return check(validators().recipe, source, "a recipe");
}

export function checkProjectSchema(source: SourceDocument, unchecked: readonly Path[] = []): RecipeIssue[] {
  return check(validators().project, source, "the project file", unchecked);
}
