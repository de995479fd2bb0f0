/**
 * The fake accounts host (accounts.spotify.com): `/authorize`, which approves at once and sends
 * the browser back with a code, and `/api/token` for the client-credentials, authorization-code
 * (with PKCE, S256) and refresh-token grants. The tokens it issues are kept in the emulator's
 * database (emulator/store/spotify-tokens.ts), so that a sign-in made with one start of the
 * emulator works with the next, as each musicsync command starts the embedded emulator anew; the
 * codes of a sign-in in progress stay in memory (a sign-in begins and ends with one start). Their
 * lifetime is settable, and `expireAll` ends them at once, for tests of a refresh.
 */
import { createHash, randomBytes } from "node:crypto";
import type { SpotifyTokenStore } from "../../store/spotify-tokens.js";
import { oauthError, type SpotifyAnswer } from "./errors.js";

/** The app registered with the fake: what a test or the demo signs in with. */
export const SPOTIFY_FAKE_CLIENT = Object.freeze({
  id: "5f4a2c8e1b9d4e7fa0c3b6d9e2f1a8c7",
  secret: "emulator-spotify-client-secret-not-a-real-one",
});

export type Grant = "app" | "user";

interface CodeRecord {
  clientId: string;
  redirectUri: string;
  scope: string[];
  challenge: string | null;
  expiresAt: number;
}

/** Who a request's bearer token stands for, or why it stands for nobody. */
export type Bearer =
  | { ok: true; grant: Grant; scope: string[] }
  | { ok: false; why: "none" | "invalid" | "expired" };

const CODE_TTL_MS = 10 * 60_000;

const token = () => randomBytes(24).toString("base64url");

/** PKCE's S256: the challenge is the verifier's SHA-256, base64url without padding. */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

export class SpotifyAccounts {
  /** Seconds an access token lives; Spotify's is an hour. */
  tokenLifetimeSeconds = 3600;
  private readonly codes = new Map<string, CodeRecord>();
  readonly clients = new Map<string, string>([[SPOTIFY_FAKE_CLIENT.id, SPOTIFY_FAKE_CLIENT.secret]]);

  constructor(
    private readonly now: () => number,
    private readonly tokens: SpotifyTokenStore,
  ) {}

  /** Ends every access token now (refresh tokens stay good). */
  expireAll(): void {
    this.tokens.expireAccess(this.now() - 1);
  }

  bearer(authorization: string | undefined): Bearer {
    const m = /^Bearer (\S+)$/.exec(authorization ?? "");
    if (!m) return { ok: false, why: "none" };
    const t = this.tokens.get(m[1]!, "access");
    if (!t) return { ok: false, why: "invalid" };
    if ((t.expiresAt ?? 0) <= this.now()) return { ok: false, why: "expired" };
    return { ok: true, grant: t.grant, scope: t.scope };
  }

  /**
   * `/authorize`: the person "approves" at once. Answers where to send the browser, or an error
   * page's text when the request cannot be sent back (an unknown client, a bad redirect).
   */
  authorize(q: URLSearchParams): { redirect: string } | { status: number; text: string } {
    const clientId = q.get("client_id") ?? "";
    if (!this.clients.has(clientId)) return { status: 400, text: "INVALID_CLIENT: Invalid client" };
    const redirectUri = q.get("redirect_uri") ?? "";
    let target: URL;
    try {
      target = new URL(redirectUri);
    } catch {
      return { status: 400, text: "INVALID_CLIENT: Invalid redirect URI" };
    }
    const state = q.get("state");
    if (state !== null) target.searchParams.set("state", state);
    if (q.get("response_type") !== "code") {
      target.searchParams.set("error", "unsupported_response_type");
      return { redirect: target.toString() };
    }
    const method = q.get("code_challenge_method");
    const challenge = q.get("code_challenge");
    if (challenge !== null && method !== "S256") {
      target.searchParams.set("error", "invalid_request");
      return { redirect: target.toString() };
    }
    const code = token();
    this.codes.set(code, {
      clientId,
      redirectUri,
      scope: (q.get("scope") ?? "").split(/[\s+]+/).filter(Boolean),
      challenge,
      expiresAt: this.now() + CODE_TTL_MS,
    });
    target.searchParams.set("code", code);
    return { redirect: target.toString() };
  }

  /** `/api/token`: `form` is the urlencoded body, `basic` the Authorization header. */
  token(form: URLSearchParams, basic: string | undefined): SpotifyAnswer {
    const client = this.client(form, basic);
    switch (form.get("grant_type")) {
      case "client_credentials":
        if (client.kind !== "secret") return oauthError("invalid_client", "Invalid client");
        return this.issue("app", client.id, [], false);
      case "authorization_code":
        return this.exchange(form, client);
      case "refresh_token":
        return this.refreshed(form, client);
      case null:
        return oauthError("unsupported_grant_type", "grant_type parameter is missing");
      default:
        return oauthError(
          "unsupported_grant_type",
          "grant_type must be client_credentials, authorization_code or refresh_token",
        );
    }
  }

  /** The client the request names: by Basic auth with its secret, or by `client_id` alone (PKCE). */
  private client(
    form: URLSearchParams,
    basic: string | undefined,
  ): { kind: "secret" | "public"; id: string } | { kind: "bad" } {
    const m = /^Basic (\S+)$/.exec(basic ?? "");
    if (m) {
      const [id = "", secret] = Buffer.from(m[1]!, "base64").toString("utf8").split(":");
      return this.clients.get(id) === secret ? { kind: "secret", id } : { kind: "bad" };
    }
    const id = form.get("client_id") ?? "";
    const secret = form.get("client_secret");
    if (!this.clients.has(id)) return { kind: "bad" };
    if (secret !== null) return this.clients.get(id) === secret ? { kind: "secret", id } : { kind: "bad" };
    return { kind: "public", id };
  }

  private exchange(form: URLSearchParams, client: ReturnType<SpotifyAccounts["client"]>): SpotifyAnswer {
    if (client.kind === "bad") return oauthError("invalid_client", "Invalid client");
    const code = this.codes.get(form.get("code") ?? "");
    // A code is good once: Spotify answers a second exchange as an invalid one.
    if (code) this.codes.delete(form.get("code")!);
    if (!code || code.expiresAt <= this.now() || code.clientId !== client.id)
      return oauthError("invalid_grant", "Invalid authorization code");
    if (form.get("redirect_uri") !== code.redirectUri)
      return oauthError("invalid_grant", "Invalid redirect URI");
    const verifier = form.get("code_verifier");
    if (code.challenge !== null) {
      if (verifier === null || s256(verifier) !== code.challenge)
        return oauthError("invalid_grant", "code_verifier was incorrect");
    } else if (client.kind !== "secret") {
      return oauthError("invalid_client", "Invalid client");
    }
    return this.issue("user", client.id, code.scope, true);
  }

  private refreshed(form: URLSearchParams, client: ReturnType<SpotifyAccounts["client"]>): SpotifyAnswer {
    if (client.kind === "bad") return oauthError("invalid_client", "Invalid client");
    const given = form.get("refresh_token") ?? "";
    const r = this.tokens.get(given, "refresh");
    if (!r || r.clientId !== client.id) return oauthError("invalid_grant", "Invalid refresh token");
    // A public (PKCE) client's refresh token is replaced by each refresh; a confidential one's may
    // be kept. Removed only once: a second emulator on the same database may be refreshing it too.
    const rotate = client.kind === "public";
    if (rotate && !this.tokens.removeRefresh(given))
      return oauthError("invalid_grant", "Invalid refresh token");
    const answer = this.issue("user", client.id, r.scope, rotate);
    return answer;
  }

  private issue(grant: Grant, clientId: string, scope: string[], withRefresh: boolean): SpotifyAnswer {
    const access = token();
    const now = this.now();
    this.tokens.add(
      access,
      "access",
      { grant, clientId, scope, expiresAt: now + this.tokenLifetimeSeconds * 1000 },
      now,
    );
    const body: Record<string, unknown> = {
      access_token: access,
      token_type: "Bearer",
      expires_in: this.tokenLifetimeSeconds,
    };
    if (grant === "user") body.scope = scope.join(" ");
    if (withRefresh) {
      const refresh = token();
      this.tokens.add(refresh, "refresh", { grant, clientId, scope, expiresAt: null }, now);
      body.refresh_token = refresh;
    }
    return { status: 200, body };
  }
}
