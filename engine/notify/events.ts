/**
 * What a notification says: one event, as data. Built here from what the daemon and `sync` already
 * know (an attempt's outcome, a plan, an account's health), never from the auth settings: no event
 * holds anything read from an auth file but its expiry time.
 */
import type { Plan } from "../plan/types.js";
import type { NotifyEventKind } from "../recipe/types.js";

export type { NotifyEventKind };

export interface NotifyEvent {
  event: NotifyEventKind;
  /** When it happened, ISO 8601. */
  at: string;
  /** One short line (ntfy's title, a chat message's first line). */
  title: string;
  /** What happened and what to do about it. */
  message: string;
  recipe: string | null;
  account: string | null;
  run: number | null;
  /** Counts and reasons particular to the event. */
  details: Record<string, string | number | boolean | null>;
}

interface Where {
  recipe?: string | null;
  account?: string | null;
  run?: number | null;
  at: number;
}

function make(
  event: NotifyEventKind,
  where: Where,
  title: string,
  message: string,
  details: NotifyEvent["details"] = {},
): NotifyEvent {
  return {
    event,
    at: new Date(where.at).toISOString(),
    title,
    message,
    recipe: where.recipe ?? null,
    account: where.account ?? null,
    run: where.run ?? null,
    details,
  };
}

export function runFailed(where: Where, outcome: string, error: string | null): NotifyEvent {
  const why = error ?? outcome;
  return make(
    "run_failed",
    where,
    `musicsync: ${where.recipe ?? "a recipe"} ${outcome === "partial" ? "applied only in part" : "failed"}`,
    `Recipe ${where.recipe ?? "?"} (account ${where.account ?? "?"}): ${why}`,
    { outcome, error },
  );
}

export function recipeSuspended(where: Where, reason: string | null): NotifyEvent {
  const id = where.recipe ?? "?";
  return make(
    "recipe_suspended",
    where,
    `musicsync: ${id} suspended`,
    `Recipe ${id} no longer runs: ${reason ?? "too many failures"}. Lift it with: musicsync resume ${id}`,
    { reason },
  );
}

export function credentialsExpired(where: Where, reason: string | null): NotifyEvent {
  const account = where.account ?? "?";
  return make(
    "credentials_expired",
    where,
    `musicsync: credentials of ${account} expired`,
    `The service refused the credentials of account ${account}; its recipes are suspended. Renew them (musicapi browser or musicapi oauth), then: musicsync resume ${account}`,
    { reason },
  );
}

export function credentialsExpiring(where: Where, expiresAt: number): NotifyEvent {
  const account = where.account ?? "?";
  const when = new Date(expiresAt).toISOString();
  return make(
    "credentials_expiring",
    where,
    `musicsync: credentials of ${account} expire soon`,
    `The credentials of account ${account} expire at ${when} and cannot be refreshed; renew them before then.`,
    { expiresAt: when },
  );
}

export function approvalPending(where: Where, reason: string | null): NotifyEvent {
  const id = where.recipe ?? "?";
  const run = where.run !== null && where.run !== undefined ? String(where.run) : "<run>";
  return make(
    "approval_pending",
    where,
    `musicsync: ${id} waits for approval`,
    `A plan of recipe ${id} is held for approval${reason ? ` (${reason})` : ""}. Apply it with: musicsync approve ${run}`,
    { reason },
  );
}

/** Rows the person removed by hand that the plan adopts (`on_drift: adopt`: kept away from now on). */
export function driftFound(where: Where, plan: Plan): NotifyEvent | null {
  const adopted = plan.tombstones.length;
  if (adopted === 0) return null;
  const id = where.recipe ?? plan.recipe.id;
  return make(
    "drift_found",
    where,
    `musicsync: ${id} changed outside the engine`,
    `${adopted} row${adopted === 1 ? " was" : "s were"} removed from the target of ${id} outside the engine; adopted (not re-added).`,
    { adopted, policy: "adopt" },
  );
}

/** A summary of what a run wrote; null when it wrote nothing. */
export function applied(where: Where, plan: Plan, outcome: string): NotifyEvent | null {
  const s = plan.summary;
  if (plan.actions.length === 0) return null;
  const parts = [
    s.create ? `${s.create} created` : "",
    s.add ? `${s.add} added` : "",
    s.remove ? `${s.remove} removed` : "",
    s.move ? `${s.move} moved` : "",
    s.rate ? `${s.rate} rated` : "",
    s.edit ? `${s.edit} edited` : "",
  ].filter((p) => p !== "");
  const id = where.recipe ?? plan.recipe.id;
  return make(
    "applied",
    where,
    `musicsync: ${id} applied`,
    `Recipe ${id}: ${parts.join(", ") || "changes"} (${outcome}).`,
    { outcome, add: s.add, remove: s.remove, move: s.move, rate: s.rate, create: s.create, edit: s.edit },
  );
}
