/** A run's page: its outcome and each journaled write with the songs it named, by title. */

import { duration, instant } from "../status/format.js";
import { countsText } from "../status/status.js";
import type { RunAction, RunDetail } from "./data.js";
import { actionLink, esc, layout, seg } from "./html.js";

const STATUS_WORD: Record<string, string> = {
  confirmed: "confirmed",
  failed: "failed",
  unknown: "sent, no answer",
  pending: "not sent",
  sent: "sent",
};

function itemsList(a: RunAction): string {
  if (a.items.length === 0) return "";
  const items = a.items
    .map((i) => `<li>${i.title ? `${esc(i.title)} <small>(${esc(i.videoId)})</small>` : esc(i.videoId)}</li>`)
    .join("");
  return `<details><summary>${esc(a.items.length)} song${a.items.length === 1 ? "" : "s"}</summary><ul>${items}</ul></details>`;
}

function actionRow(a: RunAction): string {
  const cls = a.status === "failed" ? "bad" : a.status === "confirmed" ? "good" : "warn";
  return `<li><strong>${esc(a.seq)}.</strong> ${esc(a.summary)} — <span class="${cls}">${esc(STATUS_WORD[a.status] ?? a.status)}</span>${a.attempts > 1 ? ` (${esc(a.attempts)} attempts)` : ""}${a.error ? `: ${esc(a.error)}` : ""}${itemsList(a)}</li>`;
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
      ? "<p>No writes were journaled for this run.</p>"
      : `<ol class="actions">${r.actions.map(actionRow).join("")}</ol>`;
  const undo = r.undoable
    ? `<p>${actionLink("undo", r.id, "Undo this run")}</p>`
    : `<p>Cannot be undone: ${esc(r.undoRefusal ?? "")}</p>`;
  const approve = r.awaitingApproval ? `<p>${actionLink("approve", r.id, "Approve the held plan")}</p>` : "";
  return layout({
    title: `Run #${r.id}`,
    body: `<section aria-labelledby="outcome"><h2 id="outcome">Outcome</h2>
<dl>
<dt>Recipe</dt><dd>${esc(r.recipe)}</dd>
<dt>Account</dt><dd><a href="/accounts/${seg(r.account)}">${esc(r.account)}</a></dd>
<dt>Kind</dt><dd>${esc(r.kind)}</dd>
<dt>Result</dt><dd class="${cls}">${esc(r.result.replace("_", " "))}${esc(took)}${esc(countsText(r.counts))}</dd>
<dt>Started</dt><dd>${esc(instant(Date.parse(r.startedAt)))}</dd>
${r.error ? `<dt>Error</dt><dd>${esc(r.error)}</dd>` : ""}
</dl>${approve}${undo}</section>
<section aria-labelledby="writes"><h2 id="writes">Writes</h2>${actions}</section>`,
  });
}
