/**
 * An account's credential state for its page, judged as `doctor` judges it but without a request:
 * the kind of credentials (read the way the client reads them; a value is never kept), the OAuth
 * expiry, the suspension, and what the last runs reported (the AuthValid condition).
 */
import { dirname, resolve } from "node:path";
import { unresolvedUnder } from "../recipe/deferred-settings.js";
import type { LoadedRecipe, Project } from "../recipe/types.js";
import { credentialsOf } from "../run/credentials.js";
import type { EngineState } from "../state/types.js";

export type CredentialVerdict = "valid" | "expired" | "suspended" | "unknown" | "missing";

export interface AccountData {
  name: string;
  /** `browser headers`, `OAuth token`, `OAuth headers`, `emulator`; null when none or unreadable. */
  kind: string | null;
  verdict: CredentialVerdict;
  /** Why, in a sentence. */
  reason: string;
  expiresAt: string | null;
  brandAccount: string | null;
  suspended: { since: string; reason: string } | null;
  recipes: string[];
}

function judge(
  kind: string | null,
  problem: string | null,
  expired: boolean,
  refused: string | null,
  confirmed: boolean,
): { verdict: CredentialVerdict; reason: string } {
  if (problem !== null) return { verdict: "missing", reason: problem };
  if (expired)
    return { verdict: "expired", reason: "the OAuth access token expired and cannot be refreshed" };
  if (refused !== null) return { verdict: "expired", reason: refused };
  if (confirmed) return { verdict: "valid", reason: "the last run read the library with them" };
  return { verdict: "unknown", reason: `${kind ?? "credentials"} not checked by a run yet` };
}

/** Null when the project has no account of this name. */
export async function accountData(
  project: Project,
  projectFile: string,
  state: EngineState,
  recipes: readonly LoadedRecipe[],
  name: string,
  now: number,
): Promise<AccountData | null> {
  const account = Object.hasOwn(project.accounts, name) ? project.accounts[name] : undefined;
  if (!account) return null;
  let kind: string | null = null;
  let expiresAt: number | null = null;
  let problem: string | null = null;
  // `auth: ${VAR}` with the variable not set for this process: nothing to read (deferred-settings.ts).
  const unset = unresolvedUnder(project, ["accounts", name]).flatMap((u) => u.variables);
  if (unset.length > 0) {
    const [one, is] = unset.length === 1 ? ["variable", "is"] : ["variables", "are"];
    problem = `its settings name the environment ${one} ${unset.join(", ")}, which ${is} not set where the page runs`;
  } else
    try {
      const creds = credentialsOf(name, account, dirname(resolve(projectFile)));
      if (creds === null) problem = "no credentials are set for this account";
      else {
        kind = creds.kind;
        if (creds.kind === "OAuth token") expiresAt = creds.expiresAt;
      }
    } catch {
      // The error names the setting, but a page needs no more than this.
      problem = "the credentials cannot be read; renew them with `musicapi browser` or `musicapi oauth`";
    }
  const mine = recipes.filter((r) => r.recipe.account === name).map((r) => r.recipe.id);
  const auth = (await Promise.all(mine.map((id) => state.conditions(id))))
    .flat()
    .filter((c) => c.type === "AuthValid");
  const refused = auth.find((c) => c.status === "False");
  const health = await state.health(name);
  const expired = expiresAt !== null && expiresAt > 0 && expiresAt * 1000 <= now && !account.oauth_client;
  const judged = judge(
    kind,
    problem,
    expired,
    refused ? `${refused.reason}: ${refused.message}` : null,
    auth.some((c) => c.status === "True"),
  );
  const suspended =
    health.suspendedAt !== null
      ? { since: new Date(health.suspendedAt).toISOString(), reason: health.suspendedReason ?? "" }
      : null;
  return {
    name,
    kind,
    ...(suspended ? { verdict: "suspended" as const, reason: suspended.reason } : judged),
    expiresAt: expiresAt !== null && expiresAt > 0 ? new Date(expiresAt * 1000).toISOString() : null,
    brandAccount: account.brand_account ?? null,
    suspended,
    recipes: mine,
  };
}
