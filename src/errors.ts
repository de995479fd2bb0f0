/**
 * Every error musicapi raises is a MusicApiError with a stable string `code`, grouped by who is at
 * fault: the caller, the credentials, the service, the response, or the transport.
 *
 * Messages name the operation and never carry a credential: nothing here copies request headers,
 * cookies or tokens into a message or a property.
 */

export const ErrorCodes = {
  /** The caller passed an argument the operation cannot accept (checked before any request). */
  INVALID_ARGUMENT: "INVALID_ARGUMENT",
  /** The operation needs credentials and the client has none. */
  AUTH_REQUIRED: "AUTH_REQUIRED",
  /** The credentials given cannot be used (malformed file, missing SAPISID, bad OAuth client). */
  AUTH_INVALID: "AUTH_INVALID",
  /** The service refused the credentials or the OAuth refresh failed. */
  AUTH_EXPIRED: "AUTH_EXPIRED",
  /** The service answered with an HTTP error status. */
  HTTP_ERROR: "HTTP_ERROR",
  /** The service answered 429 (or a throttling status) and asked us to slow down. */
  RATE_LIMITED: "RATE_LIMITED",
  /** HTTP 200 whose body says the request failed (`status` other than STATUS_SUCCEEDED). */
  STATUS_FAILED: "STATUS_FAILED",
  /** HTTP 200 whose body only asks the user to enable a feature first (a write, or a read's page). */
  GATED: "GATED",
  /** The service gave no usable content (e.g. a private playlist's empty watch queue). */
  NO_CONTENT: "NO_CONTENT",
  /** The response did not have the structure the parser needs. */
  PARSE_ERROR: "PARSE_ERROR",
  /** No response within the read time-out. */
  TIMEOUT: "TIMEOUT",
  /** The connection could not be made or was cut. */
  CONNECTION: "CONNECTION",
  /** An OAuth device-flow step failed (denied, expired code, bad client). */
  OAUTH_FLOW: "OAUTH_FLOW",
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

export interface MusicApiErrorOptions {
  operation?: string;
  cause?: unknown;
}

export class MusicApiError extends Error {
  readonly code: ErrorCode;
  /** The operation (interface name, e.g. `get_playlist`) that failed, when known. */
  readonly operation: string | undefined;

  constructor(code: ErrorCode, message: string, options: MusicApiErrorOptions = {}) {
    super(options.operation ? `${options.operation}: ${message}` : message, { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.operation = options.operation;
  }
}

/** The caller's fault: raised before any request is sent. */
export class ArgumentError extends MusicApiError {
  /** The argument (camelCase, as the caller wrote it) that was refused. */
  readonly argument: string;

  constructor(argument: string, message: string, options: MusicApiErrorOptions = {}) {
    super(ErrorCodes.INVALID_ARGUMENT, `invalid argument \`${argument}\`: ${message}`, options);
    this.argument = argument;
  }
}

/** Missing, unusable or refused credentials. */
export class AuthError extends MusicApiError {
  constructor(
    code: typeof ErrorCodes.AUTH_REQUIRED | typeof ErrorCodes.AUTH_INVALID | typeof ErrorCodes.AUTH_EXPIRED,
    message: string,
    options: MusicApiErrorOptions = {},
  ) {
    super(code, message, options);
  }
}

export interface ServiceErrorOptions extends MusicApiErrorOptions {
  status?: number;
  /** The service's own message (`error.message` of its JSON error body). */
  serviceMessage?: string;
  /** The service's error status word, e.g. `INVALID_ARGUMENT`, `UNAUTHENTICATED`. */
  serviceStatus?: string;
  /** How long the service asked us to wait (its Retry-After), when it said. */
  retryAfterMs?: number;
}

/** The service refused or failed the request. */
export class ServiceError extends MusicApiError {
  readonly status: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly serviceStatus: string | undefined;
  /** The service's Retry-After in milliseconds (429 and 503 answers may carry one). */
  readonly retryAfterMs: number | undefined;

  constructor(code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(code, message, options);
    this.status = options.status;
    this.serviceMessage = options.serviceMessage;
    this.serviceStatus = options.serviceStatus;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** HTTP 429: `retryAfterMs` is what the service's Retry-After asked for, if it said. */
export class RateLimitError extends ServiceError {
  constructor(message: string, retryAfterMs: number | undefined, options: ServiceErrorOptions = {}) {
    super(ErrorCodes.RATE_LIMITED, message, { ...options, retryAfterMs });
  }
}

/**
 * A request answered HTTP 200 with a failed status: a write's is never mistaken for success, a
 * read's is raised before any parser runs (not a ParseError about a page that was never sent).
 */
export class StatusFailedError extends ServiceError {
  /** The whole response body, for the caller to inspect. */
  readonly response: unknown;

  constructor(message: string, response: unknown, options: ServiceErrorOptions = {}) {
    super(ErrorCodes.STATUS_FAILED, message, options);
    this.response = response;
  }
}

/** The response lacked a structure the parser needs; `path` is where it looked. */
export class ParseError extends MusicApiError {
  /** The JSON path the parser was walking, e.g. `contents.twoColumnBrowseResultsRenderer.tabs[0]`. */
  readonly path: string;
  /** What was wrong there, without the path. */
  readonly detail: string;

  constructor(path: string, detail: string, options: MusicApiErrorOptions = {}) {
    super(ErrorCodes.PARSE_ERROR, `${detail} at ${path}`, options);
    this.path = path;
    this.detail = detail;
  }
}

/** Time-outs and connection failures: nothing (or not all) came back. */
export class TransportError extends MusicApiError {}

/** An OAuth device-flow step failed; `reason` is the OAuth error word (e.g. `access_denied`). */
export class OAuthFlowError extends MusicApiError {
  readonly reason: string;

  constructor(reason: string, message: string, options: MusicApiErrorOptions = {}) {
    super(ErrorCodes.OAUTH_FLOW, message, options);
    this.reason = reason;
  }
}
