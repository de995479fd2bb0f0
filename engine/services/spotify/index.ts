export { SPOTIFY_API } from "./api.js";
export { SpotifyClient, type SpotifyClientOptions } from "./client.js";
export { isSpotifyId, parsePlaylistRef, SpotifyArgumentError } from "./ids.js";
export { SKIP_REASONS } from "./parse.js";
export {
  type AuthorizeParams,
  authorizeUrl,
  type CodeExchange,
  codeExchangeRequest,
  codeFromRedirect,
  pkceChallenge,
  pkceVerifier,
  SPOTIFY_ACCOUNTS,
  SPOTIFY_READ_SCOPES,
} from "./pkce.js";
export {
  clientCredentialsToken,
  exchangeCode,
  REFRESH_MARGIN_MS,
  refreshToken,
  type SpotifyApp,
  type SpotifyToken,
  TokenKeeper,
  tokenFromAnswer,
} from "./token.js";
