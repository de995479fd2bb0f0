/**
 * "Credentials expiring": an OAuth token file holds its access token's expiry time; read the way
 * `musicsync doctor` reads it (engine/run/credentials.ts: the kind and the time, never a value).
 * A token the client can refresh (the account has its OAuth client) does not really expire, so only
 * one that cannot be refreshed is announced. Browser cookies carry no expiry the engine can read:
 * their end shows as credentials_expired when the service refuses them.
 */
import { dirname, resolve } from "node:path";
import type { Account } from "../recipe/types.js";
import { credentialsOf } from "../run/credentials.js";

export const EXPIRING_WINDOW_MS = 24 * 3_600_000;
/** An account is announced at most this often. */
export const EXPIRY_REMINDER_MS = 24 * 3_600_000;

export interface AccountExpiry {
  /** Milliseconds since the epoch. */
  expiresAt: number;
  refreshable: boolean;
}

/** Whether to say "expiring" now: not yet expired, within the window, and nothing will renew it. */
export function expiringSoon(expiry: AccountExpiry, now: number, windowMs = EXPIRING_WINDOW_MS): boolean {
  return !expiry.refreshable && expiry.expiresAt > now && expiry.expiresAt - now <= windowMs;
}

/** Whether an account last announced at `last` (undefined: never) may be announced again at `now`. */
export function reminderDue(last: number | undefined, now: number, everyMs = EXPIRY_REMINDER_MS): boolean {
  return last === undefined || now - last >= everyMs;
}

/** The account's token expiry, or null (no token file, an emulator, or one that cannot be read). */
export function accountExpiry(name: string, account: Account, projectFile: string): AccountExpiry | null {
  try {
    const creds = credentialsOf(name, account, dirname(resolve(projectFile)));
    if (creds?.kind !== "OAuth token" || creds.expiresAt <= 0) return null;
    return { expiresAt: creds.expiresAt * 1000, refreshable: account.oauth_client !== null };
  } catch {
    // Unreadable credentials are the run's to report (as an error naming the setting).
    return null;
  }
}
