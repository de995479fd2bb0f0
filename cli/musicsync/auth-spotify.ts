/**
 * `musicsync auth spotify`: signs a person in to Spotify (authorization code with PKCE: the app's
 * client id and no secret), through a redirect to a server of its own on 127.0.0.1, and keeps the
 * token (docs/spotify-sign-in.md). The command prints the address to open rather than launching a
 * browser: it often runs where no browser is (a server reached over SSH, with the port
 * forwarded), and nothing in our dependencies opens one the same way everywhere.
 *
 * Nothing printed holds a token, the code or the verifier: each is told to the engine's scrubber
 * when it is known, and no message is built from them.
 */
import { randomBytes } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ACCOUNTS_KEY_VARIABLE, accountsKeyFrom } from "../../engine/accounts/seal.js";
import { storeServiceToken } from "../../engine/accounts/service-token.js";
import { LockFileError } from "../../engine/files/lock-file.js";
import { printable } from "../../engine/output/printable.js";
import { engineScrubber } from "../../engine/output/scrub.js";
import type { Project } from "../../engine/recipe/types.js";
import { AccountError } from "../../engine/run/account-error.js";
import { type EmbeddedEmulator, standInEmulator } from "../../engine/run/emulator-account.js";
import {
  ServiceSettingError,
  spotifyClientId,
  spotifySettings,
  standInJson,
} from "../../engine/run/service-settings.js";
import {
  keptTokenText,
  removeSpotifyTokenFileForStore,
  spotifyTokenPath,
  writeSpotifyTokenFile,
} from "../../engine/run/spotify-token.js";
import { ServiceReadError } from "../../engine/services/http.js";
import {
  listenForRedirect,
  RedirectListenError,
  type RedirectListener,
  RedirectTimeoutError,
} from "../../engine/services/loopback-redirect.js";
import {
  authorizeUrl,
  exchangeCode,
  pkceChallenge,
  pkceVerifier,
  SPOTIFY_READ_SCOPES,
  SpotifyClient,
  type SpotifyToken,
} from "../../engine/services/spotify/index.js";
import { openState } from "../../engine/state/open.js";
import { CliError, type CommandRun, Exit } from "./io.js";
import { loadProject, noProject, stateFileOf } from "./project.js";

export interface AuthSpotifyOptions {
  port?: string;
  timeout?: string;
  store?: boolean;
  signOut?: boolean;
}

const CALLBACK = "/callback";
const DASHBOARD = "https://developer.spotify.com/dashboard";
/** An hour at most: a sign-in is a person in front of a browser, not a daemon. */
const MOST_SECONDS = 3600;

const NO_CLIENT_ID =
  "signing in to Spotify needs your Spotify app's client id: set services.spotify.client_id in the " +
  `project file or SPOTIFY_CLIENT_ID (create an app at ${DASHBOARD}, and list the redirect URI ` +
  `http://127.0.0.1${CALLBACK} in its settings)`;

const httpDeps = {
  sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
  now: () => Date.now(),
};

function portOf(text: string | undefined): number {
  if (text === undefined) return 0;
  const n = /^[0-9]{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= 1 && n <= 65535))
    throw new CliError(`--port ${printable(text)}: give a port number from 1 to 65535`);
  return n;
}

function secondsOf(text: string | undefined): number {
  const n = /^[0-9]+(\.[0-9]+)?$/.test(text ?? "") ? Number(text) : Number.NaN;
  if (!(n > 0 && n <= MOST_SECONDS))
    throw new CliError(
      `--timeout ${printable(text ?? "")}: give seconds, more than 0 and at most ${MOST_SECONDS}`,
    );
  return n;
}

/** Where the sign-in goes: the project, the app, Spotify's accounts host and Web API. */
interface Target {
  project: Project;
  clientId: string;
  accountsBase: string;
  apiBase: string;
  /** The embedded emulator's stand-in, not Spotify. */
  standIn: boolean;
}

/** The embedded emulator this command started, if any: stopped when the command ends. */
interface Started {
  emulator: EmbeddedEmulator | null;
}

/**
 * The project, the app's client id and Spotify's addresses, refused in that order of need (the
 * client id first). With `services.spotify.emulator`, the stand-in on the project's embedded
 * emulator, started for this command (its database keeps the tokens the stand-in issues, so the
 * sign-in outlives it), whose app signs in when no client id is set.
 */
async function targetOf(run: CommandRun, started: Started): Promise<Target> {
  const { g, io } = run;
  const project = existsSync(g.project) ? await loadProject(g.project, io) : null;
  let clientId: string | null;
  try {
    clientId = project ? spotifyClientId({ project, environment: io.env }) : io.env.SPOTIFY_CLIENT_ID || null;
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  const onStandIn = project?.services.spotify?.emulator === true;
  if (!clientId && !onStandIn) throw new CliError(NO_CLIENT_ID);
  if (!project) throw new CliError(noProject(g.project));
  const emulator = onStandIn ? standInEmulator(project, dirname(resolve(g.project))) : null;
  started.emulator = emulator;
  try {
    const s = await spotifySettings({
      project,
      environment: io.env,
      ...(emulator ? { emulatorUrl: () => emulator.url() } : {}),
    });
    clientId ??= (await standInJson<{ client_id: string }>(await emulator!.url(), "spotify/app")).client_id;
    return { project, clientId, accountsBase: s.accountsUrl, apiBase: s.apiUrl, standIn: emulator !== null };
  } catch (e) {
    if (e instanceof ServiceSettingError || e instanceof AccountError) throw new CliError(e.message);
    throw e;
  }
}

function instructions(
  url: URL,
  redirectUri: string,
  fixedPort: boolean,
  seconds: number,
  standIn: boolean,
): string {
  // The stand-in knows its one app and approves at once: there is nothing to register or sign in to.
  const register = standIn
    ? "This is the embedded emulator's stand-in for Spotify: it approves at once, with nothing to register."
    : fixedPort
      ? `Your app's settings (${DASHBOARD}) must list the redirect URI ${redirectUri} exactly.`
      : `Your app's settings (${DASHBOARD}) must list the redirect URI http://127.0.0.1${CALLBACK} ` +
        "(Spotify then allows any port), or run again with --port <port> and list " +
        `http://127.0.0.1:<port>${CALLBACK}.`;
  return [
    standIn
      ? "Open this address in a browser (or fetch it, then the address it sends you to):"
      : "Open this address in a browser where you are signed in to Spotify, and approve:",
    "",
    `  ${url.toString()}`,
    "",
    `Spotify then sends the browser back to ${redirectUri}, where this command waits (up to ${seconds} s).`,
    register,
    "",
  ].join("\n");
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Where the command keeps the token: the file, or the state (checked before the person signs in). */
type Keeping = { kind: "file"; path: string } | { kind: "state"; url: string; file: string };

function keepingOf(run: CommandRun, project: Project, store: boolean): Keeping {
  const file = spotifyTokenPath(project, run.g.project);
  if (!store) {
    // Refused now rather than after the person has approved in the browser.
    if (!isFolder(dirname(file)))
      throw new CliError(
        `the token's folder ${dirname(file)} does not exist (services.spotify.token): make it first`,
      );
    return { kind: "file", path: file };
  }
  const url = stateFileOf(run.g, project);
  // Refused now rather than after the person has approved in the browser.
  accountsKeyFrom(run.io.env, "`auth spotify --store` seals the Spotify sign-in with it");
  return { kind: "state", url, file };
}

async function keep(
  run: CommandRun,
  keeping: Keeping,
  token: SpotifyToken,
  clientId: string,
): Promise<string> {
  if (keeping.kind === "file") {
    await underLock(() => writeSpotifyTokenFile(keeping.path, { token, clientId }), "was not kept");
    return `The token is kept in ${keeping.path} (readable by you only); runs refresh it and keep the new one there.`;
  }
  const state = openState(keeping.url);
  let keyId: string;
  try {
    const text = keptTokenText({ token, clientId });
    keyId = (await storeServiceToken(state, "spotify", text, run.io.env, Date.now())).keyId;
  } finally {
    await state.close();
  }
  const lines = [
    `The token is sealed into the state with the stored accounts (key ${keyId}, ${ACCOUNTS_KEY_VARIABLE}); ` +
      "runs on any machine with that key refresh it and keep the new one there.",
  ];
  // The file would be read first (docs/spotify-sign-in.md): an older sign-in must not shadow this one.
  if (existsSync(keeping.file)) {
    const removed = await underLock(
      () => removeSpotifyTokenFileForStore(keeping.file),
      `was not removed (the token is sealed into the state, key ${keyId}, but runs read the file first)`,
    );
    if (removed) lines.push(`The token file ${keeping.file} was removed, so runs read the sealed one.`);
  }
  return lines.join("\n");
}

/** A lock a run keeps holding (or one left behind) said as the refusal it is. */
async function underLock<T>(body: () => Promise<T>, what: string): Promise<T> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof LockFileError) throw new CliError(`the Spotify token file ${what}: ${e.message}`);
    throw e;
  }
}

async function waitForCode(listener: RedirectListener): Promise<string> {
  let outcome: Awaited<RedirectListener["outcome"]>;
  try {
    outcome = await listener.outcome;
  } catch (e) {
    if (e instanceof RedirectTimeoutError)
      throw new CliError(
        `${e.message} from the browser; run \`musicsync auth spotify\` again (--timeout to wait longer)`,
      );
    throw e;
  }
  if (outcome.kind === "code") return outcome.code;
  if (outcome.error === "access_denied")
    throw new CliError(
      "Spotify sign-in: access was not allowed at Spotify's page; run `musicsync auth spotify` again and approve",
    );
  throw new CliError(
    `Spotify sign-in did not complete (${outcome.error}); run \`musicsync auth spotify\` again`,
  );
}

/** Who signed in, to say so; a failure here only means the name is not shown. */
async function whoSignedIn(run: CommandRun, target: Target, token: SpotifyToken) {
  try {
    const client = new SpotifyClient({
      app: { clientId: target.clientId },
      token,
      apiBase: target.apiBase,
      accountsBase: target.accountsBase,
    });
    const me = await client.me();
    return printable(engineScrubber.text(me.displayName ?? me.id));
  } catch (e) {
    const why = engineScrubber.text((e as Error).message);
    run.io.stderr.write(`warning: the sign-in worked, but reading your profile failed: ${why}\n`);
    return null;
  }
}

/** `--sign-out`: no client id needed (removing needs none), and no option of signing in. */
async function signOut(run: CommandRun, o: AuthSpotifyOptions): Promise<void> {
  const given = [
    o.port !== undefined && "--port",
    o.timeout !== undefined && "--timeout",
    o.store && "--store",
  ];
  const extra = given.filter((g) => typeof g === "string");
  if (extra.length > 0)
    throw new CliError(`--sign-out removes the sign-in wherever it is kept: leave out ${extra.join(", ")}`);
  if (!existsSync(run.g.project)) throw new CliError(noProject(run.g.project));
  const project = await loadProject(run.g.project, run.io);
  await (await import("./auth-spotify-sign-out.js")).signOutSpotify(run, project);
}

export async function authSpotify(run: CommandRun, o: AuthSpotifyOptions): Promise<void> {
  if (o.signOut) return signOut(run, o);
  const started: Started = { emulator: null };
  try {
    await signIn(run, o, await targetOf(run, started));
  } finally {
    await started.emulator?.stop();
  }
}

async function signIn(run: CommandRun, o: AuthSpotifyOptions, target: Target): Promise<void> {
  const { io, setExit } = run;
  const { project, clientId, accountsBase } = target;
  const port = portOf(o.port);
  const seconds = secondsOf(o.timeout ?? "300");
  const keeping = keepingOf(run, project, o.store === true);

  const verifier = pkceVerifier(randomBytes(64));
  engineScrubber.addSecrets([verifier]);
  const state = randomBytes(24).toString("base64url");
  let listener: RedirectListener;
  try {
    listener = await listenForRedirect({
      port,
      path: CALLBACK,
      state,
      timeoutMs: seconds * 1000,
      onRefused: (why) => io.stderr.write(`warning: ${why}\n`),
    });
  } catch (e) {
    if (e instanceof RedirectListenError) throw new CliError(e.message);
    throw e;
  }
  try {
    const url = authorizeUrl({
      accountsBase,
      clientId,
      redirectUri: listener.redirectUri,
      scopes: SPOTIFY_READ_SCOPES,
      state,
      challenge: pkceChallenge(verifier),
    });
    io.stdout.write(instructions(url, listener.redirectUri, port !== 0, seconds, target.standIn));
    const code = await waitForCode(listener);
    engineScrubber.addSecrets([code]);
    let token: SpotifyToken;
    try {
      token = await exchangeCode(
        { accountsBase, clientId, code, redirectUri: listener.redirectUri, verifier },
        httpDeps,
      );
    } catch (e) {
      // Its message names no secret; scrubbed all the same, as an accounts host chooses its error words.
      if (e instanceof ServiceReadError)
        throw new CliError(`Spotify sign-in: ${engineScrubber.text(e.message)}`);
      throw e;
    }
    const granted = new Set(token.scope.split(/\s+/));
    const lacking = SPOTIFY_READ_SCOPES.filter((scope) => !granted.has(scope));
    if (lacking.length > 0)
      io.stderr.write(
        `warning: Spotify did not grant ${lacking.join(", ")}: reading what needs ${lacking.length === 1 ? "it" : "them"} will be refused\n`,
      );
    const kept = await keep(run, keeping, token, clientId);
    const who = await whoSignedIn(run, target, token);
    io.stdout.write(`Signed in to Spotify${who ? ` as ${who}` : ""}.\n${kept}\n`);
    setExit(Exit.OK);
  } finally {
    await listener.close();
  }
}
