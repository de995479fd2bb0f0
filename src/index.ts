export type { RetryPolicy } from "../shared/retry.js";
export { LANGUAGES, LOCATIONS } from "../shared/wire/constants.js";
// What the sync engine reads of pasted browser headers (its accounts check them before any request).
export { isDropped as isDroppedHeader } from "./auth/browser.js";
export { parseHeaderLines } from "./auth/header-lines.js";
export { type SetupOAuthOptions, type SetupOptions, sapisidHash, setup, setupOAuth } from "./auth/index.js";
export { parseCookieHeader } from "./auth/sapisid.js";
export type { AuthKind } from "./auth/types.js";
export { MusicClient, type MusicClientOptions, type OAuthCredentials, type OAuthToken } from "./client.js";
export * from "./errors.js";
export type { Logger } from "./logger.js";
export type { ArtistAlbumsOptions } from "./operations/browsing.js";
export type { GetChartsOptions } from "./operations/explore.js";
export type { LibraryOrder, PrivacyStatus, Rating } from "./operations/library-arguments.js";
export type { GetPodcastOptions } from "./operations/podcasts.js";
export type { GetLyricsOptions, GetSongOptions, SetTasteProfileOptions } from "./operations/song.js";
export type { GetWatchPlaylistOptions } from "./operations/watch.js";
// Result and option types of every operation, named as in the interface document.
export type * from "./types/browsing.js";
export type * from "./types/common.js";
export type * from "./types/explore.js";
export type * from "./types/library.js";
export type * from "./types/playlists.js";
export type * from "./types/podcasts.js";
export type * from "./types/search.js";
export { SEARCH_FILTERS, SEARCH_SCOPES } from "./types/search.js";
export type * from "./types/song.js";
export type * from "./types/uploads.js";
export type * from "./types/watch.js";
