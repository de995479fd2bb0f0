/**
 * `musicsync doctor`, per account: which kind of credentials it has (browser headers, OAuth token,
 * the embedded emulator), the brand account, the OAuth token's expiry and whether it can be
 * refreshed, then whether the credentials read the library. No line quotes a credential: a
 * setting's value is shown only when it is clearly a file's path, and the client's own errors are
 * scrubbed of what it was given.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { EngineClient } from "../../engine/apply/client.js";
import type { Account } from "../../engine/recipe/types.js";
import { type Credentials, credentialsOf } from "../../engine/run/credentials.js";
import { authTextKind } from "../../shared/auth-text.js";
import { AuthError } from "../../src/index.js";
import { type Check, error, ok } from "./doctor-check.js";
import { RENEW } from "./next-steps.js";

/** The OAuth access token's expiry: valid, expired but refreshable, or expired for good. */
export function oauthExpiry(subject: string, expiresAt: number, canRefresh: boolean, nowMs: number): Check {
  const at = expiresAt > 0 ? new Date(expiresAt * 1000).toISOString() : "an unknown time";
  if (expiresAt * 1000 > nowMs) return ok(subject, `OAuth access token valid until ${at}`);
  if (canRefresh) return ok(subject, `OAuth access token expired at ${at}; it is refreshed on first use`);
  return error(
    subject,
    `OAuth access token expired at ${at} and cannot be refreshed without the OAuth client: add ` +
      "oauth_client (id and secret) to the account, or run `musicapi oauth` again",
  );
}

/**
 * What to do about credentials that cannot be read: a file not made yet is made (renewing is for
 * credentials that were there); anything else is renewed.
 */
function remedy(account: Account, base: string): string {
  const value = account.auth ?? account.token ?? "";
  const file = authTextKind(value) === "path" ? resolve(base, value.trim()) : null;
  if (file === null || existsSync(file)) return RENEW;
  return account.auth
    ? `make one with \`musicapi browser -o ${file}\` (or \`musicapi oauth -o ${file}\`)`
    : `make one with \`musicapi oauth -o ${file}\``;
}

/** The lines about an account's credentials, before any request; `stored`: kept in the state. */
export function credentialChecks(
  name: string,
  account: Account,
  base: string,
  nowMs: number,
  stored = false,
): Check[] {
  const subject = `account ${name}`;
  let creds: Credentials | null;
  try {
    creds = credentialsOf(name, account, base, stored);
  } catch (e) {
    return [error(subject, `${(e as Error).message}; ${remedy(account, base)}`)];
  }
  if (creds === null)
    return [error(subject, "no credentials: give auth (a headers or token file), token, or emulator")];
  const checks: Check[] = [];
  if (creds.kind === "emulator") {
    const e = account.emulator!;
    checks.push(
      ok(subject, `the embedded emulator (account ${e.account}, seed ${e.seed}, database ${e.db})`),
    );
  } else checks.push(ok(subject, `${creds.kind} from ${creds.where}`));
  if (account.brand_account) checks.push(ok(subject, `acts as brand account ${account.brand_account}`));
  if (creds.kind === "OAuth token")
    checks.push(oauthExpiry(subject, creds.expiresAt, account.oauth_client !== null, nowMs));
  return checks;
}

/** One read of the library with the account's client. */
export async function libraryCheck(name: string, client: () => EngineClient): Promise<Check> {
  const subject = `account ${name}`;
  try {
    const playlists = await client().getLibraryPlaylists({ limit: 1 });
    return ok(
      subject,
      `the credentials read the library (${playlists.length > 0 ? "playlists found" : "empty"})`,
    );
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (e instanceof AuthError) return error(subject, `the credentials were refused: ${message}; ${RENEW}`);
    return error(subject, `cannot read the library: ${message}`);
  }
}
