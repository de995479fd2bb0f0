/** A run's page: its outcome and each journaled write with the songs it named, by title. */

import { duration, instant } from "../status/format.js";
import { countsText } from "../status/status.js";
import type { RunAction, RunDetail } from "./data.js";
import { actionLink, type Html, html, layout, seg } from "./html.js";

const STATUS_WORD: Record<string, string> = {
  confirmed: "confirmed",
  failed: "failed",
  unknown: "sent, no answer",
  pending: "not sent",
  sent: "sent",
};

function itemsList(a: RunAction): Html | "" {
  if (a.items.length === 0) return "";
  const items = a.items.map(
    (i) => html`<li>${i.title ? html`${i.title} <small>(${i.videoId})</small>` : i.videoId}</li>`,
  );
  return html`<details><summary>${a.items.length} song${a.items.length === 1 ? "" : "s"}</summary><ul>${items}</ul></details>`;
}

function actionRow(a: RunAction): Html {
  const cls = a.status === "failed" ? "bad" : a.status === "confirmed" ? "good" : "warn";
  return html`<li><strong>${a.seq}.</strong> ${a.summary} — <span class="${cls}">${STATUS_WORD[a.status] ?? a.status}</span>${a.attempts > 1 ? ` (${a.attempts} attempts)` : ""}${a.error ? `: ${a.error}` : ""}${itemsList(a)}</li>`;
}

export function runPage(r: RunDetail): string {
  const took = r.durationMs !== null ? ` in ${duration(r.durationMs)}` : "";
  const cls =
    r.result === "failed" || r.result === "partial"
      ? "bad"
      : r.result === "pending_approval"
        ? "warn"
        : "good";
  const actions =
    r.actions.length === 0
      ? html`<p>No writes were journaled for this run.</p>`
      : html`<ol class="actions">${r.actions.map(actionRow)}</ol>`;
  const undo = r.undoable
    ? html`<p>${actionLink("undo", r.id, "Undo this run")}</p>`
    : html`<p>Cannot be undone: ${r.undoRefusal ?? ""}</p>`;
  const approve = r.awaitingApproval
    ? html`<p>${actionLink("approve", r.id, "Approve the held plan")}</p>`
    : "";
  return layout({
    title: `Run #${r.id}`,
    body: html`<section aria-labelledby="outcome"><h2 id="outcome">Outcome</h2>
<dl>
<dt>Recipe</dt><dd>${r.recipe}</dd>
<dt>Account</dt><dd><a href="/accounts/${seg(r.account)}">${r.account}</a></dd>
<dt>Kind</dt><dd>${r.kind}</dd>
<dt>Result</dt><dd class="${cls}">${r.result.replace("_", " ")}${took}${countsText(r.counts)}</dd>
<dt>Started</dt><dd>${instant(Date.parse(r.startedAt))}</dd>
${r.error ? html`<dt>Error</dt><dd>${r.error}</dd>` : ""}
</dl>${approve}${undo}</section>
<section aria-labelledby="writes"><h2 id="writes">Writes</h2>${actions}</section>`,
  });
}
