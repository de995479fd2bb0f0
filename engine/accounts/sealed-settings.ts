/**
 * A stored account's settings (base_url, language…) are kept in the clear, so that `accounts list`
 * shows them without the key, and sealed again beside the credentials, so that whoever can write
 * the database but has no key cannot send the credentials elsewhere (a base_url of their own).
 * This module compares the two copies, and says how to show settings without a URL's password.
 */
import { printable } from "../output/printable.js";
import { engineScrubber } from "../output/scrub.js";
import type { StoredAccount } from "../state/types.js";
import { type AccountsKey, SealError, unseal } from "./seal.js";
import { withoutUserinfo } from "./userinfo.js";

/** What the sealed text holds once unsealed. */
export interface SealedCredentials {
  auth?: string;
  token?: string;
  oauth_client_secret?: string;
  /** A copy of the account's settings; absent in rows stored before it was kept. */
  settings?: Record<string, unknown>;
}

/**
 * How the settings in the clear stand to the sealed copy: the same; changed outside musicsync (the
 * names of the settings that differ); not sealed (a row an older musicsync stored); or not checked
 * (no key, another key, a damaged text: `reason` says which).
 */
export type SettingsCheck =
  | { status: "sealed" }
  | { status: "changed"; settings: string[] }
  | { status: "not_sealed" }
  | { status: "unchecked"; reason: string };

/** The sealed text of the row, unsealed and read. */
export function sealedCopy(a: StoredAccount, key: AccountsKey): SealedCredentials {
  const plain = unseal(a.sealed, key, a.name);
  try {
    const creds: unknown = JSON.parse(plain);
    if (typeof creds !== "object" || creds === null) throw new TypeError("not an object");
    return creds as SealedCredentials;
  } catch {
    // Of a shape unknown, the whole text is the secret (known, it holds no host to hide).
    engineScrubber.addSecrets([plain]);
    throw new SealError(`the stored credentials of account "${a.name}" are not in the expected shape`);
  }
}

/** The settings that differ between the row and its sealed copy (pure). */
export function settingsCheck(clear: Record<string, unknown>, sealed: SealedCredentials): SettingsCheck {
  if (sealed.settings === undefined) return { status: "not_sealed" };
  const names = [...new Set([...Object.keys(clear), ...Object.keys(sealed.settings)])];
  const same = (k: string) => JSON.stringify(clear[k]) === JSON.stringify(sealed.settings?.[k]);
  const changed = names
    .filter((k) => !same(k))
    .sort()
    .map((k) => printable(k));
  return changed.length === 0 ? { status: "sealed" } : { status: "changed", settings: changed };
}

/** The row's settings checked against its sealed copy; never throws (a problem is the reason). */
export function checkStoredSettings(a: StoredAccount, key: AccountsKey | SealError): SettingsCheck {
  try {
    if (key instanceof SealError) throw key;
    return settingsCheck(a.settings, sealedCopy(a, key));
  } catch (e) {
    if (!(e instanceof SealError)) throw e;
    return { status: "unchecked", reason: e.message };
  }
}

/**
 * Why an account whose settings do not match their sealed copy is not used, and what to do. A
 * person who made the change (or whose row predates the sealed copy) reseals after checking them.
 */
export function settingsRefusal(name: string, check: SettingsCheck): string | null {
  const reseal = `musicsync accounts reseal ${name}`;
  if (check.status === "changed")
    return (
      `the stored settings of account "${name}" were changed outside musicsync (${check.settings.join(", ")} ` +
      `no longer match the sealed copy): if the change is yours, check it with \`musicsync accounts list\` and ` +
      `run \`${reseal}\`; otherwise add the account again`
    );
  if (check.status === "not_sealed")
    return (
      `the stored settings of account "${name}" were stored by an older musicsync, without a sealed copy: ` +
      `check them with \`musicsync accounts list\`, then run \`${reseal}\``
    );
  return null;
}

export { withoutUserinfo };

/** The settings as `accounts list` shows them: every URL without its userinfo, every text printable. */
export function shownSettings(settings: Record<string, unknown>): Record<string, unknown> {
  const shown = (v: unknown) => (typeof v === "string" ? printable(withoutUserinfo(v)) : v);
  return Object.fromEntries(Object.entries(settings).map(([k, v]) => [printable(k), shown(v)]));
}
