/**
 * Removing a kept Spotify sign-in's token file (`musicsync auth spotify --sign-out`,
 * docs/spotify-sign-in.md#signing-out). Only a file that holds a sign-in is removed: the path is
 * a setting (services.spotify.token), and a mistaken one must not cost the person another file.
 * The removal takes the lock a run's write-back takes, so a renewal finishing meanwhile either
 * lands before it (and is removed) or finds no sign-in and keeps nothing.
 */
import { lstat, unlink } from "node:fs/promises";
import { withLockFile } from "../files/lock-file.js";
import { describeFsError, FileReadError, kindOf } from "../files/read-regular.js";
import { parseKeptToken, SpotifySignInError, tokenFileBytes } from "./spotify-token.js";

const notRemoved = (path: string, why: string) =>
  new SpotifySignInError(`the Spotify sign-in ${path} ${why}: not removed`);

/** What is at `path` before anything is opened: a link is not followed, a folder not entered. */
async function kindAt(path: string): Promise<"none" | "file"> {
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "none";
    throw notRemoved(path, `cannot be looked at (${describeFsError(e)})`);
  }
  // A link leads elsewhere: removing it would leave the token it leads to, and the file it leads
  // to may be anything. The person decides.
  if (info.isSymbolicLink())
    throw notRemoved(
      path,
      "is a symbolic link, not the file `musicsync auth spotify` writes; remove it yourself",
    );
  if (!info.isFile()) throw notRemoved(path, kindOf(info));
  return "file";
}

/** Checks that `path` holds a sign-in (bounded read, parsed); throws, naming the file only, if not. */
async function holdsSignIn(path: string): Promise<boolean> {
  let bytes: Buffer | null;
  try {
    bytes = await tokenFileBytes(path);
  } catch (e) {
    if (e instanceof FileReadError) throw notRemoved(path, `cannot be read (${e.message})`);
    throw e;
  }
  if (bytes === null) return false;
  try {
    parseKeptToken(bytes.toString("utf8"), path);
  } catch (e) {
    if (e instanceof SpotifySignInError)
      throw notRemoved(path, "does not hold a Spotify sign-in; if it is yours to delete, remove it yourself");
    throw e;
  }
  return true;
}

/**
 * Removes the sign-in's token file; false when there is none. Throws SpotifySignInError, saying
 * why and that nothing was removed, for anything at the path that is not a readable sign-in.
 */
export async function removeSpotifyTokenFile(path: string): Promise<boolean> {
  if ((await kindAt(path)) === "none") return false;
  return withLockFile(path, async () => {
    // Looked at again under the lock: a write-back may have replaced it since.
    if ((await kindAt(path)) === "none" || !(await holdsSignIn(path))) return false;
    try {
      await unlink(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw notRemoved(path, `could not be removed (${describeFsError(e)})`);
    }
    return true;
  });
}
