/**
 * A URL as it may be shown: its userinfo (a user name and password) masked. Its own module, with no
 * imports, so that `init` (loaded at every start of the command) can use it.
 */

/** `https://user:password@host/…` as `https://***@host/…`: a URL's userinfo is never shown. */
export function withoutUserinfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, "$1***@");
}
