/**
 * How strictly the emulator checks credentials, and how its OAuth device flow behaves: the settings
 * `startEmulator` takes. Apart from auth.ts, which checks credentials with them, so that the public
 * declarations of `musicapi/emulator` do not reach the emulator's state and its database types.
 */

export interface AuthConfig {
  /** A SAPISIDHASH older than this is refused (seconds). */
  maxHashAgeSeconds: number;
  /** How far in the future a timestamp may be (client clock ahead of ours). */
  futureSkewSeconds: number;
}

export interface OAuthConfig {
  /** Approve a pending device code by itself on this poll (1 = the first poll); null = only by control. */
  autoApproveAfterPolls: number | null;
  /** The account an automatic approval signs in. */
  autoApproveAccountId: number;
  accessTokenTtlSeconds: number;
  deviceCodeTtlSeconds: number;
  interval: number;
}

export const DEFAULT_AUTH: AuthConfig = { maxHashAgeSeconds: 600, futureSkewSeconds: 300 };
export const DEFAULT_OAUTH: OAuthConfig = {
  autoApproveAfterPolls: 2,
  autoApproveAccountId: 1,
  accessTokenTtlSeconds: 3600,
  deviceCodeTtlSeconds: 1800,
  interval: 5,
};
