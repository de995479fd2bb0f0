import type { Dispatcher } from "undici";
import type { MusicClientOptions, OAuthCredentials } from "../client.js";
import { AuthError, ErrorCodes } from "../errors.js";
import type { Logger } from "../logger.js";
import type { AuthProvider } from "./types.js";

export interface ResolveAuthOptions {
  oauthCredentials?: OAuthCredentials;
  /** Dispatcher for OAuth refresh requests (the client's, so a proxy applies to them too). */
  dispatcher?: Dispatcher;
  timeoutMs: number;
  logger: Logger;
}

/**
 * Turns the `auth` option into a provider, detecting its kind (PROTOCOL §2.3). Placeholder until the
 * auth module lands: only the absence of credentials is accepted.
 */
export function resolveAuth(
  auth: MusicClientOptions["auth"],
  _options: ResolveAuthOptions,
): AuthProvider | null {
  if (auth === undefined) return null;
  throw new AuthError(ErrorCodes.AUTH_INVALID, "authentication is not available yet");
}
