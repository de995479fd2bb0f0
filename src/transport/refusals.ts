import { ErrorCodes, type MusicApiError, ServiceError, StatusFailedError } from "../errors.js";
import { isObject, list, str } from "../parsers/nav.js";

/**
 * Answers that are HTTP 200 but refuse the request: a failed `status`, or a feature-gate panel in
 * place of the page (docs/PROTOCOL.md#errors). Recognised here, before any parser runs, so that a refused
 * read is reported as what it is and not as a ParseError about a missing `contents`.
 */

/** The one status word the service uses for a request that went through. */
const SUCCEEDED = "STATUS_SUCCEEDED";

/**
 * Top-level keys that frame an answer without being its content. A read's page always comes in a
 * key outside this set (`contents`, `continuationContents`, `onResponseReceivedActions`, `header`,
 * `playabilityStatus`, …; checked against every real capture in the shared fixtures), so a body made
 * only of these and a gate panel has no page to parse.
 */
const ENVELOPE_KEYS: ReadonlySet<string> = new Set([
  "responseContext",
  "trackingParams",
  "actions",
  "frameworkUpdates",
]);

/**
 * The panel a top-level action opens, when one does: `{ tag }` (the panel's identifier, e.g.
 * `PAfeature_enablement`, when it has one), otherwise undefined. Nested panels (a collaborative
 * playlist's facepile opens one) are part of a page and are not looked at.
 */
export function engagementPanel(response: unknown): { tag: string | null } | undefined {
  for (const action of list(response, ["actions"])) {
    if (isObject(action) && isObject(action.showEngagementPanelEndpoint)) {
      return { tag: str(action, ["showEngagementPanelEndpoint", "identifier", "tag"]) };
    }
  }
  return undefined;
}

/** A body that holds a gate panel and nothing a read could parse. */
export function isGatePanelOnly(response: unknown): boolean {
  if (!isObject(response) || engagementPanel(response) === undefined) return false;
  return Object.keys(response).every((key) => ENVELOPE_KEYS.has(key));
}

/**
 * The typed error for a read the service refused with HTTP 200, or undefined when the body may be
 * a page. Reads are not retried on these: the service's gate and its failed status say something
 * about the account or the request, not a passing fault, so asking again at once would get the
 * same answer; the caller (the engine's next run) asks again later.
 */
export function readRefusal(operation: string, response: unknown): MusicApiError | undefined {
  if (!isObject(response)) return undefined;
  const status = response.status;
  if (typeof status === "string" && status !== SUCCEEDED) {
    return new StatusFailedError(`the service answered ${status} instead of the page`, response, {
      operation,
      status: 200,
      serviceStatus: status,
    });
  }
  if (isGatePanelOnly(response)) {
    const tag = engagementPanel(response)?.tag;
    return new ServiceError(
      ErrorCodes.GATED,
      `the service answered with a feature-gate panel${tag ? ` (${tag})` : ""} instead of the page`,
      { operation, status: 200 },
    );
  }
  return undefined;
}
