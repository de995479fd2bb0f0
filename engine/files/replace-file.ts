/**
 * Files a person keeps (matches.yaml, a recipe) written whole or not at all: the text goes to a
 * temporary file beside the target, which then takes the target's name in one step. A kill or a
 * full disk mid-write leaves the file as it was, never cut short.
 */
import { randomBytes } from "node:crypto";
import { chmod, link, realpath, rename, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Beside the target (a rename stays on one file system), hidden, and no `.yaml` a loader would read. */
function temporaryBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
}

async function writeTemporary(path: string, text: string): Promise<string> {
  const temp = temporaryBeside(path);
  try {
    await writeFile(temp, text, { flag: "wx" });
  } catch (e) {
    await unlink(temp).catch(() => {});
    throw e;
  }
  return temp;
}

/**
 * Replaces (or creates) `path` with `text`, keeping an existing file's permissions; a link is
 * followed, so the file it leads to is replaced and the link stays.
 */
export async function replaceFile(given: string, text: string): Promise<void> {
  const path = await realpath(given).catch(() => given);
  const mode = await stat(path).then(
    (s) => s.mode & 0o7777,
    () => null,
  );
  const temp = await writeTemporary(path, text);
  try {
    if (mode !== null) await chmod(temp, mode);
    await rename(temp, path);
  } catch (e) {
    await unlink(temp).catch(() => {});
    throw e;
  }
}

/**
 * Creates `path` with `text`, refused with EEXIST when something has that name (also one made
 * meanwhile by another process): a hard link takes a name only if it is free.
 */
export async function createFile(path: string, text: string): Promise<void> {
  const temp = await writeTemporary(path, text);
  try {
    await link(temp, path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // A file system without hard links: an exclusive write, which may be cut short by a kill.
    if (code === "EPERM" || code === "ENOTSUP" || code === "EXDEV")
      await writeFile(path, text, { flag: "wx" });
    else throw e;
  } finally {
    await unlink(temp).catch(() => {});
  }
}
