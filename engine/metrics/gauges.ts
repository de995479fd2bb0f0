/**
 * The gauges' values from a status report (engine/status/status.ts): what `musicsync status` shows,
 * as numbers. Pure, so the scrape reads the state once and the rest is arithmetic.
 */
import type { StatusReport } from "../status/status.js";

export interface GaugeReading {
  /** 1 while the recipe (or its whole account) is suspended, else 0. */
  suspended: { recipe: string; account: string; value: 0 | 1 }[];
  /** Per account: 1 when its credentials were last accepted, 0 when last refused; absent if never seen. */
  credentials: { account: string; value: 0 | 1 }[];
  /** Unix seconds of each recipe's last converged (or unchanged) run; absent if it never had one. */
  lastSuccess: { recipe: string; seconds: number }[];
}

export function gaugesOf(report: StatusReport): GaugeReading {
  const suspended = report.recipes.map((r) => ({
    recipe: r.recipe,
    account: r.account,
    value: r.suspended ? (1 as const) : (0 as const),
  }));
  const lastSuccess = report.recipes.flatMap((r) =>
    r.lastSuccess ? [{ recipe: r.recipe, seconds: Date.parse(r.lastSuccess.at) / 1000 }] : [],
  );
  return { suspended, credentials: credentialsOf(report), lastSuccess };
}

/**
 * Every recipe of an account keeps its own AuthValid condition; the one that changed last speaks
 * for the account (an expiry marks them all; a later accepted run marks its own recipe).
 */
function credentialsOf(report: StatusReport): GaugeReading["credentials"] {
  const latest = new Map<string, { since: number; valid: boolean }>();
  for (const r of report.recipes) {
    const c = r.conditions.find((x) => x.type === "AuthValid");
    if (!c || c.status === "Unknown" || c.since === null) continue;
    const since = Date.parse(c.since);
    const seen = latest.get(r.account);
    if (!seen || since >= seen.since) latest.set(r.account, { since, valid: c.status === "True" });
  }
  return [...latest].map(([account, v]) => ({ account, value: v.valid ? 1 : 0 }));
}
