/** The plan as a pull-request comment: a summary table, then the changes of each recipe folded away. */
import type { Plan, PlanLine } from "../plan/types.js";
import {
  describeTarget,
  failedIds,
  failedLine,
  heldLine,
  type PlanFailure,
  partLine,
  shownLines,
  summaryLine,
} from "./text.js";

/** Escapes what Markdown would read as formatting, and keeps table cells on one line. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]<>()#+!|~]/g, (c) => `\\${c}`).replace(/\r?\n/g, " ");
}

const ORDER: PlanLine["op"][] = ["add", "remove", "move", "rate", "skip"];

/** A table row for a recipe that has no plan: its target and mode when known, the counts empty. */
function failureRow(f: PlanFailure): string {
  const target = f.target ? escapeMarkdown(describeTarget(f.target, null)) : "";
  return `| ${escapeMarkdown(f.recipe)} | ${target} | ${f.mode ?? ""} | | | | | | **failed** |`;
}

/**
 * The verdict under the table: a failure wins over "No changes." — a pull request whose plan could
 * not be read must never look like one that changes nothing.
 */
function verdict(plans: readonly Plan[], failed: readonly PlanFailure[]): string {
  const line = failedLine(failedIds(plans, failed), plans.length + failed.length);
  if (line) return `**${escapeMarkdown(line)}**`;
  return plans.some((p) => p.actions.length > 0) ? "" : "**No changes.**";
}

/**
 * `verbose`: every skipped item on a line of its own; else a reason's many skips are one line, as
 * in the terminal (a `limit:` would otherwise list every dropped item in each pull request).
 */
export function renderPlansMarkdown(
  plans: readonly Plan[],
  failed: readonly PlanFailure[] = [],
  options: { verbose?: boolean } = {},
): string {
  const out: string[] = ["## musicsync plan", ""];
  if (plans.length === 0 && failed.length === 0)
    return "## musicsync plan\n\nNo recipes to plan. **No changes.**\n";
  out.push("| recipe | target | mode | add | remove | move | rate | skip | result |");
  out.push("|---|---|---|---:|---:|---:|---:|---:|---|");
  for (const p of plans) {
    const s = p.summary;
    const result =
      p.errors.length > 0
        ? "refused"
        : p.actions.length === 0
          ? "no changes"
          : `${s.requests} requests${p.heldForApproval ? ", held for approval" : ""}`;
    out.push(
      `| ${escapeMarkdown(p.recipe.id)} | ${escapeMarkdown(describeTarget(p.target.spec, p.target.playlistId))} | ${p.mode} | ${s.add} | ${s.remove} | ${s.move} | ${s.rate} | ${s.skip} | ${result} |`,
    );
  }
  for (const f of failed) out.push(failureRow(f));
  out.push("", verdict(plans, failed), "");
  // Failures are not folded away: the reason is what the reviewer must see.
  for (const f of failed)
    out.push(`> **${escapeMarkdown(f.recipe)} failed**: ${escapeMarkdown(f.error)}`, "");
  // Nor is a plan that would wait for a person: merging the change does not apply it.
  for (const p of plans) {
    const held = heldLine(p);
    if (held) out.push(`> **${escapeMarkdown(p.recipe.id)}**: ${escapeMarkdown(held)}`, "");
  }
  for (const p of plans) {
    const shown = shownLines(
      p.lines.filter((l) => l.op !== "keep"),
      options.verbose === true,
    ).sort((a, b) => ORDER.indexOf(a.op) - ORDER.indexOf(b.op));
    const notes = p.notes ?? [];
    if (shown.length === 0 && p.guards.length === 0 && p.errors.length === 0 && notes.length === 0) continue;
    out.push(
      `<details><summary><code>${escapeMarkdown(p.recipe.id)}</code>: ${escapeMarkdown(summaryLine(p))}</summary>`,
      "",
    );
    const part = partLine(p);
    if (part) out.push(`> ${escapeMarkdown(part)}`);
    for (const g of p.guards)
      out.push(`> **guard ${g.guard}**: ${escapeMarkdown(g.message)} (${g.blocks} held back)`);
    for (const e of p.errors) out.push(`> **error**: ${escapeMarkdown(e)}`);
    for (const n of notes)
      out.push(`> **${n.kind}**: ${escapeMarkdown(n.text)} (${escapeMarkdown(n.source)})`);
    if (part || p.guards.length || p.errors.length || notes.length) out.push("");
    if (shown.length > 0) {
      out.push("```diff");
      // Inside a code block nothing is formatting; one line per change, the symbols as in the terminal.
      for (const l of shown) out.push(l.text.replace(/```/g, "'''"));
      out.push("```");
    }
    out.push("", "</details>", "");
  }
  return (
    out
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trimEnd() + "\n"
  );
}
