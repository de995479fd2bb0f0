/**
 * `musicsync drift`: what changed on the service outside the engine since a recipe's last apply —
 * rows the person added or removed (or reordered), the playlist's title, privacy or description
 * changed, the playlist deleted. The baseline is the snapshot the runner saves after each apply;
 * the comparison is pure, the read of the target is the only I/O (no write, no lock).
 */
import { ServiceError } from "../../src/index.js";
import type { EngineClient } from "../apply/client.js";
import { targetKey } from "../plan/plan.js";
import type { LoadedRecipe } from "../recipe/types.js";
import type { EngineState, Snapshot, SnapshotMeta } from "../state/types.js";
import { readTarget } from "../targets/read.js";
import { instant, plural } from "./format.js";

export interface DriftRow {
  key: string;
  setVideoId: string | null;
  /** The row's title when the service still shows the row. */
  title: string | null;
}

export type DriftChange =
  | { kind: "playlist_deleted"; playlistId: string | null }
  | { kind: "rows_added"; rows: DriftRow[] }
  | { kind: "rows_removed"; rows: DriftRow[] }
  | { kind: "order_changed" }
  | { kind: "title_changed"; from: string | null; to: string | null }
  | { kind: "privacy_changed"; from: string | null; to: string | null }
  | { kind: "description_changed"; from: string | null; to: string | null };

export interface DriftReport {
  recipe: string;
  account: string;
  /** The target's state key (`playlist/PL…`, `likes`…). */
  target: string | null;
  /** The last apply's snapshot compared against; null when the recipe was never applied. */
  baseline: { runId: number | null; takenAt: string } | null;
  drifted: boolean;
  changes: DriftChange[];
}

/** The target as just read, reduced to what a snapshot holds. */
export interface CurrentTarget {
  exists: boolean;
  rows: DriftRow[];
  meta: SnapshotMeta | null;
}

/** Row identity: the row id where the target has one (playlists), else the key, copy by copy. */
function identities(rows: readonly { key: string; setVideoId: string | null }[]): string[] {
  const seen = new Map<string, number>();
  return rows.map((r) => {
    if (r.setVideoId) return `row:${r.setVideoId}`;
    const n = (seen.get(r.key) ?? 0) + 1;
    seen.set(r.key, n);
    return `key:${r.key}#${n}`;
  });
}

export function compareWithSnapshot(snapshot: Snapshot, current: CurrentTarget): DriftChange[] {
  if (!current.exists) return [{ kind: "playlist_deleted", playlistId: snapshot.meta?.playlistId ?? null }];
  const changes: DriftChange[] = [];
  const before = snapshot.meta;
  const after = current.meta;
  if (before && after) {
    if (before.title !== after.title)
      changes.push({ kind: "title_changed", from: before.title, to: after.title });
    if (before.privacy !== after.privacy)
      changes.push({ kind: "privacy_changed", from: before.privacy, to: after.privacy });
    if (before.description !== after.description)
      changes.push({ kind: "description_changed", from: before.description, to: after.description });
  }
  const oldIds = identities(snapshot.rows);
  const newIds = identities(current.rows);
  const oldSet = new Set(oldIds);
  const newSet = new Set(newIds);
  const added = current.rows.filter((_, i) => !oldSet.has(newIds[i]!));
  const removed = snapshot.rows
    .map((r) => ({ key: r.key, setVideoId: r.setVideoId, title: null }))
    .filter((_, i) => !newSet.has(oldIds[i]!));
  if (added.length > 0) changes.push({ kind: "rows_added", rows: added });
  if (removed.length > 0) changes.push({ kind: "rows_removed", rows: removed });
  const keptOld = oldIds.filter((id) => newSet.has(id));
  const keptNew = newIds.filter((id) => oldSet.has(id));
  if (keptOld.some((id, i) => keptNew[i] !== id)) changes.push({ kind: "order_changed" });
  return changes;
}

function notFound(e: unknown): boolean {
  return e instanceof ServiceError && e.status === 404;
}

/** Reads the recipe's target and compares it with the snapshot of its last apply. */
export async function detectDrift(
  loaded: LoadedRecipe,
  state: EngineState,
  client: EngineClient,
): Promise<DriftReport> {
  const { id, account, target: spec } = loaded.recipe;
  const snapshot = await state.snapshotOf(account, id);
  const report: DriftReport = {
    recipe: id,
    account,
    target: snapshot?.target ?? null,
    baseline: snapshot ? { runId: snapshot.runId, takenAt: new Date(snapshot.takenAt).toISOString() } : null,
    drifted: false,
    changes: [],
  };
  if (!snapshot) return report;
  let current: CurrentTarget;
  try {
    // The playlist the apply left, by its id: a deleted one must not be mistaken for "none yet".
    const remembered =
      snapshot.meta?.playlistId ?? (await state.ownedPlaylist(account, id))?.playlistId ?? null;
    const read = await readTarget(spec, client, { recipeId: id, ownedPlaylistId: remembered });
    const a = read.actual;
    current = {
      exists: a.exists,
      rows: a.rows.map((r) => ({
        key: targetKey(spec, r) ?? r.videoId ?? "",
        setVideoId: r.setVideoId,
        title: r.title ?? null,
      })),
      meta:
        spec.type === "playlist"
          ? { playlistId: a.playlistId, title: a.title, description: a.description, privacy: a.privacy }
          : null,
    };
  } catch (e) {
    if (spec.type !== "playlist" || !notFound(e)) throw e;
    current = { exists: false, rows: [], meta: null };
  }
  report.changes = compareWithSnapshot(snapshot, current);
  report.drifted = report.changes.length > 0;
  return report;
}

function rowsText(rows: readonly DriftRow[]): string {
  const shown = rows.slice(0, 10).map((r) => (r.title ? `${r.key} (${r.title})` : r.key));
  return `${shown.join(", ")}${rows.length > 10 ? `, … ${rows.length - 10} more` : ""}`;
}

function changeText(c: DriftChange): string {
  switch (c.kind) {
    case "playlist_deleted":
      return `! playlist ${c.playlistId ?? ""} was deleted`;
    case "rows_added":
      return `+ ${plural(c.rows.length, "row")} added outside the engine: ${rowsText(c.rows)}`;
    case "rows_removed":
      return `- ${plural(c.rows.length, "row")} removed outside the engine: ${rowsText(c.rows)}`;
    case "order_changed":
      return "~ rows reordered outside the engine";
    case "title_changed":
      return `~ title changed: "${c.from ?? ""}" → "${c.to ?? ""}"`;
    case "privacy_changed":
      return `~ privacy changed: ${c.from ?? "?"} → ${c.to ?? "?"}`;
    case "description_changed":
      return "~ description changed";
  }
}

export function renderDriftText(reports: readonly DriftReport[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    if (!r.baseline) {
      lines.push(`${r.recipe}: never applied — nothing to compare with.`);
      continue;
    }
    const since = `since run #${r.baseline.runId ?? "?"} (${instant(Date.parse(r.baseline.takenAt))})`;
    if (!r.drifted) {
      lines.push(`${r.recipe}: no changes outside the engine ${since}.`);
      continue;
    }
    lines.push(`${r.recipe}: changed outside the engine ${since} (${r.target ?? ""}):`);
    for (const c of r.changes) lines.push(`  ${changeText(c)}`);
  }
  const drifted = reports.filter((r) => r.drifted).length;
  lines.push("", drifted === 0 ? "No drift." : `Drift in ${plural(drifted, "recipe")}.`);
  return `${lines.join("\n")}\n`;
}
