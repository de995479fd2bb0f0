/**
 * The one way the engine reads a file a person named (a recipe, the project file, matches.yaml, a
 * `file` source, a saved plan, a credentials file): only a regular file, and never more than its
 * bound. `stat` says 0 bytes for /dev/zero or a named pipe, so a size checked before reading let a
 * plan grow to 6.6 GB and a pipe hang for ever. Here the kind is asked of the opened
 * descriptor (a link swapped between a check and the open cannot win), the open cannot wait on a
 * pipe (O_NONBLOCK), and the bound holds while reading: at most one byte past it is ever read.
 */
import { constants, type Stats } from "node:fs";
import { type FileHandle, open, readlink, realpath } from "node:fs/promises";
import { isAbsolute, relative, sep } from "node:path";

export interface ReadBounds {
  /** The most bytes the file may hold. */
  maxBytes: number;
  /** What to say of a file over the bound: its size, or the bound itself when `over` (read until then). */
  tooBig(bytes: number, over: boolean): string;
  /** Folders (real paths) the file must be in, after every link is followed; none: anywhere. */
  within?: readonly string[];
}

/** Why a file was not read; `code` is the errno's (ENOENT…) or ours. Callers put the file's name (or place) first. */
export class FileReadError extends Error {
  override name = "FileReadError";

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

// Not on every platform (Windows has neither): 0 leaves the open as it was.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const CHUNK = 64 * 1024;

/** What a file that is not a regular one is, as a person reads it. */
export function kindOf(info: Stats): string {
  if (info.isDirectory()) return "is a directory, not a regular file";
  if (info.isFIFO()) return "is a named pipe, not a regular file";
  if (info.isCharacterDevice()) return "is a character device, not a regular file";
  if (info.isBlockDevice()) return "is a block device, not a regular file";
  if (info.isSocket()) return "is a socket, not a regular file";
  return "is not a regular file";
}

/** An errno as a person reads it, rather than a stack trace. */
export function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === "ENOENT") return "no such file or directory";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "is a directory, not a regular file";
  if (code === "ENOTDIR") return "a folder on its path is a file";
  if (code === "ELOOP") return "its links go round in a loop";
  // A unix socket refuses open(2) with ENXIO; so does a pipe's write end, which we never open.
  if (code === "ENXIO") return "is a socket, not a regular file";
  return code ?? (err instanceof Error ? (err.message.split("\n")[0] ?? "") : String(err));
}

/** Whether `path` is `folder` or below it (both absolute and real). */
export function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Where the opened file really is: on Linux the descriptor's own link in /proc, which no later
 * rename or relinking of `path` can change; elsewhere the path's real path, asked just after.
 */
async function openedAt(handle: FileHandle, path: string): Promise<string> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return realpath(path);
  }
}

async function readUpTo(handle: FileHandle, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK, limit - total));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}

/** The file's bytes; throws FileReadError when it is missing, not a regular file, or too big. */
export async function readRegularFile(path: string, bounds: ReadBounds): Promise<Buffer> {
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (err) {
    throw new FileReadError((err as NodeJS.ErrnoException).code ?? "EIO", describeFsError(err));
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new FileReadError("ENOTREG", kindOf(info));
    if (bounds.within) {
      const real = await openedAt(handle, path);
      if (!bounds.within.some((folder) => isInside(folder, real)))
        throw new FileReadError("EOUTSIDE", `is outside the folders it may be read from (it is ${real})`);
    }
    if (info.size > bounds.maxBytes) throw new FileReadError("EFBIG", bounds.tooBig(info.size, false));
    // The size can be wrong (a file still growing, /proc): one byte past the bound is proof enough.
    const bytes = await readUpTo(handle, bounds.maxBytes + 1);
    if (bytes.length > bounds.maxBytes)
      throw new FileReadError("EFBIG", bounds.tooBig(bounds.maxBytes, true));
    return bytes;
  } finally {
    await handle.close();
  }
}

/** The file's bytes, or null when it does not exist; any other problem throws FileReadError. */
export async function readRegularFileIfAny(path: string, bounds: ReadBounds): Promise<Buffer | null> {
  try {
    return await readRegularFile(path, bounds);
  } catch (err) {
    if (err instanceof FileReadError && err.code === "ENOENT") return null;
    throw err;
  }
}
