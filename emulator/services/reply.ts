/**
 * What the fakes of other services share on the wire: an answer (status, JSON body, headers), the
 * emulator's faults (emulator/faults.ts) turned into that service's own error answers, and a
 * dropped connection for the `cut` fault.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "../../shared/http.js";
import type { EmulatorState } from "../context.js";
import type { Fault } from "../faults.js";

export interface Reply {
  status: number;
  /** The JSON body; null for an empty one (a 204). */
  body: unknown;
  headers?: Record<string, string>;
}

export function send(res: ServerResponse, reply: Reply): void {
  if (reply.body === null) {
    res.writeHead(reply.status, { ...reply.headers, "content-length": "0" });
    res.end();
    return;
  }
  sendJson(res, reply.status, reply.body, reply.headers ?? {});
}

/** A service's error answers for the faults that stand for its failures. */
export interface FaultAnswers {
  rateLimited(retryAfterSeconds: number): Reply;
  serverError(): Reply;
  unavailable(retryAfterSeconds: number | undefined): Reply;
  /** Last.fm's habit of an error body with HTTP 200; services without it answer a server error. */
  failedInOk?(): Reply;
}

/** What a fault leaves to the route: nothing (answered), a list cut short, or the request as is. */
export type FaultOutcome = "answered" | "truncate" | "none";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Picks this request's fault (the `x-emulator-fault` header, the queue, the configured rate) for
 * `endpoint` and answers it in the service's own terms.
 */
export async function applyServiceFault(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  endpoint: string,
  answers: FaultAnswers,
): Promise<FaultOutcome> {
  const fault: Fault | null = state.faults.pick(endpoint, header(req, "x-emulator-fault"));
  if (!fault) return "none";
  switch (fault.kind) {
    case "slow":
      await sleep(fault.delayMs ?? 1000);
      return "none";
    case "rate-limit":
    case "throttled":
      send(res, answers.rateLimited(fault.retryAfter ?? 1));
      return "answered";
    case "unavailable":
      send(res, answers.unavailable(fault.retryAfter));
      return "answered";
    case "failed-status":
      send(res, answers.failedInOk ? answers.failedInOk() : answers.serverError());
      return "answered";
    case "cut":
      // A long body promised, a piece of it sent, the connection dropped.
      res.writeHead(200, { "content-type": "application/json", "content-length": "8192" });
      res.write('{"playlists":[{"playlist":{"title":"');
      await sleep(5);
      res.socket?.destroy();
      return "answered";
    case "truncate":
      return "truncate";
    case "server-error":
    case "conflict":
    case "gated":
      send(res, answers.serverError());
      return "answered";
  }
}
