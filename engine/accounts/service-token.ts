/**
 * Another music service's sign-in (a person's Spotify token) kept in the state beside the stored
 * accounts and sealed with the same key (MUSICSYNC_ACCOUNTS_KEY), so that workers on other
 * machines read it and a refresh made on any of them is kept for all (docs/spotify-sign-in.md).
 *
 * It is a row of the accounts table under a reserved name, `service:<service>`, rather than a
 * table of its own: it then travels with the accounts (a backup, a copy of the database, the one
 * key that opens them) and needs no schema change in either database. The project file's account
 * names cannot hold ":", so no account can take the name, and the name is bound into the seal, so
 * a sealed text copied into another row does not open. `accounts list`, the merge of stored
 * accounts into the project and the workers skip these rows (isServiceTokenRow).
 */
import type { Environment } from "../recipe/env.js";
import type { AccountStore, StoredAccount } from "../state/types.js";
import {
  type AccountsKey,
  accountsKeyFrom,
  HOW_TO_MAKE,
  seal,
  sealedKeyId,
  sealedWithRemedy,
  unseal,
} from "./seal.js";

const PREFIX = "service:";

/** The reserved row name of a service's sign-in. */
export function serviceTokenRowName(service: string): string {
  return `${PREFIX}${service}`;
}

/** Whether a stored row is a service's sign-in, not an account (skipped wherever accounts are listed or used). */
export function isServiceTokenRow(name: string): boolean {
  return name.startsWith(PREFIX);
}

/** The key that seals or opens the row; without one, the message says what to set. */
function keyFor(env: Environment, why: string, row: StoredAccount | null): AccountsKey {
  let sealedBy: string | null = null;
  try {
    sealedBy = row ? sealedKeyId(row.sealed, row.name) : null;
  } catch {
    // A damaged row: unseal names it below.
  }
  return accountsKeyFrom(env, why, sealedBy ? sealedWithRemedy([sealedBy]) : HOW_TO_MAKE);
}

/**
 * Seals `text` (the sign-in as its service's token file holds it) into the service's row,
 * replacing the one there. Throws a SealError before writing when the key is missing or bad.
 */
export async function storeServiceToken(
  state: Pick<AccountStore, "storedAccount" | "saveAccount">,
  service: string,
  text: string,
  env: Environment,
  now: number,
): Promise<{ keyId: string; replaced: boolean }> {
  const name = serviceTokenRowName(service);
  const key = keyFor(env, `it seals the ${service} sign-in kept in the state`, null);
  const before = await state.storedAccount(name);
  await state.saveAccount({
    name,
    settings: { credential: "service-token", service },
    sealed: seal(text, key, name),
    createdAt: before?.createdAt ?? now,
    updatedAt: now,
  });
  return { keyId: key.id, replaced: before !== null };
}

/**
 * The service's sign-in as sealed in the state, unsealed; null when the state holds none. The
 * caller parses it and tells the engine's scrubber its secrets. Throws a SealError (naming the
 * key, never the text) when it cannot be opened.
 */
export async function storedServiceToken(
  state: Pick<AccountStore, "storedAccount">,
  service: string,
  env: Environment,
): Promise<string | null> {
  const row = await state.storedAccount(serviceTokenRowName(service));
  if (row === null) return null;
  const key = keyFor(env, `the state holds the ${service} sign-in sealed with it`, row);
  return unseal(row.sealed, key, row.name);
}
