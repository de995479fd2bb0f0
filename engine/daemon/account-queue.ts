/**
 * Within one daemon, the recipes of one account run one after another: a run that comes due while
 * another of its account is going waits its turn (recipes of other accounts go ahead). Across
 * processes the account's lock in the state database does the same job.
 */
export class AccountQueue {
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly waiting = new Map<string, number>();

  /** Runs `body` once every earlier body of `account` has settled. */
  run<T>(account: string, body: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(account) ?? Promise.resolve();
    this.waiting.set(account, (this.waiting.get(account) ?? 0) + 1);
    const next = previous.then(
      () => body(),
      () => body(),
    );
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(account, tail);
    void tail.then(() => {
      const left = (this.waiting.get(account) ?? 1) - 1;
      if (left === 0) {
        this.waiting.delete(account);
        if (this.tails.get(account) === tail) this.tails.delete(account);
      } else this.waiting.set(account, left);
    });
    return next;
  }

  /** Bodies queued or running for the account. */
  pending(account: string): number {
    return this.waiting.get(account) ?? 0;
  }

  /** Settles when every queued body has. */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails.values()]);
  }
}
