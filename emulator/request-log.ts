/**
 * The order and timing of API requests, kept so that a test can see who wrote when — for example,
 * that two daemons syncing one account never had write requests in flight at the same time. Times
 * come from the real clock, not the state's (possibly pinned) one. Bounded to the newest entries.
 */
import type { ServerResponse } from "node:http";

export interface LoggedRequest {
  /** Order of arrival, from 1. */
  seq: number;
  endpoint: string;
  /** Whether the endpoint changes state (the route's own flag). */
  write: boolean;
  /** Milliseconds since the epoch, with sub-millisecond precision. */
  startedAt: number;
  /** When the answer was sent (or the connection closed); null while in flight. */
  finishedAt: number | null;
  status: number | null;
}

const LIMIT = 20_000;

class RequestLog {
  entries: LoggedRequest[] = [];
  seq = 0;
}

const logs = new WeakMap<object, RequestLog>();

function logOf(state: object): RequestLog {
  let log = logs.get(state);
  if (!log) {
    log = new RequestLog();
    logs.set(state, log);
  }
  return log;
}

const clock = (): number => performance.timeOrigin + performance.now();

/** Notes one API request now and its end when the response is finished. */
export function logRequest(state: object, res: ServerResponse, endpoint: string, write: boolean): void {
  const log = logOf(state);
  const entry: LoggedRequest = {
    seq: ++log.seq,
    endpoint,
    write,
    startedAt: clock(),
    finishedAt: null,
    status: null,
  };
  log.entries.push(entry);
  if (log.entries.length > LIMIT) log.entries.splice(0, log.entries.length - LIMIT);
  const done = (): void => {
    if (entry.finishedAt !== null) return;
    entry.finishedAt = clock();
    entry.status = res.statusCode;
  };
  res.once("finish", done);
  res.once("close", done);
}

/** The logged requests after `since` (a `seq`), optionally writes only. */
export function loggedRequests(state: object, since = 0, writesOnly = false): LoggedRequest[] {
  return logOf(state).entries.filter((e) => e.seq > since && (!writesOnly || e.write));
}

export function clearRequestLog(state: object): void {
  logOf(state).entries = [];
}
