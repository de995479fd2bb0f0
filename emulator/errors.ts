/**
 * Errors in the service's own format (docs/PROTOCOL.md#errors, docs/PROTOCOL.md#the-emulators-side): every API error is JSON
 * `{"error": {"code", "message", "status", "errors"}}` with the same HTTP status, and always has
 * `error.message` (clients put it into their exception text).
 */

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  408: "DEADLINE_EXCEEDED",
  409: "ABORTED",
  413: "INVALID_ARGUMENT",
  431: "INVALID_ARGUMENT",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

export class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    message: string,
    readonly reason: string = "badRequest",
    /** The status name when it is not the usual one for the HTTP status (a throttling 400). */
    private readonly status?: string,
  ) {
    super(message);
  }

  get statusName(): string {
    return this.status ?? STATUS_NAMES[this.httpStatus] ?? "UNKNOWN";
  }

  body(): { error: { code: number; message: string; status: string; errors: unknown[] } } {
    return {
      error: {
        code: this.httpStatus,
        message: this.message,
        status: this.statusName,
        errors: [{ message: this.message, domain: "global", reason: this.reason }],
      },
    };
  }
}

export const invalidArgument = (message = "Request contains an invalid argument.") =>
  new ApiError(400, message, "badRequest");
export const notFound = (message = "Requested entity was not found.") =>
  new ApiError(404, message, "notFound");
export const unauthenticated = (
  message = "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
) => new ApiError(401, message, "required");
export const permissionDenied = (message = "The caller does not have permission") =>
  new ApiError(403, message, "forbidden");

/**
 * A write the service refuses inside an HTTP 200 (a failed status, a toast): thrown inside the
 * write's transaction so that everything it did is rolled back, then answered with `body`.
 */
export class Refusal extends Error {
  constructor(readonly body: Record<string, unknown>) {
    super("refused");
  }
}

export function failedStatus(message: string): Refusal {
  return new Refusal({
    status: "STATUS_FAILED",
    actions: [
      {
        addToToastAction: {
          item: { notificationActionRenderer: { responseText: { runs: [{ text: message }] } } },
        },
      },
    ],
  });
}
