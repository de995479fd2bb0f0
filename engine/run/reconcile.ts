/**
 * After a run was killed, its journal holds writes marked `sent` whose answer never got recorded.
 * Reading the target again says which of them happened: rows an interrupted add put there are the
 * engine's (so `sync` mode may remove them later), rows an interrupted remove took away are no
 * longer owned. Pure: the runner persists the result only when it is about to write.
 */
import type { ActualTarget, PlanAction } from "../plan/types.js";
import type { Item } from "../sources/item.js";
import type { JournalEntry, OwnedRow } from "../state/types.js";

export interface Reconciliation {
  ownedAdds: OwnedRow[];
  ownedRemoves: { itemKey: string; setVideoId: string | null }[];
  /** The verdict on each unfinished entry, to be written back to the journal. */
  verdicts: { runId: number; seq: number; status: "confirmed" | "failed" }[];
  /** Runs left `running` by the interruption. */
  runs: number[];
}

function rowKey(r: Item): string | null {
  return r.videoId ?? r.playlistId ?? r.browseId;
}

export function reconcile(
  entries: readonly JournalEntry[],
  actual: ActualTarget,
  owned: readonly OwnedRow[],
  at: number,
): Reconciliation {
  const out: Reconciliation = { ownedAdds: [], ownedRemoves: [], verdicts: [], runs: [] };
  const ownedSet = new Set(owned.map((o) => o.setVideoId ?? `key:${o.itemKey}`));
  const ownedKeys = new Set(owned.map((o) => o.itemKey));
  const rowsByKey = new Map<string, Item[]>();
  for (const r of actual.rows) {
    const k = rowKey(r);
    if (k === null) continue;
    rowsByKey.set(k, [...(rowsByKey.get(k) ?? []), r]);
  }
  const setIds = new Set(actual.rows.map((r) => r.setVideoId).filter((s): s is string => s !== null));
  const claim = (key: string) => {
    for (const r of rowsByKey.get(key) ?? []) {
      const id = r.setVideoId ?? `key:${key}`;
      if (ownedSet.has(id)) continue;
      ownedSet.add(id);
      out.ownedAdds.push({ itemKey: key, setVideoId: r.setVideoId, addedAt: at });
      return true;
    }
    return ownedKeys.has(key) || (rowsByKey.get(key)?.length ?? 0) > 0;
  };
  for (const e of entries) {
    if (!out.runs.includes(e.runId)) out.runs.push(e.runId);
    // `pending` was journaled but never marked sent: its request never left.
    if (e.status === "pending") {
      out.verdicts.push({ runId: e.runId, seq: e.seq, status: "failed" });
      continue;
    }
    const a = e.payload as PlanAction;
    let done = false;
    switch (a.kind) {
      // Every id is claimed, then judged: a row the person removed since must not keep the engine
      // from owning the rows after it (seed 2415).
      case "create_playlist":
        done = a.videoIds.map((id) => claim(id)).every(Boolean) && actual.exists;
        break;
      case "add_playlist_items":
        done = a.videoIds.map((id) => claim(id)).every(Boolean);
        break;
      case "remove_playlist_items": {
        const gone = a.videos.filter((v) => v.setVideoId !== null && !setIds.has(v.setVideoId));
        for (const v of gone) out.ownedRemoves.push({ itemKey: v.videoId, setVideoId: v.setVideoId });
        done = gone.length === a.videos.length;
        break;
      }
      case "rate_song":
      case "rate_playlist": {
        const id = a.kind === "rate_song" ? a.videoId : a.playlistId;
        const present = rowsByKey.has(id);
        if (a.rating === "INDIFFERENT") {
          if (!present) out.ownedRemoves.push({ itemKey: id, setVideoId: null });
          done = !present;
        } else done = present && claim(id);
        break;
      }
      case "subscribe_artists":
        done = a.channelIds.map((id) => rowsByKey.has(id) && claim(id)).every(Boolean);
        break;
      case "unsubscribe_artists":
        for (const id of a.channelIds)
          if (!rowsByKey.has(id)) out.ownedRemoves.push({ itemKey: id, setVideoId: null });
        done = a.channelIds.every((id) => !rowsByKey.has(id));
        break;
      default:
        // Moves, edits and library tokens: the fresh plan redoes whatever did not happen.
        done = false;
    }
    out.verdicts.push({ runId: e.runId, seq: e.seq, status: done ? "confirmed" : "failed" });
  }
  return out;
}
