/**
 * How the applier tells one failure from another: a refusal of the request itself, a lost answer,
 * a playlist not editable yet, a write whose fate a failed read left unknown, a stop before sending.
 */
import { ServiceError, TransportError } from "../../src/index.js";
import { isThrottle400 } from "./pacer.js";

/** The action did not happen (or not all of it): journaled `failed`. */
export class ActionFailed extends Error {}

/**
 * A write whose fate could not be checked because the read meant to verify it failed (the create
 * went through, then reading its rows failed). Journaled `unknown`, not `failed`: the next run reads
 * the target and takes ownership of what the journal says this action put there.
 */
export class Unverified extends Error {
  constructor(cause: unknown) {
    super(`could not read the target back to verify: ${message(cause)}`, { cause });
  }
}

/**
 * Raised instead of sending a write once the account's lock was lost: another process may be
 * writing to the account now. The request never left.
 */
export class LockLostError extends Error {
  /** Like a stop's InterruptedError: an action stopped by it before any request is "not sent". */
  readonly notSent = true;
  constructor(readonly reason: string) {
    super(`not sent: ${reason}`);
    this.name = "LockLostError";
  }
}

/** An error raised instead of sending (a stop was requested): the request never left. */
export function neverSent(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { notSent?: unknown }).notSent === true;
}

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What a refused write's answer said, in a few words: its status, or that it had none. */
export function describeAnswer(answer: unknown): string {
  if (answer instanceof Error || typeof answer === "string") return message(answer);
  const status = (answer as { status?: unknown } | null)?.status;
  return typeof status === "string"
    ? `the service answered ${status}`
    : "the service answered without a status";
}

/** A refusal that says the request itself was wrong (a bad id…), as opposed to "not now". */
export function refused(error: unknown): boolean {
  return (
    error instanceof ServiceError &&
    error.status !== undefined &&
    error.status >= 400 &&
    error.status < 500 &&
    // A throttling 400 that outlasted the pacer's retries says "not now", not "bad id": never split on it.
    !isThrottle400(error) &&
    error.status !== 429
  );
}

/**
 * HTTP 409. On a playlist write: the playlist was created seconds ago, not editable yet (waited for).
 * On a rating or a subscription: it is already so (verified by reading back, like any refusal).
 */
export function conflict(error: unknown): boolean {
  return error instanceof ServiceError && error.status === 409;
}

/** The answer never came: the write may or may not have happened. */
export function lost(error: unknown): boolean {
  return error instanceof TransportError;
}

/** The service has no such thing (a playlist deleted, or never there). */
export function notFound(error: unknown): boolean {
  return error instanceof ServiceError && error.status === 404;
}
