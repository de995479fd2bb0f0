/**
 * What the transport needs from a way of authenticating. The auth module builds one of these from
 * the `auth` option; the transport asks it for headers on every request and never looks inside.
 */
export type AuthKind = "browser" | "oauth" | "oauth-headers";

export interface AuthProvider {
  readonly kind: AuthKind;
  /**
   * Headers to send with one request, computed now: the SAPISIDHASH for browser headers (with the
   * pasted cookie and the other kept headers), or the bearer token for OAuth (refreshed first when it
   * is about to expire). Header names are lower-case.
   */
  headers(): Promise<Record<string, string>>;
  /**
   * Renews the credentials after the service refused `refused` (the headers of that request), even
   * before their expiry; absent when they cannot be renewed (browser headers, fixed OAuth headers).
   * A request refused with credentials already replaced causes no second renewal.
   */
  renew?(refused: Record<string, string>): Promise<void>;
  /** Browser auth sends the API key on the URL; OAuth does not. */
  readonly sendsApiKey: boolean;
  /** The `x-goog-authuser` account index (browser auth), used by uploads; "0" otherwise. */
  readonly authUser: string;
  /**
   * Every secret this provider holds (cookie values, SAPISID, tokens, client secret), so that the
   * transport can scrub them from anything it logs or raises. Read on each use: a refresh changes it.
   */
  secrets(): readonly string[];
}
