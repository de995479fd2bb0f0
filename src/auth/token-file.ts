import { credentialJson, writeSecretFile } from "../../shared/secret-file.js";
import { AuthError, ErrorCodes } from "../errors.js";
import type { OAuthToken } from "../options.js";

/** A loaded token: the six keys, plus whatever else the file held (kept when it is rewritten). */
export interface StoredToken {
  token: Required<OAuthToken>;
  extra: Record<string, unknown>;
}

const SIX_KEYS = [
  "access_token",
  "refresh_token",
  "token_type",
  "scope",
  "expires_at",
  "expires_in",
] as const;

/** Whether a parsed object is meant as an OAuth token (rather than a set of headers). */
export function looksLikeToken(value: Record<string, unknown>): boolean {
  return "access_token" in value || "refresh_token" in value;
}

/**
 * Checks a token object (docs/PROTOCOL.md#oauth). `access_token` and `refresh_token` are required; a missing
 * `expires_at`/`expires_in` counts as 0, which makes the first use refresh; `token_type` defaults to
 * `Bearer`. Unknown keys (e.g. `refresh_token_expires_in`) are accepted and preserved.
 */
export function readToken(value: Record<string, unknown>, source: string): StoredToken {
  const text = (key: string): string | undefined => {
    const v = value[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "string") {
      throw new AuthError(ErrorCodes.AUTH_INVALID, `${source}: the token's \`${key}\` is not a string`);
    }
    return v;
  };
  const seconds = (key: string): number => {
    const v = value[key];
    if (v === undefined || v === null) return 0;
    const n = typeof v === "string" ? Number(v) : v;
    if (typeof n !== "number" || !Number.isFinite(n)) {
      throw new AuthError(ErrorCodes.AUTH_INVALID, `${source}: the token's \`${key}\` is not a number`);
    }
    return n;
  };
  const access = text("access_token");
  const refresh = text("refresh_token");
  const missing = [!access && "access_token", !refresh && "refresh_token"].filter(Boolean);
  if (missing.length > 0) {
    throw new AuthError(
      ErrorCodes.AUTH_INVALID,
      `${source} is an incomplete OAuth token: it lacks ${missing.map((m) => `\`${m}\``).join(" and ")}; ` +
        "run `musicapi oauth` to create a new one",
    );
  }
  const extra: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!(SIX_KEYS as readonly string[]).includes(key)) extra[key] = v;
  }
  return {
    token: {
      access_token: access!,
      refresh_token: refresh!,
      token_type: text("token_type") || "Bearer",
      scope: text("scope") ?? "",
      expires_at: seconds("expires_at"),
      expires_in: seconds("expires_in"),
    },
    extra,
  };
}

/** Saves a token as ytmusicapi does (the six keys), keeping any extra keys the file had. */
export async function writeToken(path: string, stored: StoredToken): Promise<void> {
  await writeSecretFile(path, `${credentialJson({ ...stored.extra, ...stored.token })}\n`);
}
