/**
 * A person signed in to the emulator's Spotify stand-in, as `musicsync auth spotify` signs in: the
 * authorize address (the stand-in approves at once), its redirect, the code exchanged for a token.
 * For tests and benchmarks that read a library.
 */
import { SPOTIFY_FAKE_CLIENT } from "../../emulator/services/spotify/index.js";
import { SERVICE_RETRY, type ServiceHttp } from "../../engine/services/http.js";
import {
  authorizeUrl,
  codeFromRedirect,
  exchangeCode,
  pkceChallenge,
  pkceVerifier,
  SPOTIFY_READ_SCOPES,
  type SpotifyToken,
} from "../../engine/services/spotify/index.js";

export async function signInToStandIn(
  emulatorUrl: string,
  http: Partial<ServiceHttp> = {},
  scopes: readonly string[] = SPOTIFY_READ_SCOPES,
): Promise<SpotifyToken> {
  const accountsBase = `${emulatorUrl}/spotify/accounts`;
  const verifier = pkceVerifier(new Uint8Array(48).fill(7));
  const redirectUri = "http://127.0.0.1:8976/callback";
  const url = authorizeUrl({
    accountsBase,
    clientId: SPOTIFY_FAKE_CLIENT.id,
    redirectUri,
    scopes: [...scopes],
    state: "s1",
    challenge: pkceChallenge(verifier),
  });
  const res = await fetch(url, { redirect: "manual" });
  const code = codeFromRedirect(new URL(res.headers.get("location")!), "s1");
  return exchangeCode(
    { accountsBase, clientId: SPOTIFY_FAKE_CLIENT.id, code, redirectUri, verifier },
    { sleep: (ms) => new Promise((r) => setTimeout(r, ms)), now: Date.now, retry: SERVICE_RETRY, ...http },
  );
}
