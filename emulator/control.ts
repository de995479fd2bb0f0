/**
 * Control endpoints under `/_emulator/` (not part of the service): request counts per endpoint and
 * the request log,
 * faults, accounts with ready-to-use browser headers, OAuth approval, configuration.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { approveUserCode, browserHeaders, expireAccessTokens } from "./auth.js";
import type { EmulatorState } from "./context.js";
import { ApiError, invalidArgument, notFound } from "./errors.js";
import { type FaultConfig, isFaultKind, type QueuedFault } from "./faults.js";
import { clearRequestLog, loggedRequests } from "./request-log.js";
import { sendJson } from "./server.js";

function json(text: Buffer): Record<string, unknown> {
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

export async function handleControl(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
  readBody: () => Promise<Buffer>,
): Promise<void> {
  const method = req.method ?? "GET";
  const parts = path.split("/").filter(Boolean);
  const [head, second, third] = parts;
  if (head === "health") return sendJson(res, 200, { ok: true, catalogue: state.store.counts() });
  if (head === "stats") {
    if (method === "DELETE") {
      state.counts.clear();
      return sendJson(res, 200, { requests: {}, total: 0 });
    }
    const requests = Object.fromEntries([...state.counts.entries()].sort(([a], [b]) => a.localeCompare(b)));
    const total = [...state.counts.values()].reduce((a, b) => a + b, 0);
    return sendJson(res, 200, { requests, total });
  }
  if (head === "requests") {
    // The request log: `?since=<seq>` for the newer ones, `?writes=1` for writes only.
    if (method === "DELETE") {
      clearRequestLog(state);
      return sendJson(res, 200, { requests: [] });
    }
    const since = Number(query.get("since") ?? 0) || 0;
    return sendJson(res, 200, { requests: loggedRequests(state, since, query.get("writes") === "1") });
  }
  if (head === "faults") {
    if (method === "DELETE") {
      state.faults.clear();
      return sendJson(res, 200, state.faults.state());
    }
    if (method === "POST") {
      const body = json(await readBody());
      if ("config" in body) state.faults.configure(faultConfig(body.config));
      if ("queue" in body) state.faults.enqueue(queued(body.queue));
      return sendJson(res, 200, state.faults.state());
    }
    return sendJson(res, 200, state.faults.state());
  }
  if (head === "accounts") {
    if (!second) {
      const list = state.store.accounts().map((a) => ({
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
      }));
      return sendJson(res, 200, { accounts: list });
    }
    const account = state.store.account(Number(second));
    if (!account) throw notFound("No such account.");
    if (third === "headers") {
      // A brand account is used through its login's cookie plus `onBehalfOfUser`.
      const login = account.parentId !== null ? state.store.account(account.parentId) : account;
      if (!login) throw notFound("No such account.");
      const at = query.get("at");
      const seconds = at && /^\d+$/.test(at) ? Number(at) : Math.floor(state.now() / 1000);
      return sendJson(res, 200, browserHeaders(login, seconds));
    }
    if (third === "premium" && method === "POST") {
      // Any account can be made premium (or not) to try what only premium accounts see.
      const body = json(await readBody());
      if (typeof body.premium !== "boolean") throw invalidArgument("premium must be true or false");
      state.store.setPremium(account.id, body.premium);
      return sendJson(res, 200, { id: account.id, premium: body.premium });
    }
    throw notFound("No such control endpoint.");
  }
  if (head === "oauth") {
    if (second === "approve" && method === "POST") {
      const body = json(await readBody());
      if (typeof body.userCode !== "string") throw invalidArgument("userCode is required");
      const accountId =
        typeof body.accountId === "number" ? body.accountId : state.oauth.autoApproveAccountId;
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
  }
  if (head === "config" && method === "POST") {
    const body = json(await readBody());
    if (body.oauth && typeof body.oauth === "object") Object.assign(state.oauth, body.oauth);
    if (body.auth && typeof body.auth === "object") Object.assign(state.auth, body.auth);
    return sendJson(res, 200, { oauth: state.oauth, auth: state.auth });
  }
  if (head === "config") return sendJson(res, 200, { oauth: state.oauth, auth: state.auth });
  throw new ApiError(404, "No such control endpoint.", "notFound");
}
