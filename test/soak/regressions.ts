/**
 * Every seed that ever broke a promise, with what broke and the item of issue 10 it belongs to.
 * soak.test.ts runs each one; a seed stays here after its fix so the break cannot come back.
 */
export interface Regression {
  seed: number;
  found: string;
  /** The item of issue 10 (or another issue) whose code was at fault. */
  issueItem: string;
}

export const REGRESSIONS: readonly Regression[] = [
  {
    seed: 8,
    found:
      "DISLIKE recipe under `gated` faults: rate_song answered HTTP 200 without a status counted as confirmed; run converged, songs not disliked",
    issueItem: "10.4",
  },
  {
    seed: 12,
    found:
      "state lost, then the person renamed the owned playlist: the marker search compares titles only, so the next sync created a second playlist with the recipe's marker",
    issueItem: "10.2",
  },
  {
    seed: 26,
    found:
      "one `failed-status` answer to a one-id add (batch_size 1) quarantined an available song for 7 days; the mirror then stays short of it",
    issueItem: "10.4",
  },
];
