/** Actions from the page are limited per kind: a few per minute, whoever asks. */

export class RateLimit {
  private readonly times = new Map<string, number[]>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Null when the action may go ahead (and counts it); else the seconds until it may. */
  take(kind: string): number | null {
    const now = this.now();
    const recent = (this.times.get(kind) ?? []).filter((t) => t > now - 60_000);
    if (recent.length >= this.perMinute) {
      this.times.set(kind, recent);
      return Math.max(1, Math.ceil((recent[0]! + 60_000 - now) / 1000));
    }
    recent.push(now);
    this.times.set(kind, recent);
    return null;
  }
}
