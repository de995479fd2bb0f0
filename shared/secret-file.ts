import { randomBytes } from "node:crypto";
import { chmod, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Owner read/write only: these files hold session cookies and refresh tokens. */
export const SECRET_FILE_MODE = 0o600;

/**
 * JSON as the credential files are written: keys sorted (nested objects too), 4-space indent, and
 * every non-ASCII character escaped so the file reads the same whatever the editor's encoding.
 */
export function credentialJson(value: Record<string, unknown>): string {
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = value[key];
  const text = JSON.stringify(sorted, null, 4);
  return text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function tempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
}

/**
 * Writes a credential file with mode 0600. The text goes to a temporary file created with that mode
 * and is then renamed over the target, so a reader (or a second process refreshing the same token)
 * never sees half a file, and an existing file's looser mode is not inherited.
 */
export async function writeSecretFile(path: string, text: string): Promise<void> {
  const temp = tempPath(path);
  try {
    await writeFile(temp, text, { mode: SECRET_FILE_MODE, flag: "wx" });
    // The umask may have narrowed the mode further but never widens it; make it exact anyway.
    await chmod(temp, SECRET_FILE_MODE);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
