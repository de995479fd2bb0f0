/**
 * The plan for a terminal: one line per change with a one-character symbol (`+` add, `-` remove,
 * `~` move, `*` rate, `!` skip), guards, then a summary line, or an explicit "No changes.".
 * Kept rows are counted, not listed, unless `verbose`; skipped items of one reason beyond a few are
 * one line (how many, the reason, the first few), unless `verbose`.
 */
import type { Plan, PlanAction, PlanLine } from "../plan/types.js";
import type { Mode, TargetSpec } from "../recipe/types.js";
import type { RecipeRun } from "../run/runner.js";
import { plural as counted } from "../status/format.js";

/**
 * A recipe that could not be planned (its auth, a read, the connection failed): it has no plan, but
 * every rendering still lists it with the reason, so a failure never looks like "No changes.".
 */
export interface PlanFailure {
  recipe: string;
  /** What the recipe writes and how, when the recipe was loaded (always, from the CLI). */
  target: TargetSpec | null;
  mode: Mode | null;
  /** Why: the error, one line, with no credential in it. */
  error: string;
}

export interface TextOptions {
  /** Also list kept rows, and every skipped item one by one (`-v`). */
  verbose?: boolean;
  /** Wrap symbols in ANSI colours (only for a terminal). */
  color?: boolean;
}

const SYMBOL: Record<PlanLine["op"], string> = {
  add: "+ add",
  remove: "- remove",
  move: "~ move",
  rate: "* rate",
  skip: "! skip",
  keep: "  keep",
};

const COLOR: Record<PlanLine["op"], string> = {
  add: "\u001b[32m",
  remove: "\u001b[31m",
  move: "\u001b[33m",
  rate: "\u001b[36m",
  skip: "\u001b[35m",
  keep: "\u001b[2m",
};

export function describeTarget(spec: TargetSpec, playlistId: string | null): string {
  switch (spec.type) {
    case "playlist": {
      const name = spec.playlist.title ? `"${spec.playlist.title}"` : "";
      const id = playlistId ?? spec.playlist.id;
      return `playlist ${[name, id ? `(${id})` : "(new)"].filter(Boolean).join(" ")}`;
    }
    case "library":
      return `library ${spec.kind}`;
    case "likes":
      return spec.rating === "LIKE" ? "liked songs" : "disliked songs";
    case "subscriptions":
      return "subscriptions";
    case "saved_episodes":
      return "saved episodes";
  }
}

export function formatLine(line: PlanLine): string {
  const where = line.source !== null && line.op !== "skip" ? ` [${line.source} #${line.rank}]` : "";
  const id = line.videoId && !line.label.includes(line.videoId) ? ` <${line.videoId}>` : "";
  const reason = line.reason ? ` (${line.reason})` : "";
  return `${SYMBOL[line.op]} ${line.label}${id}${where}${reason}`;
}

function describeAction(action: PlanAction): string | null {
  if (action.kind === "create_playlist") {
    const n = action.videoIds.length;
    return `+ create playlist "${action.title}" (${action.privacy}, ${n} ${n === 1 ? "item" : "items"} at once)`;
  }
  if (action.kind === "edit_playlist") {
    const parts: string[] = [];
    if (action.title !== undefined) parts.push(`title → "${action.title}"`);
    if (action.description !== undefined) parts.push("description");
    if (action.privacy !== undefined) parts.push(`privacy → ${action.privacy}`);
    return `~ edit playlist ${parts.join(", ")}`;
  }
  return null;
}

function plural(n: number, word: string): string {
  return `${n} ${word}`;
}

/** `Plan: 3 to add, 1 to remove, 2 to move, 0 to rate.` (skips and kept rows after it). */
export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  if (plan.errors.length > 0) return `Plan refused: ${plan.errors.join("; ")}`;
  if (plan.actions.length === 0) {
    return `No changes. ${plural(s.keep, "unchanged")}, ${plural(s.skip, "skipped")}.`;
  }
  const extra = [s.create ? "1 playlist to create" : "", s.edit ? "1 playlist to edit" : ""].filter(Boolean);
  return (
    `Plan: ${s.add} to add, ${s.remove} to remove, ${s.move} to move, ${s.rate} to rate` +
    (extra.length ? `, ${extra.join(", ")}` : "") +
    `; ${s.skip} skipped, ${s.keep} unchanged; ${plural(s.requests, s.requests === 1 ? "write request" : "write requests")}.`
  );
}

export function renderPlanText(plan: Plan, options: TextOptions = {}): string {
  const paint = (op: PlanLine["op"], text: string) => (options.color ? `${COLOR[op]}${text}\u001b[0m` : text);
  const out: string[] = [];
  out.push(`${plan.recipe.id}: ${describeTarget(plan.target.spec, plan.target.playlistId)} [${plan.mode}]`);
  const part = partLine(plan);
  if (part) out.push(`  ${part}`);
  for (const a of plan.actions) {
    const d = describeAction(a);
    if (d) out.push(`  ${d}`);
  }
  for (const { op, text } of shownLines(plan.lines, options.verbose === true))
    out.push(`  ${paint(op, text)}`);
  for (const g of plan.guards) out.push(`  ! guard ${g.guard}: ${g.message} (${g.blocks} held back)`);
  for (const e of plan.errors) out.push(`  ! error: ${e}`);
  for (const n of plan.notes ?? []) out.push(`  ! ${n.kind} ${n.text} [${n.source}]`);
  const held = heldLine(plan);
  if (held) out.push(`  ${held}`);
  out.push(summaryLine(plan));
  return out.join("\n") + "\n";
}

/** A reason with more skipped items than this is said in one line (a `limit:` drops hundreds, every run). */
const SKIPS_LISTED = 3;

/**
 * The plan's lines as shown, in order: kept rows only when verbose, and the skipped items of a
 * reason with more than SKIPS_LISTED of them as one line where the first of them stood.
 */
export function shownLines(
  lines: readonly PlanLine[],
  verbose: boolean,
): { op: PlanLine["op"]; text: string }[] {
  const skips = verbose ? null : skipGroups(lines);
  const out: { op: PlanLine["op"]; text: string }[] = [];
  for (const line of lines) {
    if (line.op === "keep" && !verbose) continue;
    const group = line.op === "skip" ? skips?.get(reasonKind(line.reason)) : undefined;
    if (group === undefined) out.push({ op: line.op, text: formatLine(line) });
    else if (group[0] === line) out.push({ op: "skip", text: skipSummary(group) });
  }
  return out;
}

/**
 * The reason a skip is counted under. Reasons that name the earlier item each one repeats (dedupe,
 * expand) count as one: a hundred duplicates are one line, not a hundred of different wording.
 */
export function reasonKind(reason: string | null): string {
  const text = reason ?? "";
  if (text.startsWith("duplicate of ")) return "duplicate of an earlier item";
  const listed = /^(artists?|album) already listed\b/.exec(text);
  return listed ? `${listed[1]} already listed` : text;
}

/** The skip lines of each reason that has more than SKIPS_LISTED of them, in plan order. */
function skipGroups(lines: readonly PlanLine[]): Map<string, PlanLine[]> {
  const byReason = new Map<string, PlanLine[]>();
  for (const line of lines) {
    if (line.op !== "skip") continue;
    const reason = reasonKind(line.reason);
    const group = byReason.get(reason);
    if (group) group.push(line);
    else byReason.set(reason, [line]);
  }
  for (const [reason, group] of byReason) if (group.length <= SKIPS_LISTED) byReason.delete(reason);
  return byReason;
}

/** `! skip 150 items (over the limit of 50): A — X; B — Y; C — Z; … (-v lists each)` */
function skipSummary(group: readonly PlanLine[]): string {
  const kind = reasonKind(group[0]?.reason ?? null);
  const reason = kind ? ` (${kind})` : "";
  const examples = group.slice(0, SKIPS_LISTED).map((l) => l.label);
  return `${SYMBOL.skip} ${group.length} items${reason}: ${examples.join("; ")}; … (-v lists each)`;
}

/** A shown plan that `policy.require_approval` would hold: why, and the two ways to let it through. */
export function heldLine(plan: Plan): string | null {
  if (!plan.heldForApproval) return null;
  return `held for approval when applied: ${plan.heldForApproval} (sync --approve, or approve the held run)`;
}

/**
 * `part 2 of 3: "Mix (2)"` for a plan of a split recipe (`overflow: split`): the items listed under
 * it go to that playlist. A part no item of the list reaches says it is emptied, not deleted.
 */
export function partLine(plan: Plan): string | null {
  if (!plan.part) return null;
  const spec = plan.target.spec;
  const title = spec.type === "playlist" && spec.playlist.title ? ` "${spec.playlist.title}"` : "";
  const head = `part ${plan.part.index} of ${plan.part.of}:${title || ` ${plan.recipe.id}`}`;
  if (plan.part.index === 1 || plan.lines.some((l) => l.source !== null && l.op !== "skip")) return head;
  const rows = plan.mode === "append" ? "its rows stay" : "the engine's rows in it are removed";
  return `${head} — no item of the list reaches it any more: ${rows}; the playlist is kept (emptied, not deleted)`;
}

/** `bad: playlist "Mix" (new) [mirror]`, the reason, and `Not planned.` */
export function renderFailureText(failure: PlanFailure): string {
  const what = failure.target ? ` ${describeTarget(failure.target, null)}` : "";
  const mode = failure.mode ? ` [${failure.mode}]` : "";
  return `${failure.recipe}:${what}${mode}\n  ! error: ${failure.error}\nNot planned.\n`;
}

/**
 * The last line when anything failed: `Failed: 2 of 3 recipes (a, b).`; null when nothing did.
 * A refused plan (its own errors) counts as failed, as its exit code does.
 */
export function failedLine(failedIds: readonly string[], total: number): string | null {
  if (failedIds.length === 0) return null;
  return `Failed: ${failedIds.length} of ${total} recipe${total === 1 ? "" : "s"} (${failedIds.join(", ")}).`;
}

/** Ids of the recipes that failed: refused plans, then recipes with no plan at all. */
export function failedIds(plans: readonly Plan[], failed: readonly PlanFailure[]): string[] {
  return [
    ...plans.filter((p) => p.errors.length > 0).map((p) => p.recipe.id),
    ...failed.map((f) => f.recipe),
  ];
}

export function renderPlansText(
  plans: readonly Plan[],
  options: TextOptions = {},
  failed: readonly PlanFailure[] = [],
): string {
  if (plans.length === 0 && failed.length === 0) return "No recipes to plan.\nNo changes.\n";
  const parts = [...plans.map((p) => renderPlanText(p, options)), ...failed.map(renderFailureText)];
  const last = failedLine(failedIds(plans, failed), plans.length + failed.length);
  return parts.join("\n") + (last ? `\n${last}\n` : "");
}

/** What became of one recipe's run, in one line (after `<recipe>: `). */
export function resultLine(run: RecipeRun): string {
  const a = run.apply;
  switch (run.outcome) {
    case "no_changes":
      return "Applied: nothing to do.";
    case "converged":
      return `Applied: ${counted(a?.outcomes.length ?? 0, "action")} in ${counted(a?.requests ?? 0, "write request")}; converged.`;
    case "partial":
      return `Applied partly: ${run.error ?? "some actions failed"}`;
    case "changes":
      return "Not applied (dry run).";
    case "interrupted":
      return `Interrupted: ${run.error ?? "the run was cut short"}`;
    default:
      return `Not applied: ${run.error ?? run.outcome}`;
  }
}
