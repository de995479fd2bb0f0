/**
 * Control endpoints under `/_emulator/` (not part of the service): request counts per endpoint and
 * the request log, faults, accounts with ready-to-use browser headers, OAuth approval,
 * configuration. One handler per first path segment.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "../shared/http.js";
import { approveUserCode, expireAccessTokens } from "./auth.js";
import { browserHeaders } from "./browser-headers.js";
import {
  ACCOUNT_BATCH_DEFAULTS,
  ACCOUNT_BATCH_LIMITS,
  ACCOUNT_BATCH_MAX_ROWS,
  type AccountBatch,
  writeAccountBatch,
} from "./catalogue/account-batch.js";
import type { EmulatorState } from "./context.js";
import { invalidArgument, notFound } from "./errors.js";
import { type FaultConfig, isFaultKind, type QueuedFault } from "./faults.js";
import { clearRequestLog, loggedRequests, writeOverlaps } from "./request-log.js";
import type { AccountRow } from "./store/rows.js";

/** A control request's JSON object body (empty: `{}`); anything else is refused. */
export function json(text: Buffer): Record<string, unknown> {
  if (text.length === 0) return {};
  try {
    const v = JSON.parse(text.toString("utf8"));
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw invalidArgument("Invalid JSON payload received.");
}

function faultConfig(v: unknown): FaultConfig | null {
  if (v === null) return null;
  if (!v || typeof v !== "object") throw invalidArgument("faults.config must be an object or null");
  const c = v as Record<string, unknown>;
  if (typeof c.rate !== "number" || c.rate < 0 || c.rate > 1)
    throw invalidArgument("faults.config.rate must be in [0, 1]");
  if (c.kinds !== undefined && (!Array.isArray(c.kinds) || !c.kinds.every(isFaultKind))) {
    throw invalidArgument("faults.config.kinds holds an unknown kind");
  }
  return c as unknown as FaultConfig;
}

function queued(v: unknown): QueuedFault[] {
  if (
    !Array.isArray(v) ||
    !v.every((f) => f && typeof f === "object" && isFaultKind((f as QueuedFault).kind))
  ) {
    throw invalidArgument("faults.queue must be a list of {kind, endpoint?, count?, retryAfter?, delayMs?}");
  }
  return v as QueuedFault[];
}

/** One control request, as the handlers of its first path segment see it. */
interface ControlRequest {
  state: EmulatorState;
  method: string;
  res: ServerResponse;
  /** The path's segments after `/_emulator/`. */
  parts: string[];
  query: URLSearchParams;
  readBody: () => Promise<Buffer>;
}

export async function handleControl(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
  readBody: () => Promise<Buffer>,
): Promise<void> {
  const parts = path.split("/").filter(Boolean);
  const handler = HANDLERS.get(parts[0] ?? "");
  if (!handler) throw notFound("No such control endpoint.");
  await handler({ state, method: req.method ?? "GET", res, parts, query, readBody });
}

/** The handler of each first path segment; any other segment is a 404. */
const HANDLERS = new Map<string, (c: ControlRequest) => void | Promise<void>>([
  ["health", ({ state, res }) => sendJson(res, 200, { ok: true, catalogue: state.store.counts() })],
  ["stats", stats],
  ["requests", requests],
  ["faults", faults],
  ["accounts", accounts],
  ["oauth", oauth],
  ["config", config],
]);

/** `stats`: request counts per endpoint, sorted by name; DELETE clears them. */
function stats({ state, method, res }: ControlRequest): void {
  if (method === "DELETE") {
    state.counts.clear();
    sendJson(res, 200, { requests: {}, total: 0 });
    return;
  }
  const requests = Object.fromEntries([...state.counts.entries()].sort(([a], [b]) => a.localeCompare(b)));
  const total = [...state.counts.values()].reduce((a, b) => a + b, 0);
  sendJson(res, 200, { requests, total });
}

/**
 * `requests`: the request log, `?since=<seq>` for the newer ones, `?writes=1` for writes only;
 * `requests/overlaps` the per-account write tally. DELETE clears both.
 */
function requests({ state, method, res, parts, query }: ControlRequest): void {
  if (method === "DELETE") {
    clearRequestLog(state);
    sendJson(res, 200, { requests: [] });
    return;
  }
  if (parts[1] === "overlaps") {
    sendJson(res, 200, writeOverlaps(state));
    return;
  }
  if (parts[1] !== undefined) throw notFound("No such control endpoint.");
  const since = Number(query.get("since") ?? 0) || 0;
  sendJson(res, 200, { requests: loggedRequests(state, since, query.get("writes") === "1") });
}

/** `faults`: the injector's state; POST sets its config and queues faults, DELETE clears both. */
async function faults({ state, method, res, readBody }: ControlRequest): Promise<void> {
  if (method === "DELETE") state.faults.clear();
  if (method === "POST") {
    const body = json(await readBody());
    if ("config" in body) state.faults.configure(faultConfig(body.config));
    if ("queue" in body) state.faults.enqueue(queued(body.queue));
  }
  sendJson(res, 200, state.faults.state());
}

/**
 * `accounts`: the accounts; POST makes a batch of them; `accounts/<id>/headers` and
 * `accounts/<id>/premium` act on one.
 */
async function accounts(c: ControlRequest): Promise<void> {
  const { state, method, res, parts, query } = c;
  const [, second, third] = parts;
  if (!second && method === "POST") return addAccounts(c);
  if (!second) return sendJson(res, 200, { accounts: state.store.accounts.accounts().map(accountSummary) });
  const account = state.store.accounts.account(Number(second));
  if (!account) throw notFound("No such account.");
  if (third === "headers") {
    const at = query.get("at");
    const seconds = at && /^\d+$/.test(at) ? Number(at) : Math.floor(state.now() / 1000);
    return sendJson(res, 200, headersOf(state, account, seconds));
  }
  if (third === "premium" && method === "POST") {
    // Any account can be made premium (or not) to try what only premium accounts see.
    const body = json(await c.readBody());
    if (typeof body.premium !== "boolean") throw invalidArgument("premium must be true or false");
    state.store.setPremium(account.id, body.premium);
    return sendJson(res, 200, { id: account.id, premium: body.premium });
  }
  throw notFound("No such control endpoint.");
}

/** Browser headers for an account, hashed at `seconds`. */
function headersOf(state: EmulatorState, account: AccountRow, seconds: number): Record<string, string> {
  // A brand account is used through its login's cookie plus `onBehalfOfUser`.
  const login = account.parentId !== null ? state.store.accounts.account(account.parentId) : account;
  if (!login) throw notFound("No such account.");
  return browserHeaders(login, seconds);
}

/** `POST accounts {count, seed?, playlists?, songs?, liked?}`: a batch of logins with libraries. */
async function addAccounts({ state, res, readBody }: ControlRequest): Promise<void> {
  const batch = accountBatch(json(await readBody()));
  const seconds = Math.floor(state.now() / 1000);
  const written = state.store.addAccounts((writer, firstId, pool) =>
    writeAccountBatch(writer, batch, firstId, pool),
  );
  const made = written.map(({ id, name }) => {
    const account = state.store.accounts.account(id);
    if (!account) throw new Error(`account ${id} was not written`);
    return { id, name, headers: headersOf(state, account, seconds) };
  });
  sendJson(res, 200, { accounts: made });
}

/** A batch request's fields, each an integer in its range; `count` is required, the others default. */
function accountBatch(body: Record<string, unknown>): AccountBatch {
  const unknown = Object.keys(body).find((k) => !(k in ACCOUNT_BATCH_LIMITS));
  if (unknown !== undefined) throw invalidArgument(`${unknown} is not a field of an account batch`);
  const field = (name: keyof AccountBatch, fallback?: number): number => {
    // A field given as null is refused, not taken as absent.
    const v = name in body ? body[name] : fallback;
    const [min, max] = ACCOUNT_BATCH_LIMITS[name];
    if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
      throw invalidArgument(`${name} must be an integer from ${min} to ${max}`);
    }
    return v;
  };
  const d = ACCOUNT_BATCH_DEFAULTS;
  const batch = {
    count: field("count"),
    seed: field("seed", d.seed),
    playlists: field("playlists", d.playlists),
    songs: field("songs", d.songs),
    liked: field("liked", d.liked),
  };
  // The batch is one transaction the server waits on: its rows are bound too (about 3 s at most).
  if (batch.count * (batch.playlists * batch.songs + batch.liked) > ACCOUNT_BATCH_MAX_ROWS) {
    throw invalidArgument(`count × (playlists × songs + liked) must be at most ${ACCOUNT_BATCH_MAX_ROWS}`);
  }
  return batch;
}

/** What the account list tells of each account. */
function accountSummary(a: AccountRow) {
  return {
    id: a.id,
    email: a.email,
    name: a.name,
    handle: a.handle,
    channelId: a.channelId,
    authUser: a.authUser,
    brand: a.parentId !== null,
    parentId: a.parentId,
    pageId: a.pageId,
    premium: a.premium,
  };
}

/** `oauth/approve` a pending device code, `oauth/expire` the access tokens, `oauth/device` the sign-in page. */
async function oauth({ state, method, res, parts, readBody }: ControlRequest): Promise<void> {
  const second = parts[1];
  if (second === "approve" && method === "POST") {
    const body = json(await readBody());
    if (typeof body.userCode !== "string") throw invalidArgument("userCode is required");
    const accountId = typeof body.accountId === "number" ? body.accountId : state.oauth.autoApproveAccountId;
    const ok = approveUserCode(state, body.userCode, accountId);
    if (!ok) throw notFound("No pending device code with that user code.");
    return sendJson(res, 200, { approved: true });
  }
  if (second === "expire" && method === "POST") {
    return sendJson(res, 200, { expired: expireAccessTokens(state) });
  }
  if (second === "device") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      "<!doctype html><title>Emulator device sign-in</title><p>POST /_emulator/oauth/approve to approve.</p>",
    );
    return;
  }
  throw notFound("No such control endpoint.");
}

/** `config`: the OAuth and auth settings; POST merges the given ones in first. */
async function config({ state, method, res, readBody }: ControlRequest): Promise<void> {
  if (method === "POST") {
    const body = json(await readBody());
    if (body.oauth && typeof body.oauth === "object") Object.assign(state.oauth, body.oauth);
    if (body.auth && typeof body.auth === "object") Object.assign(state.auth, body.auth);
  }
  sendJson(res, 200, { oauth: state.oauth, auth: state.auth });
}
