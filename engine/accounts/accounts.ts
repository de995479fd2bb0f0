/**
 * Accounts kept in the state database (`musicsync accounts`, docs/ENGINE.md#credentials): the settings in the clear,
 * the credentials sealed (seal.ts), so that a worker on any machine with the key can serve any
 * account. `withStoredAccounts` hands them to the rest of the engine as if the project file named
 * them, the credentials inline, so the environment (engine/run/env.ts) makes clients from them as
 * it does from `auth: ${VAR}`.
 */
import { authTextKind } from "../../shared/auth-text.js";
import { isDroppedHeader, MusicClient, parseCookieHeader, parseHeaderLines } from "../../src/index.js";
import { engineScrubber } from "../output/scrub.js";
import type { Environment } from "../recipe/env.js";
import type { Account, Project } from "../recipe/types.js";
import { ACCOUNT_PATTERNS, NAME_RULE } from "../recipe/vocabulary.js";
import type { AccountStore, StoredAccount } from "../state/types.js";
import {
  type AccountsKey,
  accountsKeyFrom,
  HOW_TO_MAKE,
  SealError,
  seal,
  sealedKeyId,
  sealedWithRemedy,
} from "./seal.js";
import {
  checkStoredSettings,
  type SealedCredentials,
  type SettingsCheck,
  sealedCopy,
  settingsCheck,
  settingsRefusal,
  shownSettings,
  withoutUserinfo,
} from "./sealed-settings.js";
import { isServiceTokenRow } from "./service-token.js";

/** An account's settings and credentials as `accounts add` takes them (the project file's names). */
export interface AccountInput {
  /** Browser headers or an OAuth token: the text itself (a file's content), never a path. */
  auth?: string | null;
  /** An OAuth token's JSON (the alternative to `auth`; needs `oauth_client`). */
  token?: string | null;
  oauth_client?: { id: string; secret: string } | null;
  brand_account?: string | null;
  language?: string | null;
  location?: string | null;
  base_url?: string | null;
}

/** A stored account as `accounts list` shows it: no credential, only which key sealed it. */
export interface AccountListing {
  name: string;
  /** The setting the credentials stand in for. */
  credential: "auth" | "token";
  /** As stored in the clear, a URL's userinfo masked (`https://***@host`). */
  settings: Record<string, unknown>;
  /** Whether they match the copy sealed with the credentials (checked only with the key). */
  check: SettingsCheck;
  /** The key the credentials were sealed with; null when the sealed text cannot be read. */
  keyId: string | null;
  createdAt: number;
  updatedAt: number;
}

/** An account that cannot be stored as given; the message names the setting, never a credential. */
export class AccountInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AccountInputError";
  }
}

// The project file's own rules (engine/recipe/schema.ts), so a stored account is one the file could name.
const NAME_PATTERN = new RegExp(NAME_RULE.pattern);

/** Refuses a name the project file would refuse, before anything is read or written. */
export function checkAccountName(name: string): void {
  if (NAME_PATTERN.test(name) && name.length <= NAME_RULE.maxLength) return;
  const shown = name.length <= NAME_RULE.maxLength ? `"${name}"` : `of ${name.length} characters`;
  throw new AccountInputError(
    `the account name ${shown} is not allowed: letters, digits and _ . - (. and - not first), at most ` +
      `${NAME_RULE.maxLength} characters, as in musicsync.yaml`,
  );
}

/** The settings in the clear, checked as the project file's schema checks them. */
function settingsOf(a: AccountInput, credential: "auth" | "token"): Record<string, unknown> {
  const patterns = {
    brand_account: ACCOUNT_PATTERNS.brand_account,
    location: ACCOUNT_PATTERNS.location,
    base_url: ACCOUNT_PATTERNS.base_url,
  } as const;
  // Stored in the clear and shown by `accounts list`: a password in the URL would be neither sealed nor hidden.
  if (a.base_url != null && withoutUserinfo(a.base_url) !== a.base_url)
    throw new AccountInputError(
      `base_url "${withoutUserinfo(a.base_url)}" holds a user name or password: give the URL without them`,
    );
  for (const [setting, pattern] of Object.entries(patterns)) {
    const value = a[setting as keyof typeof patterns];
    if (value != null && !new RegExp(pattern).test(value))
      throw new AccountInputError(`${setting} "${value}" does not match ${pattern}`);
  }
  if (a.language != null && a.language.trim() === "") throw new AccountInputError("language is empty");
  const settings: Record<string, unknown> = { credential };
  for (const key of ["base_url", "language", "location", "brand_account"] as const) {
    if (a[key] != null) settings[key] = a[key];
  }
  if (a.oauth_client) settings.oauth_client = { id: a.oauth_client.id };
  return settings;
}

/**
 * Fields of a credentials text that hold no secret: the request headers a browser sends beside its
 * cookie (those the client drops, `sec-*`, too) and an OAuth token's metadata. Their values — the
 * service's origin, a user agent, `application/json`, a scope URL — stand in ordinary text as well:
 * taken for secrets, they cut host names out of messages (`getaddrinfo ENOTFOUND [redacted]`, issue
 * 22). Every field not named here is taken for a secret.
 */
const PUBLIC_FIELDS: ReadonlySet<string> = new Set([
  "accept",
  "accept-language",
  "content-type",
  "content-encoding",
  "origin",
  "x-origin",
  "referer",
  "user-agent",
  "x-goog-authuser",
  "x-youtube-client-name",
  "x-youtube-client-version",
  "scope",
  "token_type",
  "expires_at",
  "expires_in",
]);

function isPublicField(name: string): boolean {
  const lower = name.toLowerCase();
  return PUBLIC_FIELDS.has(lower) || isDroppedHeader(lower);
}

/** The string values of the fields that may hold a secret, nested ones too; each cookie's value. */
function secretFieldValues(fields: Record<string, unknown>, into: Set<string>): void {
  for (const [name, value] of Object.entries(fields)) {
    if (isPublicField(name)) continue;
    if (typeof value === "object" && value !== null)
      secretFieldValues(value as Record<string, unknown>, into);
    if (typeof value !== "string") continue;
    into.add(value);
    into.add(value.trim());
    if (name.toLowerCase() === "cookie") for (const v of parseCookieHeader(value).values()) into.add(v);
  }
}

/**
 * Every secret value of a credentials text: each header or JSON value but the public ones above,
 * each cookie's value (SAPISID…). A text that does not parse is a secret as a whole. The scrubber
 * knows them all before anything can print one.
 */
export function credentialSecretsOf(text: string): string[] {
  const values = new Set<string>();
  let fields: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = authTextKind(text) === "json" ? JSON.parse(text) : parseHeaderLines(text);
    if (typeof parsed === "object" && parsed !== null) fields = parsed as Record<string, unknown>;
  } catch {
    // Unparsable: the whole text is the secret.
  }
  if (fields !== null) secretFieldValues(fields, values);
  if (values.size === 0) values.add(text).add(text.trim());
  return [...values].filter((v) => v.length >= 8);
}

/** The one credential of the input, checked to be credentials a client can be made from. */
function credentialOf(name: string, a: AccountInput): { setting: "auth" | "token"; text: string } {
  if ((a.auth == null) === (a.token == null))
    throw new AccountInputError(`account "${name}": give either auth or token (exactly one)`);
  const setting = a.auth != null ? "auth" : "token";
  const text = (a.auth ?? a.token ?? "").trim();
  engineScrubber.addSecrets(credentialSecretsOf(text));
  if (text === "" || authTextKind(text) === "path") {
    throw new AccountInputError(
      `account "${name}": the ${setting} given is not credentials (browser headers or an OAuth token, as ` +
        "JSON or header text, e.g. a file made by `musicapi browser` or `musicapi oauth`); it is not shown",
    );
  }
  if (setting === "token" && !a.oauth_client)
    throw new AccountInputError(`account "${name}": an OAuth token needs oauth_client (id and secret)`);
  if (a.oauth_client && (a.oauth_client.id.trim() === "" || a.oauth_client.secret.trim() === ""))
    throw new AccountInputError(`account "${name}": oauth_client needs both an id and a secret`);
  if (a.oauth_client) engineScrubber.addSecrets([a.oauth_client.secret]);
  clientCheck(name, setting, text, a);
  return { setting, text };
}

/** A client made from the credentials (no request): what it refuses is refused before storing. */
function clientCheck(name: string, setting: string, text: string, a: AccountInput): void {
  try {
    const made = new MusicClient({
      auth: text,
      dispatcher: false,
      ...(a.oauth_client
        ? { oauthCredentials: { clientId: a.oauth_client.id, clientSecret: a.oauth_client.secret } }
        : {}),
    });
    engineScrubber.addClient(
      (value) => made.redact(value),
      () => made.secretIndex(),
    );
  } catch (e) {
    // The client's messages never quote a credential (and the scrubber knows them by now).
    throw new AccountInputError(
      `account "${name}": the ${setting} given cannot be used: ${(e as Error).message}`,
    );
  }
}

/**
 * The account checked (name, settings, credentials) and its credentials sealed under the
 * environment's key, ready to store; throws before anything is written when any of it is refused.
 */
export function sealAccount(
  name: string,
  account: AccountInput,
  now: number,
  env: Environment,
  /** The accounts stored already: without a key, the one that sealed them is what to set. */
  others: readonly StoredAccount[] = [],
): StoredAccount {
  checkAccountName(name);
  const { setting, text } = credentialOf(name, account);
  const settings = settingsOf(account, setting);
  const sealedBy = sealingKeyIds(others.filter((a) => a.name !== name));
  const remedy = sealedBy.length > 0 ? sealedWithRemedy(sealedBy) : HOW_TO_MAKE;
  const key = accountsKeyFrom(env, "it seals the credentials of stored accounts", remedy);
  // The settings are sealed too: where the credentials are sent (base_url…) must not be changeable
  // by whoever can write the database without the key (unsealedAccount checks the clear copy).
  const sealed: SealedCredentials = { [setting]: text, settings };
  if (account.oauth_client) sealed.oauth_client_secret = account.oauth_client.secret;
  return { name, settings, sealed: seal(JSON.stringify(sealed), key, name), createdAt: now, updatedAt: now };
}

/** Stores a sealed account, replacing one of the same name (whose creation time is kept). */
export async function storeAccount(
  state: AccountStore,
  account: StoredAccount,
): Promise<{ replaced: boolean; keyId: string }> {
  const before = await state.storedAccount(account.name);
  await state.saveAccount({ ...account, createdAt: before?.createdAt ?? account.createdAt });
  return { replaced: before !== null, keyId: sealedKeyId(account.sealed, account.name) };
}

/** Checks, seals and stores (or replaces) an account; nothing is written when any of it is refused. */
export async function addAccount(
  state: AccountStore,
  name: string,
  account: AccountInput,
  now: number,
  env: Environment,
): Promise<{ replaced: boolean; keyId: string }> {
  return storeAccount(state, sealAccount(name, account, now, env, await state.storedAccounts()));
}

function listingOf(a: StoredAccount, key: AccountsKey | SealError): AccountListing {
  let keyId: string | null = null;
  try {
    keyId = sealedKeyId(a.sealed, a.name);
  } catch {
    // Shown as unknown: `list` fails on no account.
  }
  const { credential, ...settings } = a.settings;
  return {
    name: a.name,
    credential: credential === "token" ? "token" : "auth",
    settings: shownSettings(settings),
    check: checkStoredSettings(a, key),
    keyId,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

/**
 * Every stored account's settings and key id. With the key, each row's settings are checked against
 * their sealed copy (a base_url changed in the database is said); no credential is shown.
 */
export async function listAccounts(state: AccountStore, env: Environment = {}): Promise<AccountListing[]> {
  const stored = personAccounts(await state.storedAccounts());
  const key = keyOrWhyNot(env, "the settings of stored accounts are checked with it", stored);
  return stored.map((a) => listingOf(a, key));
}

/** The stored rows that are accounts: not another service's sign-in kept beside them (service-token.ts). */
export function personAccounts(stored: readonly StoredAccount[]): StoredAccount[] {
  return stored.filter((a) => !isServiceTokenRow(a.name));
}

/** The ids of the keys that sealed these accounts (a damaged text has none). */
export function sealingKeyIds(stored: readonly StoredAccount[]): string[] {
  return stored.flatMap((a) => {
    try {
      return [sealedKeyId(a.sealed, a.name)];
    } catch {
      return [];
    }
  });
}

/** The environment's key to open `stored`, or the SealError that says why there is none to use. */
function keyOrWhyNot(
  env: Environment,
  why: string,
  stored: readonly StoredAccount[],
): AccountsKey | SealError {
  try {
    return accountsKeyFrom(env, why, sealedWithRemedy(sealingKeyIds(stored)));
  } catch (e) {
    if (!(e instanceof SealError)) throw e;
    return e;
  }
}

/**
 * `accounts reseal`: the account's credentials sealed again with its settings as the row holds
 * them now — for a row stored before the settings were sealed, or a change the person made and
 * checked. The settings must still be ones `accounts add` would take.
 */
export async function resealAccount(
  state: AccountStore,
  name: string,
  now: number,
  env: Environment,
): Promise<StoredAccount | null> {
  checkAccountName(name);
  const row = await state.storedAccount(name);
  if (row === null) return null;
  const key = accountsKeyFrom(
    env,
    "it unseals the credentials to seal them again",
    sealedWithRemedy(sealingKeyIds([row])),
  );
  const creds = sealedCopy(row, key);
  const setting = row.settings.credential === "token" ? "token" : "auth";
  const text = creds[setting];
  if (typeof text !== "string" || text === "")
    throw new SealError(`the stored credentials of account "${name}" hold no ${setting}`);
  const s = row.settings;
  const str = (k: string) => (typeof s[k] === "string" ? (s[k] as string) : null);
  const clientId = (s.oauth_client as { id?: unknown } | undefined)?.id;
  const settings = settingsOf(
    {
      base_url: str("base_url"),
      language: str("language"),
      location: str("location"),
      brand_account: str("brand_account"),
      ...(typeof clientId === "string" ? { oauth_client: { id: clientId, secret: "" } } : {}),
    },
    setting,
  );
  const sealed: SealedCredentials = { [setting]: text, settings };
  if (creds.oauth_client_secret) sealed.oauth_client_secret = creds.oauth_client_secret;
  const fresh = { ...row, settings, sealed: seal(JSON.stringify(sealed), key, name), updatedAt: now };
  await state.saveAccount(fresh);
  return fresh;
}

/** False when no account of that name was stored. */
export async function removeAccount(state: AccountStore, name: string): Promise<boolean> {
  checkAccountName(name);
  return state.removeAccount(name);
}

const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** A stored account as the project file's Account, its credentials unsealed inline. */
export function unsealedAccount(a: StoredAccount, key: AccountsKey): Account {
  const creds = sealedCopy(a, key);
  const refused = settingsRefusal(a.name, settingsCheck(a.settings, creds));
  if (refused !== null) throw new SealError(refused);
  const s = a.settings;
  const inline = [creds.auth, creds.token, creds.oauth_client_secret].filter((v): v is string => !!v);
  engineScrubber.addSecrets(inline.flatMap(credentialSecretsOf));
  const clientId = text((s.oauth_client as { id?: unknown } | undefined)?.id);
  const secret = text(creds.oauth_client_secret);
  return {
    auth: text(creds.auth),
    token: text(creds.token),
    oauth_client: clientId && secret ? { id: clientId, secret } : null,
    brand_account: text(s.brand_account),
    // The project file's default (engine/recipe/normalise.ts).
    language: text(s.language) ?? "en",
    location: text(s.location),
    base_url: text(s.base_url),
    emulator: null,
  };
}

/**
 * The project with the stored accounts added. An account the project file names wins over a
 * stored one of the same name: the file is what the person in front of it reads and edits, and a
 * stored account must never take over an account the file already configures (its stored
 * credentials are then not even unsealed). No key is needed while nothing stored is added.
 *
 * An account that cannot be unsealed (no key, another key, an altered text) throws a SealError; with
 * `onSkip` it is left out and reported there instead, so the others still run (a recipe of the
 * account left out then fails as naming an unknown account).
 */
export async function withStoredAccounts(
  project: Project,
  state: Pick<AccountStore, "storedAccounts">,
  env: Environment,
  onSkip?: (name: string, error: SealError) => void,
): Promise<Project> {
  const stored = personAccounts(await state.storedAccounts()).filter(
    (a) => !Object.hasOwn(project.accounts, a.name),
  );
  if (stored.length === 0) return project;
  const added: Record<string, Account> = {};
  const key = keyOrWhyNot(env, "the state holds accounts whose credentials are sealed with it", stored);
  for (const a of stored) {
    try {
      if (key instanceof SealError) throw key;
      added[a.name] = Object.freeze(unsealedAccount(a, key));
    } catch (e) {
      if (!(e instanceof SealError) || !onSkip) throw e;
      onSkip(a.name, e);
    }
  }
  return Object.freeze({ ...project, accounts: Object.freeze({ ...project.accounts, ...added }) });
}
