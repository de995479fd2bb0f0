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

/** The sealed row of `text`, ready to be written. */
function sealedRow(
  service: string,
  text: string,
  env: Environment,
  now: number,
  createdAt: number | null,
): { row: StoredAccount; keyId: string } {
  const name = serviceTokenRowName(service);
  const key = keyFor(env, `it seals the ${service} sign-in kept in the state`, null);
  const row = {
    name,
    settings: { credential: "service-token", service },
    sealed: seal(text, key, name),
    createdAt: createdAt ?? now,
    updatedAt: now,
  };
  return { row, keyId: key.id };
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
  const before = await state.storedAccount(serviceTokenRowName(service));
  const { row, keyId } = sealedRow(service, text, env, now, before?.createdAt ?? null);
  await state.saveAccount(row);
  return { keyId, replaced: before !== null };
}

/** A service's sign-in as read from the state: the text unsealed, and the row's sealed text. */
export interface StoredServiceToken {
  text: string;
  /** What a write-back compares: the row is replaced only while it still holds this. */
  sealed: string;
  createdAt: number;
}

/**
 * Seals `text` into the service's row only while the row still holds `read` (a renewed token
 * written back): "removed" when the sign-in was removed meanwhile (`auth spotify --sign-out`),
 * which the write-back must not undo; "replaced" when another process wrote it meanwhile.
 */
export async function swapServiceToken(
  state: Pick<AccountStore, "storedAccount" | "swapAccount">,
  service: string,
  read: StoredServiceToken,
  text: string,
  env: Environment,
  now: number,
): Promise<{ kind: "kept"; stored: StoredServiceToken } | { kind: "removed" | "replaced" }> {
  const { row } = sealedRow(service, text, env, now, read.createdAt);
  if (await state.swapAccount(row, read.sealed))
    return { kind: "kept", stored: { text, sealed: row.sealed, createdAt: row.createdAt } };
  const left = await state.storedAccount(row.name);
  return { kind: left === null ? "removed" : "replaced" };
}

/** Removes the service's sign-in from the state (no key needed); false when there was none. */
export function removeServiceToken(
  state: Pick<AccountStore, "removeAccount">,
  service: string,
): Promise<boolean> {
  return state.removeAccount(serviceTokenRowName(service));
}

/**
 * The service's sign-in as sealed in the state, unsealed; null when the state holds none. The
 * caller parses it and tells the engine's scrubber its secrets. Throws a SealError (naming the
 * key, never the text) when it cannot be opened.
 */
export async function readServiceToken(
  state: Pick<AccountStore, "storedAccount">,
  service: string,
  env: Environment,
): Promise<StoredServiceToken | null> {
  const row = await state.storedAccount(serviceTokenRowName(service));
  if (row === null) return null;
  const key = keyFor(env, `the state holds the ${service} sign-in sealed with it`, row);
  return { text: unseal(row.sealed, key, row.name), sealed: row.sealed, createdAt: row.createdAt };
}

/** readServiceToken's text alone. */
export async function storedServiceToken(
  state: Pick<AccountStore, "storedAccount">,
  service: string,
  env: Environment,
): Promise<string | null> {
  return (await readServiceToken(state, service, env))?.text ?? null;
}
