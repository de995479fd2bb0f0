/**
 * Settings read when a command uses them, not when the project loads: an account's credentials and
 * service, another music service's keys, a notification target, the state's URL. A `${VAR}` in one of them that is not set where
 * the file is read is no error of the file (a recipe repository's CI checks recipes without the
 * webhook's secret): `validate` warns of it, and the command that needs the setting refuses,
 * naming the variable and where it is written, never a value.
 */
import type { RecipeIssue } from "./errors.js";
import type { Project, UnresolvedSetting } from "./types.js";
import { pathText } from "./validate-schema.js";
import type { Path } from "./yaml-source.js";

/** An account's text settings, read when a client of the account is made. */
const ACCOUNT_TEXTS: ReadonlySet<unknown> = new Set([
  "auth",
  "token",
  "base_url",
  "brand_account",
  "language",
  "location",
]);

/** The other services' text settings, read when a source of that service is read. */
const SERVICE_TEXTS: ReadonlySet<unknown> = new Set([
  "client_id",
  "client_secret",
  "token",
  "api_key",
  "base_url",
  "accounts_url",
]);

/**
 * Whether the value at `path` of the project file is a text setting read only when a command uses
 * it. Only single text values: a whole mapping or list written as one `${VAR}` (`accounts:
 * ${X}`, `headers: ${H}`) is no such setting, and its unset variable stays an error of the file.
 */
export function readWhenUsed(path: Path): boolean {
  const [root, , field, leaf] = path;
  if (root === "state") return path.length === 1;
  if (root === "accounts")
    return (
      (path.length === 3 && ACCOUNT_TEXTS.has(field)) ||
      (path.length === 4 && field === "oauth_client" && (leaf === "id" || leaf === "secret"))
    );
  if (root === "services") return path.length === 3 && SERVICE_TEXTS.has(field);
  if (root === "notify")
    return (
      (path.length === 3 && field === "url") ||
      (path.length === 4 && (field === "headers" || field === "command"))
    );
  return false;
}

/** A command needs a setting whose variable is not set here. */
export class UnresolvedSettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnresolvedSettingError";
  }
}

/** The unresolved settings at or under `prefix` (`["accounts", "me"]`, `["notify"]`). */
export function unresolvedUnder(project: Project, prefix: Path): UnresolvedSetting[] {
  return (project.unresolved ?? []).filter((u) => prefix.every((seg, i) => u.path[i] === seg));
}

function variablesText(u: UnresolvedSetting): string {
  const [first, ...rest] = u.variables;
  return rest.length === 0
    ? `the environment variable ${first}, which is not set`
    : `the environment variables ${u.variables.join(", ")}, which are not set`;
}

/** `musicsync.yaml:14:30: notify[1].headers.Authorization needs the environment variable HOOK_TOKEN, …` */
export function unresolvedText(u: UnresolvedSetting): string {
  return `${u.file}:${u.line}:${u.col}: ${pathText(u.path)} needs ${variablesText(u)}`;
}

/**
 * Throws, before anything is read or written, when a setting under `prefix` names a variable that
 * is not set; `needed` says what for (`sync sends notifications`).
 */
export function requireResolved(project: Project, prefix: Path, needed: string): void {
  const missing = unresolvedUnder(project, prefix);
  if (missing.length === 0) return;
  throw new UnresolvedSettingError(`${needed}, but ${missing.map(unresolvedText).join("; ")}`);
}

/** What `validate` says of each: a warning, the exit code left alone. */
export function unresolvedWarnings(project: Project): RecipeIssue[] {
  return (project.unresolved ?? []).map((u) => ({
    file: u.file,
    line: u.line,
    col: u.col,
    severity: "warning" as const,
    message:
      `${pathText(u.path)}: ${u.variables.join(", ")} ${u.variables.length === 1 ? "is" : "are"} not set here; ` +
      "the setting is checked when a command uses it",
  }));
}
