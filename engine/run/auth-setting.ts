/**
 * An account's `auth` or `token` setting, as the client option it stands for (docs/ENGINE.md#credentials).
 * The value may be a path (relative to the project file) or, typically through `${VAR}`, the
 * credentials themselves: browser headers as JSON or as copied text, or an OAuth token as JSON.
 * The client's own detection decides which; a path is checked here so that the error names the
 * setting and the account. A value is shown in a message only when it is clearly a path.
 */
import { accessSync, constants, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { authTextKind, looksLikePath } from "../../shared/auth-text.js";
import { ArgumentError, AuthError, ErrorCodes } from "../../src/index.js";
import { kindOf } from "../files/read-regular.js";

export interface AuthSetting {
  account: string;
  /** `auth` or `token`. */
  setting: "auth" | "token";
  value: string;
  /** The project file's folder, against which a relative path is read. */
  base: string;
}

/** `accounts.<name>.<setting>`, as the project file spells the place. */
export function settingName(s: Pick<AuthSetting, "account" | "setting">): string {
  return `accounts.${s.account}.${s.setting}`;
}

function readable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** Credentials are a few KB; the client reads the file whole, so a bigger one is not read. */
const MOST_CREDENTIAL_BYTES = 1 << 20;

/**
 * A credentials file the client may read whole: a named pipe would hang it and /dev/zero would
 * never end. The client opens it later, so this is a check of what the path names,
 * not of what is opened; engine/files/read-regular.ts reads the files the engine reads itself.
 */
function checkedFile(s: AuthSetting, full: string): string {
  const info = statSync(full);
  const problem = !info.isFile()
    ? kindOf(info)
    : info.size > MOST_CREDENTIAL_BYTES
      ? `holds ${info.size} bytes, more than credentials (at most ${MOST_CREDENTIAL_BYTES})`
      : null;
  if (problem) throw new AuthError(ErrorCodes.AUTH_INVALID, `${settingName(s)}: the file ${full} ${problem}`);
  return full;
}

/**
 * The `auth` option for the client: inline credentials as they are, a path made absolute. A path
 * that cannot be read is refused here: named when it is clearly one, otherwise not repeated (a
 * one-line cookie or a bare token would land here too).
 */
export function authOption(s: AuthSetting): { auth: string; inline: boolean } {
  if (authTextKind(s.value) !== "path") return { auth: s.value, inline: true };
  const path = s.value.trim();
  const full = isAbsolute(path) ? path : resolve(s.base, path);
  if (readable(full)) return { auth: checkedFile(s, full), inline: false };
  if (looksLikePath(path)) {
    throw new AuthError(
      ErrorCodes.AUTH_INVALID,
      `${settingName(s)}: the file ${full} does not exist or cannot be read`,
    );
  }
  throw new AuthError(
    ErrorCodes.AUTH_INVALID,
    `${settingName(s)} is neither a readable file nor credentials (browser headers or an OAuth token as ` +
      "JSON or header text); its value is not shown, as it may hold one",
  );
}

/** A client error about the credentials, prefixed with the setting it came from. */
export function settingError(s: Pick<AuthSetting, "account" | "setting">, error: unknown): unknown {
  const aboutAuth =
    error instanceof AuthError || (error instanceof ArgumentError && error.argument.startsWith("auth"));
  if (!aboutAuth) return error;
  const code = error instanceof AuthError ? error.code : ErrorCodes.AUTH_INVALID;
  return new AuthError(
    code as typeof ErrorCodes.AUTH_INVALID,
    `${settingName(s)}: ${(error as Error).message}`,
  );
}
