/** The signed-in account of a request, and the library state renderers show for it. */
import type { ApiContext } from "../context.js";
import { unauthenticated } from "../errors.js";
import type { AccountRow } from "../store/rows.js";
import { marksFor, type PageMarks } from "./marks.js";

export const accountId = (ctx: ApiContext): number | null => ctx.viewer?.account.id ?? null;

/**
 * Library and account pages need a signed-in account. Without credentials the service answers 401
 * in its error format (clients check auth before sending, so only raw callers see this).
 */
export function requireAccount(ctx: ApiContext): AccountRow {
  if (!ctx.viewer) throw unauthenticated();
  return ctx.viewer.account;
}

export const marks = (ctx: ApiContext): PageMarks => marksFor(ctx.state.store, accountId(ctx));

export function str(ctx: ApiContext, key: string): string | null {
  const v = ctx.body[key];
  return typeof v === "string" ? v : null;
}
