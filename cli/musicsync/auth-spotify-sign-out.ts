/**
 * `musicsync auth spotify --sign-out`: removes the kept Spotify sign-in wherever it is kept, the
 * token file and the row sealed in the state, both when both exist (docs/spotify-sign-in.md#signing-out).
 * Each place is tried even when the other fails, so a broken state does not keep the file's token
 * alive; the command says what it removed and where, and fails when a place could not be cleared.
 * Nothing read is printed: the file is parsed only to make sure it is a sign-in.
 */
import { removeServiceToken } from "../../engine/accounts/service-token.js";
import { LockFileError } from "../../engine/files/lock-file.js";
import { engineScrubber } from "../../engine/output/scrub.js";
import type { Project } from "../../engine/recipe/types.js";
import { removeSpotifyTokenFile } from "../../engine/run/spotify-sign-out.js";
import { SpotifySignInError, spotifyTokenPath } from "../../engine/run/spotify-token.js";
import { openState } from "../../engine/state/open.js";
import { parseStateUrl } from "../../engine/state/url.js";
import { CliError, type CommandRun, Exit } from "./io.js";
import { stateFileOf, stateMayExist } from "./project.js";

/** Where Spotify's own record of the app's access is ended (Spotify documents no revocation call). */
export const SPOTIFY_APPS_PAGE = "https://www.spotify.com/account/apps/";

type Outcome = { removed: boolean; where: string } | { failed: string };

/** The state as a person reads it: the SQLite file, or PostgreSQL without its address (it may hold a password). */
function stateName(url: string): string {
  const target = parseStateUrl(url);
  return target.kind === "sqlite" ? `the state ${target.file}` : "the PostgreSQL state";
}

/** A failure said as it is, scrubbed (a driver's message may quote a connection string). */
function failure(e: unknown): string {
  const known = e instanceof SpotifySignInError || e instanceof LockFileError;
  return engineScrubber.text(known ? e.message : `${(e as Error).message ?? e}`);
}

async function fromFile(path: string): Promise<Outcome> {
  try {
    return { removed: await removeSpotifyTokenFile(path), where: path };
  } catch (e) {
    return { failed: failure(e) };
  }
}

async function fromState(url: string): Promise<Outcome> {
  const where = stateName(url);
  // A SQLite state not made yet holds nothing; opening it would make it.
  if (!stateMayExist(url)) return { removed: false, where };
  let state: ReturnType<typeof openState> | null = null;
  try {
    state = openState(url);
    return { removed: await removeServiceToken(state, "spotify"), where };
  } catch (e) {
    return { failed: `${where} could not be opened to remove the sealed sign-in: ${failure(e)}` };
  } finally {
    await state?.close().catch(() => {});
  }
}

export async function signOutSpotify(run: CommandRun, project: Project): Promise<void> {
  const { io, setExit } = run;
  const outcomes = [
    await fromFile(spotifyTokenPath(project, run.g.project)),
    await fromState(stateFileOf(run.g, project)),
  ];
  const lines: string[] = [];
  for (const o of outcomes) {
    if ("failed" in o) continue;
    if (o.removed) lines.push(`Removed the Spotify sign-in kept in ${o.where}.`);
  }
  const failed = outcomes.flatMap((o) => ("failed" in o ? [o.failed] : []));
  if (lines.length === 0 && failed.length === 0) {
    const looked = outcomes.map((o) => ("where" in o ? o.where : "")).join(" and ");
    io.stdout.write(`No Spotify sign-in is kept (looked in ${looked}): nothing to remove.\n`);
  } else if (lines.length > 0) {
    lines.push(
      "Runs no longer read your Spotify library. Your Spotify account still lets your app in until " +
        `you remove it at ${SPOTIFY_APPS_PAGE}.`,
    );
    io.stdout.write(`${lines.join("\n")}\n`);
  }
  if (failed.length > 0) throw new CliError(failed.join("\n"));
  setExit(Exit.OK);
}
