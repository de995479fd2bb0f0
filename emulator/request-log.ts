/**
 * The order and timing of API requests, kept so that a test can see who wrote when — for example,
 * that two daemons syncing one account never had write requests in flight at the same time. Times
 * come from the real clock, not the state's (possibly pinned) one. The log is bounded to the newest
 * entries; the per-account write tally beside it is not, so a long benchmark still sees every
 * overlap.
 */
import type { ServerResponse } from "node:http";

export interface LoggedRequest {
  /** Order of arrival, from 1. */
  seq: number;
  endpoint: string;
  /** Whether the endpoint changes state (the route's own flag). */
  write: boolean;
  /**
   * The account the request acted for: the signed-in login, or the brand account it chose with
   * `onBehalfOfUser`; null when signed out or when the credentials were refused.
   */
  account: number | null;
  /** Milliseconds since the epoch, with sub-millisecond precision. */
  startedAt: number;
  /** When the answer was sent (or the connection closed); null while in flight. */
  finishedAt: number | null;
  status: number | null;
}

/** One account's writes since the last reset. */
interface AccountWrites {
  account: number;
  writes: number;
  /** Its writes that arrived while another of its writes was unanswered. */
  overlaps: number;
  /** Writes tallied and not yet answered. */
  open: number;
  /** When its latest answered write was answered. */
  lastFinish: number;
  /** The most of its writes in flight at once. */
  inFlight: number;
}

/** What `GET /_emulator/requests/overlaps` answers. */
export interface WriteOverlaps {
  /** Accounts that sent at least one write. */
  accounts: number;
  /** Writes of a known account. */
  writes: number;
  /** Writes that arrived while another write of the same account was in flight. */
  overlaps: number;
  /** The accounts with the most writes in flight at once, most first (at most `WORST`). */
  worst: { account: number; inFlight: number; overlaps: number }[];
}

const LIMIT = 20_000;
const WORST = 10;

class RequestLog {
  entries: LoggedRequest[] = [];
  seq = 0;
  /** Per account; replaced (not emptied) on reset, so writes still in flight settle in the old one. */
  tally = new Map<number, AccountWrites>();
}

const logs = new WeakMap<object, RequestLog>();
/** The tally entry of each write in flight, settled when it is answered. */
const openWrites = new WeakMap<LoggedRequest, AccountWrites>();

function logOf(state: object): RequestLog {
  let log = logs.get(state);
  if (!log) {
    log = new RequestLog();
    logs.set(state, log);
  }
  return log;
}

const clock = (): number => performance.timeOrigin + performance.now();

/**
 * Notes one API request now and its end when the response is finished; answers the entry, whose
 * account `attributeRequest` fills in once the request's credentials have been read.
 */
export function logRequest(
  state: object,
  res: ServerResponse,
  endpoint: string,
  write: boolean,
): LoggedRequest {
  const log = logOf(state);
  const entry: LoggedRequest = {
    seq: ++log.seq,
    endpoint,
    write,
    account: null,
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
    const tallied = openWrites.get(entry);
    if (tallied) settle(tallied, entry.finishedAt);
  };
  res.once("finish", done);
  res.once("close", done);
  return entry;
}

function settle(w: AccountWrites, finishedAt: number): void {
  w.open--;
  w.lastFinish = Math.max(w.lastFinish, finishedAt);
}

/**
 * Records whose request `entry` is and, for a write, tallies it against its account. The account
 * is known only once the body is read, a moment after arrival: a write that was answered in that
 * moment, after this one arrived, still counts as in flight with it (`lastFinish`), so the tally
 * sees every pair of writes whose arrival-to-answer spans meet.
 */
export function attributeRequest(state: object, entry: LoggedRequest, account: number | null): void {
  entry.account = account;
  if (!entry.write || account === null) return;
  const tally = logOf(state).tally;
  let w = tally.get(account);
  if (!w) {
    w = { account, writes: 0, overlaps: 0, open: 0, lastFinish: 0, inFlight: 0 };
    tally.set(account, w);
  }
  const overlapped = w.open > 0 || w.lastFinish > entry.startedAt;
  w.writes++;
  if (overlapped) w.overlaps++;
  w.inFlight = Math.max(w.inFlight, w.open + 1, overlapped ? 2 : 1);
  if (entry.finishedAt === null) {
    w.open++;
    openWrites.set(entry, w);
  } else {
    w.lastFinish = Math.max(w.lastFinish, entry.finishedAt);
  }
}

/** The logged requests after `since` (a `seq`), optionally writes only. */
export function loggedRequests(state: object, since = 0, writesOnly = false): LoggedRequest[] {
  return logOf(state).entries.filter((e) => e.seq > since && (!writesOnly || e.write));
}

/** The write tally of every account since the last reset. */
export function writeOverlaps(state: object): WriteOverlaps {
  const all = [...logOf(state).tally.values()];
  const worst = all
    .sort((a, b) => b.inFlight - a.inFlight || b.overlaps - a.overlaps || a.account - b.account)
    .slice(0, WORST)
    .map((w) => ({ account: w.account, inFlight: w.inFlight, overlaps: w.overlaps }));
  return {
    accounts: all.length,
    writes: all.reduce((n, w) => n + w.writes, 0),
    overlaps: all.reduce((n, w) => n + w.overlaps, 0),
    worst,
  };
}

/** Empties the log and the write tally (writes in flight settle in the tally they began in). */
export function clearRequestLog(state: object): void {
  const log = logOf(state);
  log.entries = [];
  log.tally = new Map();
}
