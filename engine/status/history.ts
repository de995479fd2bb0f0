/**
 * `musicsync history`: past runs, newest first, each with the writes its journal holds (what was
 * planned, what became of it). Reads only.
 */
import type { PlanAction } from "../plan/types.js";
import type { EngineState, JournalEntry } from "../state/types.js";
import { undoRefusal } from "../undo/refusal.js";
import { duration, instant, plural } from "./format.js";
import { countsText, type RunBrief, runBrief } from "./status.js";

export interface HistoryAction {
  seq: number;
  kind: string;
  target: string;
  status: string;
  attempts: number;
  summary: string;
  error: string | null;
}

export interface HistoryRun extends RunBrief {
  recipe: string;
  account: string;
  actions: HistoryAction[];
  /** `musicsync undo <id>` would take this run back (its playlist may still be gone: undo reads it). */
  undoable: boolean;
  /** Why not, when it cannot be undone. */
  undoRefusal: string | null;
}

/** One line for a journaled action, from its payload (the action as planned). */
export function describeAction(kind: string, payload: unknown): string {
  const a = payload as PlanAction;
  switch (a?.kind) {
    case "create_playlist":
      return `create playlist "${a.title}" (${a.privacy}) with ${plural(a.videoIds.length, "item")}`;
    case "edit_playlist": {
      const parts = [
        a.title !== undefined ? `title "${a.title}"` : null,
        a.privacy !== undefined ? `privacy ${a.privacy}` : null,
        a.description !== undefined ? "description" : null,
      ].filter((p): p is string => p !== null);
      return `edit playlist ${a.playlistId}: ${parts.join(", ")}`;
    }
    case "add_playlist_items":
      return `add ${plural(a.videoIds.length, "item")}: ${a.videoIds.slice(0, 5).join(", ")}${a.videoIds.length > 5 ? ", …" : ""}`;
    case "remove_playlist_items":
      return `remove ${plural(a.videos.length, "row")}: ${a.videos
        .slice(0, 5)
        .map((v) => v.videoId)
        .join(", ")}${a.videos.length > 5 ? ", …" : ""}`;
    case "move_playlist_items":
      return `move ${plural(a.moves.length, "row")}`;
    case "rate_song":
      return `rate song ${a.videoId} ${a.rating}`;
    case "rate_playlist":
      return `rate playlist ${a.playlistId} ${a.rating}`;
    case "edit_song_library_status": {
      const songs = plural(a.feedbackTokens.length, "song");
      if (a.direction === "add") return `add ${songs} to the library`;
      if (a.direction === "remove") return `remove ${songs} from the library`;
      return `change library status of ${songs}`;
    }
    case "subscribe_artists":
      return `subscribe to ${a.channelIds.join(", ")}`;
    case "unsubscribe_artists":
      return `unsubscribe from ${a.channelIds.join(", ")}`;
    case "delete_playlist":
      return `delete playlist ${a.playlistId}`;
    default:
      return kind;
  }
}

function errorOf(result: unknown): string | null {
  if (result && typeof result === "object" && "error" in result) {
    const e = (result as { error: unknown }).error;
    return typeof e === "string" ? e : null;
  }
  return null;
}

function actionOf(e: JournalEntry): HistoryAction {
  return {
    seq: e.seq,
    kind: e.kind,
    target: e.target,
    status: e.status,
    attempts: e.attempt,
    summary: describeAction(e.kind, e.payload),
    error: errorOf(e.result),
  };
}

export async function collectHistory(
  state: EngineState,
  options: { recipeId?: string; limit?: number; now?: number; maxAgeDays?: number } = {},
): Promise<HistoryRun[]> {
  const { now = Date.now(), maxAgeDays, ...which } = options;
  const runs = await state.recentRuns(which);
  const out: HistoryRun[] = [];
  for (const r of runs) {
    const journal = await state.journal(r.id);
    const before = r.kind === "plan" ? null : await state.runBefore(r.id);
    const why = undoRefusal(r.id, { run: r, before, journal }, now, maxAgeDays);
    out.push({
      recipe: r.recipeId,
      account: r.account,
      ...runBrief(r),
      actions: journal.map(actionOf),
      undoable: why === null,
      undoRefusal: why,
    });
  }
  return out;
}

const MARK: Record<string, string> = {
  confirmed: "✓",
  failed: "✗",
  unknown: "?",
  pending: "·",
  sent: "→",
};

export function renderHistoryText(runs: readonly HistoryRun[]): string {
  if (runs.length === 0) return "No runs yet.\n";
  const lines: string[] = [];
  for (const r of runs) {
    const took = r.durationMs !== null ? ` in ${duration(r.durationMs)}` : "";
    lines.push(
      `#${r.id} ${instant(Date.parse(r.startedAt))} ${r.recipe} (${r.account}) ${r.kind}: ${r.result.replace("_", " ")}${took}${countsText(r.counts)}${r.undoable ? " (undoable)" : ""}`,
    );
    if (r.error) lines.push(`    ${r.error}`);
    for (const a of r.actions) {
      const retries = a.attempts > 1 ? ` (${a.attempts} attempts)` : "";
      lines.push(
        `  ${MARK[a.status] ?? a.status} ${a.seq}. ${a.summary}${retries}${a.error ? ` — ${a.error}` : ""}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}
