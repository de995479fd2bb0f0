/**
 * Limits per minute: the page's actions per kind, whoever asks; wrong access tokens per client
 * address and overall, so a token cannot be found by trying. Memory is bounded: a key keeps at most
 * its limit's count of times, and past `maxKeys` keys the quiet ones, then the oldest, are dropped.
 */

const MINUTE = 60_000;

export class RateLimit {
  private readonly times = new Map<string, number[]>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 1024,
  ) {}

  private recent(key: string, now: number): number[] {
    return (this.times.get(key) ?? []).filter((t) => t > now - MINUTE);
  }

  /** Null when the key is under its limit; else the seconds until it is. Counts nothing. */
  wait(key: string): number | null {
    const now = this.now();
    const recent = this.recent(key, now);
    if (recent.length < this.perMinute) return null;
    return Math.max(1, Math.ceil((recent[0]! + MINUTE - now) / 1000));
  }

  /** Counts one for the key. */
  record(key: string): void {
    const now = this.now();
    const recent = this.recent(key, now);
    recent.push(now);
    this.times.delete(key);
    this.times.set(key, recent.slice(-this.perMinute));
    if (this.times.size > this.maxKeys) this.forget(now);
  }

  /** Null when the action may go ahead (and counts it); else the seconds until it may. */
  take(key: string): number | null {
    const wait = this.wait(key);
    if (wait === null) this.record(key);
    return wait;
  }

  private forget(now: number): void {
    for (const [key, times] of this.times) if (times.every((t) => t <= now - MINUTE)) this.times.delete(key);
    // Still full: the least recently counted go first (a Map keeps the order keys were set in).
    for (const key of this.times.keys()) {
      if (this.times.size <= this.maxKeys) break;
      this.times.delete(key);
    }
  }
}

/** Wrong tokens a client address, and all of them together, may try in a minute. */
export const SIGN_IN_LIMITS = { perAddress: 10, overall: 30 };

/** Failed sign-ins (a wrong token at /login or as a bearer), per client address and overall. */
export class SignInLimit {
  private readonly perAddress: RateLimit;
  private readonly overall: RateLimit;

  constructor(now: () => number = Date.now, limits: typeof SIGN_IN_LIMITS = SIGN_IN_LIMITS) {
    this.perAddress = new RateLimit(limits.perAddress, now);
    this.overall = new RateLimit(limits.overall, now);
  }

  /** Null when the address may try a token; else the seconds until it may. */
  wait(address: string): number | null {
    const own = this.perAddress.wait(address);
    const all = this.overall.wait("");
    return own === null && all === null ? null : Math.max(own ?? 0, all ?? 0);
  }

  failed(address: string): void {
    this.perAddress.record(address);
    this.overall.record("");
  }
}
