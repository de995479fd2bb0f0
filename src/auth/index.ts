export { type BrowserProviderOptions, browserHeadersFromText, type SetupOptions, setup } from "./browser.js";
export { type ResolveAuthOptions, resolveAuth } from "./detect.js";
export { parseHeaderLines } from "./header-lines.js";
export { type SetupOAuthOptions, setupOAuth } from "./oauth-flow.js";
export { sapisidHash } from "./sapisid.js";
export type { AuthKind, AuthProvider } from "./types.js";
