/**
 * Which kind of credentials an account's setting holds (browser headers, an OAuth token and its
 * expiry, the embedded emulator), read the way the client will read them. `musicsync doctor`, the
 * status page and the expiry notices all ask this; none of them is shown a credential's value.
 */
import { readFileSync } from "node:fs";
import { authTextKind, looksLikePath } from "../../shared/auth-text.js";
import { looksLikeToken, readToken } from "../../src/index.js";
import type { Account } from "../recipe/types.js";
import { authOption, settingName } from "./auth-setting.js";

/** What the credentials setting holds, read the way the client will read it. */
export type Credentials =
  | { kind: "emulator" }
  | { kind: "browser headers" | "OAuth headers"; where: string }
  | { kind: "OAuth token"; where: string; expiresAt: number };

/** The account's credentials; throws an AuthError (naming the setting, never the value) when unreadable. */
export function credentialsOf(
  name: string,
  account: Account,
  base: string,
  stored = false,
): Credentials | null {
  if (account.emulator) return { kind: "emulator" };
  const value = account.auth ?? account.token;
  if (!value) return null;
  const setting = { account: name, setting: account.auth ? "auth" : "token", value, base } as const;
  const { auth, inline } = authOption(setting);
  // A stored account's credentials are unsealed into its setting: said as where they are kept.
  const where = stored
    ? "the accounts stored in the state (`musicsync accounts`)"
    : inline
      ? `inline in ${settingName(setting)}`
      : looksLikePath(value)
        ? auth
        : settingName(setting);
  const text = inline ? auth : readFileSync(auth, "utf8");
  const parsed = authTextKind(text) === "json" ? parseObject(text) : null;
  if (parsed && looksLikeToken(parsed)) {
    const { token } = readToken(parsed, settingName(setting));
    return { kind: "OAuth token", where, expiresAt: token.expires_at };
  }
  const bearer = parsed && Object.entries(parsed).some(([k, v]) => isBearer(k, v));
  return { kind: bearer ? "OAuth headers" : "browser headers", where };
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function isBearer(name: string, value: unknown): boolean {
  return name.toLowerCase() === "authorization" && typeof value === "string" && /^bearer\s/i.test(value);
}
