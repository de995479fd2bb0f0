/**
 * What the pages show, gathered from the state (and the project file for accounts): no request to
 * the service, so a page is quick and works while a run holds the account's lock.
 */
import type { PlanAction, PlanLine } from "../plan/types.js";
import type { LoadedRecipe } from "../recipe/types.js";
import type { EngineState, JournalEntry } from "../state/types.js";
import { describeAction } from "../status/history.js";
import { collectStatus, type RunBrief, runBrief, type StatusReport } from "../status/status.js";
import { undoRefusal } from "../undo/refusal.js";

export interface IndexData {
  report: StatusReport;
  /** Each recipe's playlist title, where it has one. */
  titles: Record<string, string>;
  daemon: boolean;
  /** The daemon has not loaded its recipes yet (the page starts first). */
  loading?: boolean;
}

export async function indexData(
  state: EngineState,
  recipes: readonly LoadedRecipe[],
  now: number,
  daemon: boolean,
): Promise<IndexData> {
  const titles: Record<string, string> = {};
  for (const r of recipes) {
    const t = r.recipe.target;
    if (t.type === "playlist" && t.playlist.title) titles[r.recipe.id] = t.playlist.title;
  }
  return { report: await collectStatus(state, recipes, now), titles, daemon };
}

export interface RunItem {
  videoId: string;
  /** The song's title and artists as the plan read them; null when no plan of the run names it. */
  title: string | null;
}

export interface RunAction {
  seq: number;
  kind: string;
  status: string;
  attempts: number;
  summary: string;
  error: string | null;
  items: RunItem[];
}

export interface RunDetail extends RunBrief {
  recipe: string;
  account: string;
  actions: RunAction[];
  undoable: boolean;
  undoRefusal: string | null;
  /** The run holds a plan waiting for approval. */
  awaitingApproval: boolean;
}

/** The songs an action names, in its order. */
export function videoIdsOf(payload: unknown): string[] {
  const a = payload as PlanAction | null;
  switch (a?.kind) {
    case "create_playlist":
    case "add_playlist_items":
      return a.videoIds;
    case "remove_playlist_items":
      return a.videos.map((v) => v.videoId);
    case "move_playlist_items":
      return a.moves.map((m) => m.row.videoId);
    case "rate_song":
      return [a.videoId];
    case "edit_song_library_status":
      return a.videoIds ?? [];
    default:
      return [];
  }
}

/**
 * videoId → label from the plans the run applied or held (their lines carry the titles the sources
 * gave) and from the rows the target had before it (as read from the service). A static source's
 * new songs have no title until a later read: those show their ids.
 */
function labelsOf(plans: readonly unknown[], before: unknown): Map<string, string> {
  const labels = new Map<string, string>();
  const rows = (before as { rows?: { videoId: string; label: string }[] } | null)?.rows;
  for (const r of Array.isArray(rows) ? rows : [])
    if (r.label && r.label !== r.videoId) labels.set(r.videoId, r.label);
  for (const p of plans) {
    const lines = (p as { lines?: PlanLine[] } | null)?.lines;
    if (!Array.isArray(lines)) continue;
    for (const l of lines)
      if (l.videoId && l.label && l.label !== l.videoId && !labels.has(l.videoId))
        labels.set(l.videoId, l.label);
  }
  return labels;
}

function errorOf(result: unknown): string | null {
  const e = (result as { error?: unknown } | null)?.error;
  return typeof e === "string" ? e : null;
}

function actionOf(e: JournalEntry, labels: Map<string, string>): RunAction {
  return {
    seq: e.seq,
    kind: e.kind,
    status: e.status,
    attempts: e.attempt,
    summary: describeAction(e.kind, e.payload),
    error: errorOf(e.result),
    items: videoIdsOf(e.payload).map((videoId) => ({ videoId, title: labels.get(videoId) ?? null })),
  };
}

/** One run with its journal; null when there is no such run. */
export async function runDetail(
  state: EngineState,
  runId: number,
  now: number,
  maxAgeDays: number | undefined,
): Promise<RunDetail | null> {
  const run = await state.run(runId);
  if (!run) return null;
  const journal = await state.journal(runId);
  const before = run.kind === "plan" ? null : await state.runBefore(runId);
  const held = await state.approval(runId);
  const labels = labelsOf([before?.plan, held?.plan], before?.before);
  const why = undoRefusal(runId, { run, before, journal }, now, maxAgeDays);
  return {
    recipe: run.recipeId,
    account: run.account,
    ...runBrief(run),
    actions: journal.map((e) => actionOf(e, labels)),
    undoable: why === null,
    undoRefusal: why,
    awaitingApproval: held?.status === "pending",
  };
}
