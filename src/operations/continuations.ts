import { type ClassicKind, classicToken, itemToken } from "../parsers/continuation-tokens.js";
import { get, isObject, type JsonObject, type Path } from "../parsers/nav.js";
import type { OperationContext } from "../transport/operation-context.js";

/**
 * Following the service's continuations (docs/PROTOCOL.md#continuations). Two families exist and a page may use
 * either: the classic token on a container (shape A/A'/B), re-sent as query parameters with the
 * first request's body; and the 2025 trailing `continuationItemRenderer` (shape C/C'), sent as the
 * body `{continuation}`.
 */

/** The query string that carries a classic token: both names, as the web client sends them. */
export function ctokenParams(token: string): string {
  return `&ctoken=${token}&continuation=${token}`;
}

const APPENDED: Path = ["onResponseReceivedActions", 0, "appendContinuationItemsAction", "continuationItems"];

export interface ClassicLoop<T> {
  operation: string;
  endpoint: string;
  /** The first request's body, re-sent unchanged with every continuation. */
  body: JsonObject;
  /** Token taken from the first page, or null when it had none. */
  token: string | null;
  /** Key under `continuationContents` (`musicShelfContinuation`, `gridContinuation`, …). */
  type: string;
  /** How many more items to collect; `null` collects everything the service has. */
  limit: number | null;
  kind?: ClassicKind;
  /** Items of one continuation page (the object at `continuationContents.<type>`). */
  parse(page: JsonObject): readonly T[];
}

/** How one continuation family asks for a page and reads it. */
interface Family<P> {
  /** The request for one token: what is posted, and what goes in the query. */
  request(token: string): { body: JsonObject; additionalParams?: string };
  /** The page in a response, or null when the response has none (the end). */
  page(response: unknown): P | null;
  /** The next token a page carries, or null. */
  next(page: P): string | null;
}

/**
 * The loop both families share: fetch the page a token names, parse it, take its next token; stop
 * once `limit` items are collected (whole pages, so possibly more), or when there is no token, no
 * page or an empty page.
 */
async function follow<P, T>(
  ctx: OperationContext,
  loop: { operation: string; endpoint: string; token: string | null; limit: number | null },
  family: Family<P>,
  parse: (page: P) => readonly T[],
): Promise<T[]> {
  const out: T[] = [];
  let token = loop.token;
  while (token !== null && (loop.limit === null || out.length < loop.limit)) {
    const response = await ctx.send({
      operation: loop.operation,
      endpoint: loop.endpoint,
      ...family.request(token),
    });
    const page = family.page(response);
    if (page === null) break;
    const items = parse(page);
    if (items.length === 0) break;
    for (const item of items) out.push(item);
    token = family.next(page);
  }
  return out;
}

/**
 * Fetches classic continuation pages until `limit` items are collected (whole pages, so possibly
 * more) or the service has no more: no token, no `continuationContents`, or an empty page.
 */
export function followClassic<T>(ctx: OperationContext, loop: ClassicLoop<T>): Promise<T[]> {
  const pagePath: Path = ["continuationContents", loop.type];
  const family: Family<JsonObject> = {
    request: (token) => ({ body: loop.body, additionalParams: ctokenParams(token) }),
    page: (response) => {
      const page = get(response, pagePath);
      return isObject(page) ? page : null;
    },
    next: (page) => classicToken(page, loop.kind),
  };
  return follow(ctx, loop, family, (page) => loop.parse(page));
}

export interface ItemLoop<T> {
  operation: string;
  endpoint: string;
  /** Token from the first page's trailing `continuationItemRenderer`. */
  token: string | null;
  limit: number | null;
  /** Items of one page: the appended array, trailing continuation item included. */
  parse(items: readonly unknown[]): readonly T[];
}

/** Shape C: the token is the whole body; the page is the appended item array. */
const ITEMS_FAMILY: Family<readonly unknown[]> = {
  request: (token) => ({ body: { continuation: token } }),
  page: (response) => {
    const items = get(response, APPENDED);
    return Array.isArray(items) ? items : null;
  },
  next: itemToken,
};

/** Fetches shape-C pages (`{continuation}` bodies) until `limit` or the end, as `followClassic`. */
export function followItems<T>(ctx: OperationContext, loop: ItemLoop<T>): Promise<T[]> {
  return follow(ctx, loop, ITEMS_FAMILY, (items) => loop.parse(items));
}
