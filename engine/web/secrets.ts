/**
 * The page's tokens: a CSRF token per action (an HMAC of a secret made at start-up, so a page of a
 * previous process no longer posts), the access token's check, and the login cookie (an HMAC of the
 * access token, so no header ever carries the token itself). Every comparison takes constant time.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export class Secrets {
  private readonly key = randomBytes(32);

  constructor(private readonly accessToken: string | null) {}

  private mac(purpose: string, value: string): string {
    return createHmac("sha256", this.key).update(`${purpose}\0${value}`).digest("base64url");
  }

  /** The token a form for this action carries. */
  csrf(kind: string, target: string): string {
    return this.mac("csrf", `${kind}\0${target}`);
  }

  csrfValid(kind: string, target: string, given: string | undefined): boolean {
    return given !== undefined && same(given, this.csrf(kind, target));
  }

  get required(): boolean {
    return this.accessToken !== null;
  }

  tokenValid(given: string | undefined): boolean {
    return this.accessToken !== null && given !== undefined && same(given, this.accessToken);
  }

  /** The login cookie's value: stands for the token without being it. */
  session(): string {
    return this.mac("session", this.accessToken ?? "");
  }

  sessionValid(given: string | undefined): boolean {
    return this.accessToken !== null && given !== undefined && same(given, this.session());
  }
}

/** Equal strings, in time that depends on neither's content (hashed first: lengths may differ). */
export function same(a: string, b: string): boolean {
  const h = (s: string) => createHmac("sha256", "compare").update(s).digest();
  return timingSafeEqual(h(a), h(b));
}
