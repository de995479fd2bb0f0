/** The index: every recipe's state at a glance, held plans and locks, with links to act. */

import { instant, relative } from "../status/format.js";
import { countsText, type RecipeStatus } from "../status/status.js";
import type { IndexData } from "./data.js";
import { actionLink, type Html, html, join, layout, seg } from "./html.js";

function conditionsTable(r: RecipeStatus): Html {
  const rows = r.conditions.map((c) => {
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
    return html`<tr><th scope="row">${c.type}</th><td class="${cls}">${c.status}</td><td>${c.reason}: ${c.message}</td></tr>`;
  });
  return html`<div class="scroll"><table><caption>Conditions</caption><thead><tr><th scope="col">Condition</th><th scope="col">Status</th><th scope="col">Why</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function nextRunText(r: RecipeStatus, now: number, daemon: boolean): Html | string {
  if (r.suspended) {
    const what = r.suspended.scope === "account" ? `account ${r.account}` : "this recipe";
    return html`<span class="bad">suspended</span> (${what}) since ${instant(Date.parse(r.suspended.since))}: ${r.suspended.reason}`;
  }
  if (!r.nextRun) return r.schedule ? "—" : "none: runs by hand only";
  const at = Date.parse(r.nextRun.at);
  const when = html`${instant(at)} (${relative(at, now)})${r.nextRun.reason === "retry" ? " — a retry" : ""}`;
  // A page without a daemon runs nothing: say who will, or that nothing seen so far will.
  if (daemon) return when;
  return r.nextRun.plannedBy
    ? html`${when}, planned by ${r.nextRun.plannedBy}`
    : html`${when}: the schedule's next time — <span class="warn">no daemon or worker has planned it</span>, and this page runs nothing`;
}

function lastRunText(r: RecipeStatus, now: number): Html | string {
  const l = r.lastRun;
  if (!l) return "never";
  const start = Date.parse(l.startedAt);
  const cls =
    l.result === "failed" || l.result === "partial" ? "bad" : l.result === "pending_approval" ? "warn" : "";
  return html`<a href="/runs/${seg(l.id)}">run #${l.id}</a> ${l.kind}: <span class="${cls}">${l.result.replace("_", " ")}</span>, ${relative(start, now)}${countsText(l.counts)}${l.error ? html`<br>${l.error}` : ""}`;
}

function recipeSection(r: RecipeStatus, title: string | undefined, now: number, daemon: boolean): Html {
  const s = r.schedule;
  const schedule = s ? `${s.cron}${s.timezone ? ` ${s.timezone}` : ""}` : "none";
  const resume = r.suspended
    ? html`<li>${actionLink("resume", r.suspended.scope === "account" ? r.account : r.recipe, r.suspended.scope === "account" ? `Resume account ${r.account}` : "Resume")}</li>`
    : "";
  const id = html`recipe-${r.recipe}`;
  return html`<section aria-labelledby="${id}">
<h2 id="${id}">${r.recipe}${title ? ` — “${title}”` : ""}</h2>
<dl>
<dt>Account</dt><dd><a href="/accounts/${seg(r.account)}">${r.account}</a></dd>
<dt>Schedule</dt><dd>${schedule}</dd>
<dt>Next run</dt><dd>${nextRunText(r, now, daemon)}</dd>
<dt>Last run</dt><dd>${lastRunText(r, now)}</dd>
${r.consecutiveFailures > 0 ? html`<dt>Failures in a row</dt><dd class="bad">${r.consecutiveFailures}</dd>` : ""}
</dl>
${conditionsTable(r)}
<ul class="actions" aria-label="Actions for ${r.recipe}">
<li>${actionLink("run", r.recipe, "Run now")}</li>
<li>${actionLink("plan", r.recipe, "Plan (dry run)")}</li>
<li><a href="/drift/${seg(r.recipe)}">Check drift</a></li>
${resume}
</ul>
</section>`;
}

function approvalsSection(data: IndexData, now: number): Html | "" {
  const list = data.report.approvals;
  if (list.length === 0) return "";
  const items = list.map((a) => {
    const at = Date.parse(a.heldAt);
    return html`<li>${a.recipe}: <a href="/runs/${seg(a.runId)}">run #${a.runId}</a> held ${relative(at, now)}: ${a.reason} — ${actionLink("approve", a.runId, "Approve")}</li>`;
  });
  return html`<section aria-labelledby="approvals"><h2 id="approvals">Waiting for approval</h2><ul>${items}</ul></section>`;
}

function locksSection(data: IndexData, now: number): Html | "" {
  if (data.report.locks.length === 0) return "";
  const items = data.report.locks.map(
    (l) =>
      html`<li>${l.account}: held by ${l.host ?? l.holder}${l.pid !== null ? ` pid ${l.pid}` : ""}, heartbeat ${relative(Date.parse(l.heartbeatAt), now)}</li>`,
  );
  return html`<section aria-labelledby="locks"><h2 id="locks">Locks</h2><ul>${items}</ul></section>`;
}

export function indexPage(data: IndexData): string {
  const now = Date.parse(data.report.at);
  const recipes =
    data.report.recipes.length === 0
      ? data.loading
        ? html`<p>The daemon is still loading its recipes: reload in a moment.</p>`
        : html`<p>No recipes.</p>`
      : join(
          data.report.recipes.map((r) => recipeSection(r, data.titles[r.recipe], now, data.daemon)),
          "\n",
        );
  const mode = data.daemon
    ? "The daemon runs the scheduled recipes."
    : "Read from the state; no schedule runs here.";
  return layout({
    title: "Recipes",
    body: html`<p>${mode} As of ${instant(now)}.</p>\n${approvalsSection(data, now)}\n${recipes}\n${locksSection(data, now)}`,
  });
}
