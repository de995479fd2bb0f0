/**
 * Spotify's two error shapes: the Web API's `{"error": {"status", "message"}}` and the accounts
 * host's OAuth `{"error", "error_description"}` (test/fixtures/services/spotify/README.md).
 */

export interface SpotifyAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function apiError(status: number, message: string, headers?: Record<string, string>): SpotifyAnswer {
  return { status, body: { error: { status, message } }, ...(headers ? { headers } : {}) };
}

export function oauthError(error: string, description: string, status = 400): SpotifyAnswer {
  return { status, body: { error, error_description: description } };
}

export const noToken = () => apiError(401, "No token provided");
export const badToken = () => apiError(401, "Invalid access token");
export const expiredToken = () => apiError(401, "The access token expired");
export const notFound = () => apiError(404, "Resource not found");
export const rateLimited = (retryAfter: number) =>
  apiError(429, "API rate limit exceeded", { "retry-after": String(retryAfter) });
