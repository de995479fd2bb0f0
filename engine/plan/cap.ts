/**
 * The service's 5,000-item cap on a playlist (saved episodes are one too). A plan whose target would
 * pass it does what the recipe's `overflow` says; each way of overflowing is one case of applyCap
 * (a new way, such as continuing into further playlists, is one more case and its own function).
 */
import { PLAYLIST_CAP } from "../recipe/types.js";
import { addsOf, type Draft, type Entry, removalsOf } from "./core.js";

export function applyCap(draft: Draft): void {
  const adds = addsOf(draft);
  const final = draft.actual.rows.length - removalsOf(draft).length + adds.length;
  const over = final - PLAYLIST_CAP;
  if (over <= 0) return;
  switch (draft.policy.overflow) {
    case "error":
      draft.errors.push(
        `the target would hold ${final} items, ${over} over the ${PLAYLIST_CAP} cap (overflow: error)`,
      );
      return;
    case "truncate":
      dropLastAdds(draft, adds, over);
      return;
  }
}

/** The last adds in desired order are the ones dropped: the top of the list still fits. */
function dropLastAdds(draft: Draft, adds: readonly Entry[], over: number): void {
  draft.guards.push({
    guard: "overflow",
    message: `${over} adds dropped: the target would pass the ${PLAYLIST_CAP} cap`,
    blocks: "adds",
  });
  // Kept as first written: when the rows alone pass the cap (over > adds), a negative start
  // counts from the end, so fewer adds than `over` are dropped and the target still passes it.
  for (const entry of adds.slice(adds.length - over)) {
    entry.adding = false;
    entry.line.op = "skip";
    entry.line.reason = `over the ${PLAYLIST_CAP.toLocaleString("en-US")} cap`;
  }
}
