/**
 * `musicsync accounts add | list | remove | key`, and the stored accounts merged into
 * the project for the commands that run recipes. No line printed here holds a credential: the
 * content read is known to the scrubber before anything can fail, and only names, settings and key
 * ids are shown.
 */
import { existsSync } from "node:fs";
import {
  type AccountInput,
  type AccountListing,
  checkAccountName,
  listAccounts,
  removeAccount,
  resealAccount,
  sealAccount,
  sealingKeyIds,
  storeAccount,
  withStoredAccounts,
} from "../../engine/accounts/accounts.js";
import { ACCOUNTS_KEY_VARIABLE, accountsKeyFrom, newAccountsKey } from "../../engine/accounts/seal.js";
import { settingsRefusal, shownSettings } from "../../engine/accounts/sealed-settings.js";
import { FileReadError, type ReadBounds, readRegularFile } from "../../engine/files/read-regular.js";
import { printable } from "../../engine/output/printable.js";
import type { Environment } from "../../engine/recipe/env.js";
import { BUILT_IN_DEFAULTS } from "../../engine/recipe/normalise.js";
import type { Project } from "../../engine/recipe/types.js";
import { openState } from "../../engine/state/open.js";
import type { AccountStore, EngineState } from "../../engine/state/types.js";
import { looksLikePath } from "../../shared/auth-text.js";
import { CliError, type CliIo, type CommandRun, Exit } from "./io.js";
import { existingStateFolder, loadProject, stateFileOf, stateMayExist } from "./project.js";

export interface AddOptions {
  auth?: string;
  token?: string;
  oauthClientId?: string;
  oauthClientSecret?: string;
  baseUrl?: string;
  language?: string;
  location?: string;
  brandAccount?: string;
}

/** A credentials file is small; anything bigger is not one (and is not read whole into memory). */
const MOST_BYTES = 1 << 20;

const CREDENTIALS_BOUNDS: ReadBounds = {
  maxBytes: MOST_BYTES,
  tooBig: (bytes, over) => `${over ? "over" : "holds"} ${bytes} bytes, not credentials`,
};

type StdinIo = CliIo & { stdin?: NodeJS.ReadableStream };

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const b = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > MOST_BYTES) throw new CliError(`stdin holds more than ${MOST_BYTES} bytes: not credentials`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The content of `file` (stdin for `-`); a name that is not clearly a path is not repeated. */
async function readCredentials(io: StdinIo, option: string, file: string): Promise<string> {
  if (file === "-") return readStream(io.stdin ?? process.stdin);
  const shown = looksLikePath(file) || existsSync(file) ? ` ${file}` : " (the value is not shown)";
  try {
    return (await readRegularFile(file, CREDENTIALS_BOUNDS)).toString("utf8");
  } catch (e) {
    if (e instanceof FileReadError) throw new CliError(`${option}${shown}: ${e.message}`);
    throw new CliError(`${option}${shown}: cannot read it (${(e as NodeJS.ErrnoException).code ?? "error"})`);
  }
}

/** The input of `accounts add`, the files read; what the options get wrong is refused first. */
async function inputOf(io: StdinIo, o: AddOptions): Promise<AccountInput> {
  if ((o.auth === undefined) === (o.token === undefined))
    throw new CliError("give --auth <file> or --token <file>");
  if ((o.oauthClientId === undefined) !== (o.oauthClientSecret === undefined))
    throw new CliError("--oauth-client-id and --oauth-client-secret go together");
  if ([o.auth, o.token, o.oauthClientSecret].filter((f) => f === "-").length > 1)
    throw new CliError("only one option can read stdin (`-`)");
  const input: AccountInput = {
    base_url: o.baseUrl ?? null,
    language: o.language ?? null,
    location: o.location ?? null,
    brand_account: o.brandAccount ?? null,
  };
  if (o.auth !== undefined) input.auth = await readCredentials(io, "--auth", o.auth);
  else input.token = await readCredentials(io, "--token", o.token!);
  if (o.oauthClientId !== undefined) {
    const secret = (await readCredentials(io, "--oauth-client-secret", o.oauthClientSecret!)).trim();
    input.oauth_client = { id: o.oauthClientId, secret };
  }
  return input;
}

/** The project (when there is one; `--state` alone is enough here) and the state URL. */
async function where(run: CommandRun): Promise<{ project: Project | null; url: string }> {
  const { g, io } = run;
  if (g.state && !existsSync(g.project)) return { project: null, url: g.state };
  const project = await loadProject(g.project, io);
  return { project, url: stateFileOf(g, project) };
}

/** `where`, for the commands that read stored accounts: a state folder that does not exist is refused. */
async function whereStored(run: CommandRun): Promise<{ project: Project | null; url: string }> {
  const found = await where(run);
  return { ...found, url: existingStateFolder(found.url) };
}

async function withState<T>(url: string, body: (state: EngineState) => Promise<T>): Promise<T> {
  const state = openState(url);
  try {
    return await body(state);
  } finally {
    await state.close();
  }
}

export async function add(run: CommandRun, name: string, o: AddOptions): Promise<void> {
  const { io, setExit } = run;
  checkAccountName(name);
  const input = await inputOf(io, o);
  const { project, url } = await where(run);
  // Read only where a state exists: the key that sealed them is what to set, not a new one.
  const others = stateMayExist(url) ? await withState(url, (state) => state.storedAccounts()) : [];
  // Everything is checked and sealed before the state is written (or made): a refusal writes nothing.
  const sealed = sealAccount(name, input, Date.now(), io.env, others);
  const done = await withState(url, (state) => storeAccount(state, sealed));
  const verb = done.replaced ? "replaced" : "stored";
  io.stdout.write(
    `Account ${name} ${verb} (${o.auth !== undefined ? "auth" : "token"}, sealed with key ${done.keyId}).\n`,
  );
  // Every command opens every stored account with the one key it is given.
  const otherKeys = sealingKeyIds(others.filter((a) => a.name !== name)).filter((id) => id !== done.keyId);
  if (otherKeys.length > 0)
    io.stderr.write(
      `warning: other stored accounts were sealed with key ${[...new Set(otherKeys)].join(", key ")}, which ` +
        `${ACCOUNTS_KEY_VARIABLE} (key ${done.keyId}) cannot open: add them again with this key, or this one with theirs\n`,
    );
  if (project && Object.hasOwn(project.accounts, name))
    io.stderr.write(`warning: ${run.g.project} names an account ${name} too; the project file's wins\n`);
  setExit(Exit.OK);
}

function settingsText(settings: Record<string, unknown>): string {
  const parts = Object.entries(settings).map(
    ([k, v]) => `${k}=${typeof v === "string" ? v : printable(JSON.stringify(v))}`,
  );
  return parts.length > 0 ? parts.join(" ") : "-";
}

/** What the SETTINGS column adds after an account's settings. */
function settingsNote(a: AccountListing & { shadowed: boolean }): string {
  const notes = [
    a.check.status === "changed" ? `(${a.check.settings.join(", ")} changed outside musicsync)` : null,
    a.check.status === "not_sealed" ? "(not sealed: stored by an older musicsync)" : null,
    a.shadowed ? "(the project file's account of this name wins)" : null,
  ].filter((n) => n !== null);
  return notes.length > 0 ? `  ${notes.join(" ")}` : "";
}

function listText(accounts: readonly (AccountListing & { shadowed: boolean })[]): string {
  if (accounts.length === 0) return "No stored accounts.\n";
  const rows = accounts.map((a) => [
    printable(a.name),
    a.credential,
    a.keyId ?? "unreadable",
    settingsText(a.settings) + settingsNote(a),
  ]);
  const head = ["NAME", "CREDENTIAL", "KEY", "SETTINGS"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `${r.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c)).join("  ")}\n`;
  return [head, ...rows].map(line).join("");
}

/**
 * On stderr: each account whose settings do not match their sealed copy (it is not used until
 * resealed), and once, why the settings could not be checked.
 */
function listWarnings(io: CliIo, accounts: readonly AccountListing[]): void {
  const unchecked = new Set<string>();
  for (const a of accounts) {
    const refused = settingsRefusal(printable(a.name), a.check);
    if (refused !== null) io.stderr.write(`warning: ${refused}\n`);
    if (a.check.status === "unchecked") unchecked.add(printable(a.check.reason, Number.POSITIVE_INFINITY));
  }
  for (const why of unchecked)
    io.stderr.write(`warning: settings not checked against their sealed copy: ${why}\n`);
}

export async function list(run: CommandRun): Promise<void> {
  const { io, g, setExit } = run;
  const { project, url } = await whereStored(run);
  const found = stateMayExist(url) ? await withState(url, (state) => listAccounts(state, io.env)) : [];
  const accounts = found.map((a) => ({
    ...a,
    shadowed: !!project && Object.hasOwn(project.accounts, a.name),
  }));
  if (g.json) {
    const shown = accounts.map((a) => ({
      ...a,
      createdAt: new Date(a.createdAt).toISOString(),
      updatedAt: new Date(a.updatedAt).toISOString(),
    }));
    io.stdout.write(`${JSON.stringify({ accounts: shown }, null, 2)}\n`);
  } else io.stdout.write(listText(accounts));
  listWarnings(io, accounts);
  setExit(Exit.OK);
}

/** `accounts reseal <name>`: seals the settings the row holds now (see resealAccount). */
export async function reseal(run: CommandRun, name: string): Promise<void> {
  const { io, setExit } = run;
  checkAccountName(name);
  const { url } = await whereStored(run);
  const done = stateMayExist(url)
    ? await withState(url, (state) => resealAccount(state, name, Date.now(), io.env))
    : null;
  if (done === null) throw new CliError(`no stored account ${name}`);
  const { credential: _credential, ...settings } = done.settings;
  io.stdout.write(`Account ${name} resealed with its settings: ${settingsText(shownSettings(settings))}\n`);
  setExit(Exit.OK);
}

export async function remove(run: CommandRun, name: string): Promise<void> {
  const { io, setExit } = run;
  checkAccountName(name);
  const { url } = await whereStored(run);
  const removed = stateMayExist(url) && (await withState(url, (state) => removeAccount(state, name)));
  io.stdout.write(removed ? `Account ${name} removed.\n` : `No stored account ${name}.\n`);
  setExit(removed ? Exit.OK : Exit.ERROR);
}

export async function key(run: CommandRun, id: boolean): Promise<void> {
  const { io, g, setExit } = run;
  if (id) {
    const k = accountsKeyFrom(io.env, "there is no key whose id to print");
    io.stdout.write(g.json ? `${JSON.stringify({ keyId: k.id })}\n` : `${k.id}\n`);
  } else {
    const fresh = newAccountsKey();
    io.stdout.write(g.json ? `${JSON.stringify({ key: fresh })}\n` : `${fresh}\n`);
    if (!g.json && io.stdout.isTTY)
      io.stderr.write(`Keep it safe and set it as ${ACCOUNTS_KEY_VARIABLE} wherever musicsync runs.\n`);
  }
  setExit(Exit.OK);
}

/**
 * The project file as every command that runs or reports recipes sees it: its accounts and the
 * state's stored ones (the one place they are merged; see projectWithStoredAccounts).
 */
export async function loadProjectFor(run: CommandRun): Promise<Project> {
  return projectWithStoredAccounts(run, await loadProject(run.g.project, run.io));
}

/**
 * The state a command opened early, to read its stored accounts, handed to the command's run
 * (withEnv) instead of opened a second time: each opening of a SQLite state costs its pragmas, the
 * migrations' check and closing abandoned runs, and each closing its checkpoint. Whoever does not
 * take it releases it.
 */
export class OpenedState {
  private done = false;

  constructor(
    private readonly url: string,
    private readonly state: EngineState,
  ) {}

  /** The state, when the run opens this same URL; the run closes it from then on. */
  take(url: string): EngineState | undefined {
    if (this.done || url !== this.url) return undefined;
    this.done = true;
    return this.state;
  }

  /** Closes the state unless a run took it. */
  async release(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.state.close();
  }
}

/**
 * loadProjectFor, keeping the state it read the stored accounts from open for the run (null when
 * there was no state to read yet). The caller releases it when done, taken or not.
 */
export async function loadProjectKeepingState(
  run: CommandRun,
): Promise<{ project: Project; opened: OpenedState | null }> {
  const project = await loadProject(run.g.project, run.io);
  const kept: { opened?: OpenedState } = {};
  const keep = (url: string): StoredAccountsReader => {
    const state = openState(url);
    kept.opened = new OpenedState(url, state);
    // Closed by the caller's release (or the run that takes it), not once the accounts are read.
    return { storedAccounts: () => state.storedAccounts(), close: async () => {} };
  };
  try {
    const merged = await mergeStoredAccounts(
      project,
      stateFileOf(run.g, project),
      run.io.env,
      skippedAccount(run),
      keep,
    );
    return { project: merged, opened: kept.opened ?? null };
  } catch (e) {
    await kept.opened?.release();
    throw e;
  }
}

function skippedAccount(run: CommandRun): (name: string, error: Error) => void {
  return (name, e) => {
    run.io.stderr.write(`warning: stored account ${name} left out: ${e.message}\n`);
  };
}

/**
 * The project with the state's stored accounts merged in (see withStoredAccounts: the project
 * file's account of a name wins). Called before the recipes are loaded, as their `account:` is
 * checked against the project's accounts. A stored account that cannot be unsealed is left out
 * with a warning, so the others still run.
 */
export async function projectWithStoredAccounts(run: CommandRun, project: Project): Promise<Project> {
  return mergeStoredAccounts(project, stateFileOf(run.g, project), run.io.env, skippedAccount(run));
}

/** Where stored accounts are read from: the state as commands open it, or `doctor`'s read-only view. */
export type StoredAccountsReader = Pick<AccountStore, "storedAccounts"> & { close(): Promise<void> };

/** projectWithStoredAccounts for a state URL (`doctor` has no CommandRun, and opens it its own way). */
export async function mergeStoredAccounts(
  project: Project,
  url: string,
  env: Environment,
  onSkip: (name: string, error: Error) => void,
  open: (url: string) => StoredAccountsReader = openState,
): Promise<Project> {
  if (!stateMayExist(url)) return project;
  const state = open(url);
  try {
    return withDefaultAccount(project, await withStoredAccounts(project, state, env, onSkip));
  } finally {
    await state.close();
  }
}

/**
 * A project file naming no accounts and no default: the built-in default ("default") falls back
 * to the first stored account, as a file's own first account would be the obvious one to use.
 */
function withDefaultAccount(file: Project, merged: Project): Project {
  const names = Object.keys(merged.accounts);
  const account = merged.defaults.account;
  const builtIn = Object.keys(file.accounts).length === 0 && account === BUILT_IN_DEFAULTS.account;
  if (!builtIn || Object.hasOwn(merged.accounts, account) || names.length === 0) return merged;
  return Object.freeze({ ...merged, defaults: Object.freeze({ ...merged.defaults, account: names[0]! }) });
}
