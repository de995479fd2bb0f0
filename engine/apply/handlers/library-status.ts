/**
 * edit_song_library_status: songs into or out of the library, named by feedback tokens. A token does
 * not say which song it names, but the library lists each of its songs with both of that song's
 * tokens (the one that adds it, the one that removes it): so a read of the library tells, token by
 * token, whether the song is in. The action is done when each of its songs is where it was meant to
 * be. Actions planned now also name their songs and direction, and are checked by those exactly.
 */
import type { Plan, PlanAction } from "../../plan/types.js";
import type { Item } from "../../sources/item.js";
import { reread } from "../session.js";
import { type ActionOf, checkedHandler } from "./handler.js";

type LibraryEdit = Extract<PlanAction, { kind: "edit_song_library_status" }>;

function tokensOf(rows: readonly Item[], which: "add" | "remove"): Set<string> {
  const tokens = new Set<string>();
  for (const r of rows) {
    const t = r.feedbackTokens?.[which];
    if (t) tokens.add(t);
  }
  return tokens;
}

/**
 * Whether the plan's library edits only take songs out. A token found nowhere in the library is a
 * song out of it, which is what a removal means and what an add means undone; the plan's lines tell
 * which when it holds removals only. A plan with both (or none) leaves it unknown.
 */
function removalsOnly(plan: Plan): boolean {
  return plan.lines.some((l) => l.op === "remove") && !plan.lines.some((l) => l.op === "add");
}

/** A saved plan from before actions named their songs: guessed from the tokens and the plan's lines. */
function showsByTokens(rows: readonly Item[], tokens: readonly string[], plan: Plan): boolean {
  const adds = tokensOf(rows, "add");
  const removes = tokensOf(rows, "remove");
  // A song the action takes out, still in the library.
  if (tokens.some((t) => removes.has(t))) return false;
  const found = tokens.filter((t) => adds.has(t)).length;
  // Every song the action puts in is there.
  if (found === tokens.length) return true;
  // Some songs in, some not: an add that did not take them all.
  if (found > 0) return false;
  return removalsOnly(plan);
}

/** Whether the library as read shows every song of the action where the action meant it to be. */
export function libraryShows(rows: readonly Item[], action: LibraryEdit, plan: Plan): boolean {
  const { videoIds, direction, feedbackTokens } = action;
  if (!videoIds || !direction) return showsByTokens(rows, feedbackTokens, plan);
  const inLibrary = new Set(rows.map((r) => r.videoId).filter((v): v is string => v !== null));
  if (direction === "add") return videoIds.every((v) => inLibrary.has(v));
  // A row still listed with one of the action's remove tokens is a song not taken out, whatever its id.
  const removes = tokensOf(rows, "remove");
  return !videoIds.some((v) => inLibrary.has(v)) && !feedbackTokens.some((t) => removes.has(t));
}

export const editSongLibraryStatus = checkedHandler<ActionOf<"edit_song_library_status">>({
  kind: "edit_song_library_status",
  request:
    (s, { feedbackTokens }) =>
    () =>
      s.ctx.client.editSongLibraryStatus(feedbackTokens),
  verify: async (s, action) => libraryShows(await reread(s), action, s.plan),
});
