/**
 * Whether a recipe's `account:` names an account. The project file's accounts are known wherever
 * recipes load; the stored ones (`musicsync accounts add`) only where the state is read. `validate`
 * reads no state (a recipe repository's CI has neither the database nor the key), so there a name
 * the file lacks is a warning when a stored account could carry it, and an error when none could:
 * a name no account may have, a state that keeps nothing, or a near miss of a file account (a typo
 * is far likelier than a stored account one letter away from it). Pure.
 */
import type { RecipeInput } from "./input.js";
import { nearest } from "./suggest.js";
import { NAME_RULE } from "./vocabulary.js";
import type { PathIssue } from "./yaml-source.js";

export interface AccountScope {
  /** The accounts known for sure: the project file's, and the stored ones when they were read. */
  known: ReadonlySet<string>;
  /** The project's default account, used when the recipe names none. */
  defaultAccount?: string;
  /**
   * The state was not read, and it may hold accounts (validate): a name outside `known` may still
   * be a stored account when the recipe runs.
   */
  mayBeStored?: boolean;
}

// A stored account's name obeys the project file's rule for account names (engine/accounts).
const STORABLE = new RegExp(NAME_RULE.pattern);

function storable(name: string): boolean {
  return STORABLE.test(name) && name.length <= NAME_RULE.maxLength;
}

/** The recipe's account problem: an error, a warning (validate, a name left to the state), or none. */
export function accountFinding(
  recipe: RecipeInput,
  scope: AccountScope,
): { error: PathIssue } | { warning: PathIssue } | null {
  const account = recipe.account ?? scope.defaultAccount ?? "default";
  if (scope.known.has(account)) return null;
  const path = recipe.account !== undefined ? ["account"] : ["id"];
  const near = nearest(account, [...scope.known]);
  const typo = near !== null && near !== account;
  if (scope.mayBeStored && storable(account) && !typo) {
    // The default of a file naming no accounts is resolved from the state (cli/musicsync/accounts.ts).
    if (recipe.account === undefined) return null;
    const message =
      `"${account}" is not in the project file: it must be a stored account when the recipe runs ` +
      "(musicsync accounts list; plan and sync refuse it otherwise)";
    return { warning: { path, message } };
  }
  const why = scope.mayBeStored && !storable(account) ? "; no stored account can have this name" : "";
  return { error: { path, message: unknownMessage(account, scope, typo ? near : null) + why } };
}

function unknownMessage(account: string, scope: AccountScope, near: string | null): string {
  const known = [...scope.known];
  if (near !== null)
    return `unknown account "${account}", did you mean "${near}"? (accounts: ${known.join(", ")})`;
  if (known.length > 0) return `unknown account "${account}" (accounts: ${known.join(", ")})`;
  return `unknown account "${account}": neither the project file nor the stored accounts that could be opened name it (musicsync accounts add ${account})`;
}
