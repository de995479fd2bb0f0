export { type SetupOAuthOptions, type SetupOptions, sapisidHash, setup, setupOAuth } from "./auth/index.js";
export type { AuthKind } from "./auth/types.js";
export { MusicClient, type MusicClientOptions, type OAuthCredentials, type OAuthToken } from "./client.js";
export * from "./errors.js";
export type { Logger } from "./logger.js";
export { LANGUAGES, LOCATIONS } from "./transport/constants.js";
export type { RetryPolicy } from "./transport/retry.js";
