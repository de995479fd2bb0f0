/** The index: every recipe's state at a glance, held plans and locks, with links to act. */

import { instant, relative } from "../status/format.js";
import { countsText, type RecipeStatus } from "../status/status.js";
import type { IndexData } from "./data.js";
import { actionLink, esc, layout, seg } from "./html.js";

function conditionsTable(r: RecipeStatus): string {
  const rows = r.conditions
    .map((c) => {
      const cls =
        c.status === "True"
          ? c.type === "Degraded"
            ? "bad"
            : "good"
          : c.status === "False"
            ? c.type === "Degraded"
              ? "good"
              : "bad"
            : "";
      return `<tr><th scope="row">${esc(c.type)}</th><td class="${cls}">${esc(c.status)}</td><td>${esc(c.reason)}: ${esc(c.message)}</td></tr>`;
    })
    .join("");
  return `<div class="scroll"><table><caption>Conditions</caption><thead><tr><th scope="col">Condition</th><th scope="col">Status</th><th scope="col">Why</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function nextRunText(r: RecipeStatus, now: number, daemon: boolean): string {
  if (r.suspended) {
    const what = r.suspended.scope === "account" ? `account ${r.account}` : "this recipe";
    return `<span class="bad">suspended</span> (${esc(what)}) since ${esc(instant(Date.parse(r.suspended.since)))}: ${esc(r.suspended.reason)}`;
  }
  if (!r.nextRun) return r.schedule ? "—" : "none: runs by hand only";
  const at = Date.parse(r.nextRun.at);
  const when = `${esc(instant(at))} (${esc(relative(at, now))})${r.nextRun.reason === "retry" ? " — a retry" : ""}`;
  // A page without a daemon runs nothing: say who will, or that nothing seen so far will.
  if (daemon) return when;
  return r.nextRun.plannedBy
    ? `${when}, planned by ${esc(r.nextRun.plannedBy)}`
    : `${when}: the schedule's next time — <span class="warn">no daemon or worker has planned it</span>, and this page runs nothing`;
}

function lastRunText(r: RecipeStatus, now: number): string {
  const l = r.lastRun;
  if (!l) return "never";
  const start = Date.parse(l.startedAt);
  const cls =
    l.result === "failed" || l.result === "partial" ? "bad" : l.result === "pending_approval" ? "warn" : "";
  return `<a href="/runs/${seg(l.id)}">run #${esc(l.id)}</a> ${esc(l.kind)}: <span class="${cls}">${esc(l.result.replace("_", " "))}</span>, ${esc(relative(start, now))}${esc(countsText(l.counts))}${l.error ? `<br>${esc(l.error)}` : ""}`;
}

function recipeSection(r: RecipeStatus, title: string | undefined, now: number, daemon: boolean): string {
  const s = r.schedule;
  const schedule = s ? `${s.cron}${s.timezone ? ` ${s.timezone}` : ""}` : "none";
  const resume = r.suspended
    ? `<li>${actionLink("resume", r.suspended.scope === "account" ? r.account : r.recipe, r.suspended.scope === "account" ? `Resume account ${r.account}` : "Resume")}</li>`
    : "";
  const id = `recipe-${esc(r.recipe)}`;
  return `<section aria-labelledby="${id}">
<h2 id="${id}">${esc(r.recipe)}${title ? ` — “${esc(title)}”` : ""}</h2>
<dl>
<dt>Account</dt><dd><a href="/accounts/${seg(r.account)}">${esc(r.account)}</a></dd>
<dt>Schedule</dt><dd>${esc(schedule)}</dd>
<dt>Next run</dt><dd>${nextRunText(r, now, daemon)}</dd>
<dt>Last run</dt><dd>${lastRunText(r, now)}</dd>
${r.consecutiveFailures > 0 ? `<dt>Failures in a row</dt><dd class="bad">${esc(r.consecutiveFailures)}</dd>` : ""}
</dl>
${conditionsTable(r)}
<ul class="actions" aria-label="Actions for ${esc(r.recipe)}">
<li>${actionLink("run", r.recipe, "Run now")}</li>
<li>${actionLink("plan", r.recipe, "Plan (dry run)")}</li>
<li><a href="/drift/${seg(r.recipe)}">Check drift</a></li>
${resume}
</ul>
</section>`;
}

function approvalsSection(data: IndexData, now: number): string {
  const list = data.report.approvals;
  if (list.length === 0) return "";
  const items = list
    .map((a) => {
      const at = Date.parse(a.heldAt);
      return `<li>${esc(a.recipe)}: <a href="/runs/${seg(a.runId)}">run #${esc(a.runId)}</a> held ${esc(relative(at, now))}: ${esc(a.reason)} — ${actionLink("approve", a.runId, "Approve")}</li>`;
    })
    .join("");
  return `<section aria-labelledby="approvals"><h2 id="approvals">Waiting for approval</h2><ul>${items}</ul></section>`;
}

function locksSection(data: IndexData, now: number): string {
  if (data.report.locks.length === 0) return "";
  const items = data.report.locks
    .map(
      (l) =>
        `<li>${esc(l.account)}: held by ${esc(l.host ?? l.holder)}${l.pid !== null ? ` pid ${esc(l.pid)}` : ""}, heartbeat ${esc(relative(Date.parse(l.heartbeatAt), now))}</li>`,
    )
    .join("");
  return `<section aria-labelledby="locks"><h2 id="locks">Locks</h2><ul>${items}</ul></section>`;
}

export function indexPage(data: IndexData): string {
  const now = Date.parse(data.report.at);
  const recipes =
    data.report.recipes.length === 0
      ? data.loading
        ? "<p>The daemon is still loading its recipes: reload in a moment.</p>"
        : "<p>No recipes.</p>"
      : data.report.recipes.map((r) => recipeSection(r, data.titles[r.recipe], now, data.daemon)).join("\n");
  const mode = data.daemon
    ? "The daemon runs the scheduled recipes."
    : "Read from the state; no schedule runs here.";
  return layout({
    title: "Recipes",
    body: `<p>${esc(mode)} As of ${esc(instant(now))}.</p>\n${approvalsSection(data, now)}\n${recipes}\n${locksSection(data, now)}`,
  });
}
