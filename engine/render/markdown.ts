/** The plan as a pull-request comment: a summary table, then the changes of each recipe folded away. */
import type { Plan, PlanLine } from "../plan/types.js";
import { describeTarget, formatLine, summaryLine } from "./text.js";

/** Escapes what Markdown would read as formatting, and keeps table cells on one line. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]<>()#+!|~]/g, (c) => `\\${c}`).replace(/\r?\n/g, " ");
}

const ORDER: PlanLine["op"][] = ["add", "remove", "move", "rate", "skip"];

export function renderPlansMarkdown(plans: readonly Plan[]): string {
  const out: string[] = ["## musicsync plan", ""];
  if (plans.length === 0) return "## musicsync plan\n\nNo recipes to plan. **No changes.**\n";
  out.push("| recipe | target | mode | add | remove | move | rate | skip | result |");
  out.push("|---|---|---|---:|---:|---:|---:|---:|---|");
  for (const p of plans) {
    const s = p.summary;
    const result =
      p.errors.length > 0 ? "refused" : p.actions.length === 0 ? "no changes" : `${s.requests} requests`;
    out.push(
      `| ${escapeMarkdown(p.recipe.id)} | ${escapeMarkdown(describeTarget(p.target.spec, p.target.playlistId))} | ${p.mode} | ${s.add} | ${s.remove} | ${s.move} | ${s.rate} | ${s.skip} | ${result} |`,
    );
  }
  const changed = plans.some((p) => p.actions.length > 0);
  out.push("", changed ? "" : "**No changes.**");
  for (const p of plans) {
    const shown = p.lines
      .filter((l) => l.op !== "keep")
      .sort((a, b) => ORDER.indexOf(a.op) - ORDER.indexOf(b.op));
    if (shown.length === 0 && p.guards.length === 0 && p.errors.length === 0) continue;
    out.push(
      `<details><summary><code>${escapeMarkdown(p.recipe.id)}</code>: ${escapeMarkdown(summaryLine(p))}</summary>`,
      "",
    );
    for (const g of p.guards)
      out.push(`> **guard ${g.guard}**: ${escapeMarkdown(g.message)} (${g.blocks} held back)`);
    for (const e of p.errors) out.push(`> **error**: ${escapeMarkdown(e)}`);
    if (p.guards.length || p.errors.length) out.push("");
    if (shown.length > 0) {
      out.push("```diff");
      // Inside a code block nothing is formatting; one line per change, the symbols as in the terminal.
      for (const l of shown) out.push(formatLine(l).replace(/```/g, "'''"));
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
