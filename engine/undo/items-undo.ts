/**
 * The inverse of what a run did to ratings, the library or subscriptions: each item it touched goes
 * back to its state before the run, if it still holds what the run set; an item the person changed
 * since is left alone, with a line saying so. Pure.
 */
import { chunk } from "../../shared/chunk.js";
import { type LibrarySong, libraryEdits } from "../plan/library.js";
import { targetKey } from "../plan/plan.js";
import type { ActualTarget, PlanAction, PlanLine } from "../plan/types.js";
import type { ItemBefore, ItemState, TargetBefore } from "../run/before.js";
import type { Rating } from "../targets/ratings.js";
import { line, type Step } from "./journal.js";
import type { Draft } from "./playlist-undo.js";

export interface ItemsUndoInput {
  before: TargetBefore;
  steps: readonly Step[];
  now: ActualTarget;
  /** Likes targets: current ratings of the songs the run rated, where they could be read. */
  ratings: ReadonlyMap<string, Rating>;
  tag: string;
  batch: number;
}

/** One item the run wrote: what it was, what the run set, what it is now. */
interface Touch {
  item: ItemBefore;
  set: ItemState;
  now: ItemState;
  confirmed: boolean;
}

function touches(input: ItemsUndoInput): Touch[] {
  const { before, steps, now } = input;
  const spec = before.spec;
  const present = new Set(now.rows.map((r) => targetKey(spec, r)).filter((k): k is string => k !== null));
  const items = new Map(before.items.map((i) => [i.key, i]));
  const out: Touch[] = [];
  const touch = (key: string, set: ItemState, confirmed: boolean, nowState: ItemState) => {
    const item = items.get(key);
    if (item) out.push({ item, set, now: nowState, confirmed });
  };
  const inOut = (key: string): ItemState => (present.has(key) ? "in" : "out");
  for (const s of steps) {
    const a = s.action;
    if (a.kind === "rate_song")
      touch(a.videoId, a.rating, s.confirmed, ratingNow(input, a.videoId, a.rating, present));
    else if (a.kind === "rate_playlist")
      touch(a.playlistId, a.rating === "LIKE" ? "in" : "out", s.confirmed, inOut(a.playlistId));
    else if (a.kind === "subscribe_artists" || a.kind === "unsubscribe_artists") {
      for (const c of a.channelIds)
        touch(c, a.kind === "subscribe_artists" ? "in" : "out", s.confirmed, inOut(c));
    } else if (a.kind === "edit_song_library_status") {
      for (const [key, set] of librarySongsOf(a, before.items)) touch(key, set, s.confirmed, inOut(key));
    }
  }
  return out;
}

/**
 * The songs a library edit put in or took out. An action that names its songs and direction says
 * so exactly; one from before that (a run planned by an older version) is matched to the songs by
 * the tokens recorded before the run.
 */
function librarySongsOf(
  a: Extract<PlanAction, { kind: "edit_song_library_status" }>,
  items: readonly ItemBefore[],
): [string, ItemState][] {
  if (a.videoIds && a.direction) {
    const set: ItemState = a.direction === "add" ? "in" : "out";
    return a.videoIds.map((v) => [v, set]);
  }
  const tokens = new Set(a.feedbackTokens);
  const out: [string, ItemState][] = [];
  for (const item of items) {
    const token = item.state === "in" ? item.removeToken : item.addToken;
    if (token && tokens.has(token)) out.push([item.key, item.state === "in" ? "out" : "in"]);
  }
  return out;
}

/**
 * A song's rating now: read from its album page when it could be; else what the list says (in a
 * LIKE target's list: LIKE; in a DISLIKE target's remembered list: DISLIKE); else, not listed, the
 * likeliest reading that the song still holds what the run set if that is "not in the list".
 */
function ratingNow(
  input: ItemsUndoInput,
  videoId: string,
  set: Rating,
  present: ReadonlySet<string>,
): Rating {
  const read = input.ratings.get(videoId);
  if (read) return read;
  const spec = input.before.spec;
  const listed = spec.type === "likes" ? spec.rating : "LIKE";
  if (present.has(videoId)) return listed;
  return set === listed ? "INDIFFERENT" : set;
}

export function undoItems(input: ItemsUndoInput): Draft {
  const { tag } = input;
  const draft: Draft = { actions: [], lines: [], moves: 0 };
  const restore: Touch[] = [];
  for (const t of touches(input)) {
    const { item } = t;
    if (t.now !== t.set) {
      // Not what the run set: either the person changed it since, or the run's write never landed.
      if (t.confirmed || t.now !== item.state)
        draft.lines.push(
          line(
            "skip",
            item.key,
            item.label,
            videoIdOf(input, item),
            `${describe(t.now)} since ${tag}; left alone`,
          ),
        );
      continue;
    }
    if (item.state === null) {
      draft.lines.push(
        line(
          "skip",
          item.key,
          item.label,
          videoIdOf(input, item),
          `its state before ${tag} is not known; left alone`,
        ),
      );
      continue;
    }
    if (item.state === t.set) continue;
    restore.push(t);
  }
  for (const t of restore) draft.lines.push(restoreLine(input, t));
  draft.actions.push(...restoreActions(input, restore, draft.lines));
  return draft;
}

function describe(state: ItemState): string {
  if (state === "in") return "back in the list";
  if (state === "out") return "taken out of the list";
  return `rated ${state}`;
}

function videoIdOf(input: ItemsUndoInput, item: ItemBefore): string | null {
  const spec = input.before.spec;
  return spec.type === "likes" || (spec.type === "library" && spec.kind === "songs") ? item.key : null;
}

function restoreLine(input: ItemsUndoInput, t: Touch): PlanLine {
  const { item } = t;
  const vid = videoIdOf(input, item);
  if (input.before.spec.type === "likes") {
    return line("rate", item.key, item.label, vid, `back to ${item.state} (${input.tag} rated it ${t.set})`);
  }
  return item.state === "in"
    ? line("add", item.key, item.label, vid, `taken out by ${input.tag}`)
    : line("remove", item.key, item.label, vid, `added by ${input.tag}`);
}

function restoreActions(input: ItemsUndoInput, restore: readonly Touch[], lines: PlanLine[]): PlanAction[] {
  const spec = input.before.spec;
  const actions: PlanAction[] = [];
  const back = (state: ItemState) => restore.filter((t) => t.item.state === state).map((t) => t.item);
  if (spec.type === "likes") {
    for (const t of restore)
      actions.push({ kind: "rate_song", videoId: t.item.key, rating: t.item.state as Rating });
  } else if (spec.type === "subscriptions") {
    // One channel per subscribe request; several per unsubscribe (as the planner sends them).
    for (const i of back("in")) actions.push({ kind: "subscribe_artists", channelIds: [i.key] });
    for (const ids of chunk(
      back("out").map((i) => i.key),
      input.batch,
    ))
      actions.push({ kind: "unsubscribe_artists", channelIds: ids });
  } else if (spec.type === "library" && spec.kind === "songs") {
    actions.push(...libraryTokens(input, restore, lines));
  } else {
    for (const i of back("in")) actions.push({ kind: "rate_playlist", playlistId: i.key, rating: "LIKE" });
    for (const i of back("out"))
      actions.push({ kind: "rate_playlist", playlistId: i.key, rating: "INDIFFERENT" });
  }
  return actions;
}

/**
 * Songs back in (their add token from before) or out (the remove token the library shows now), in
 * actions of one direction each that name their songs, so that apply's read-back checks them exactly.
 */
function libraryTokens(input: ItemsUndoInput, restore: readonly Touch[], lines: PlanLine[]): PlanAction[] {
  const removeNow = new Map<string, string>();
  for (const r of input.now.rows)
    if (r.videoId && r.feedbackTokens?.remove) removeNow.set(r.videoId, r.feedbackTokens.remove);
  const songs: Record<"add" | "remove", LibrarySong[]> = { add: [], remove: [] };
  for (const t of restore) {
    const back = t.item.state === "in";
    const token = back ? t.item.addToken : (removeNow.get(t.item.key) ?? t.item.removeToken);
    if (token) {
      songs[back ? "add" : "remove"].push({ token, videoId: t.item.key });
      continue;
    }
    const at = lines.findIndex((l) => l.key === t.item.key && l.op !== "skip");
    if (at >= 0)
      lines[at] = { ...lines[at]!, op: "skip", reason: "no library token to change it with; left alone" };
  }
  return [
    ...libraryEdits("add", songs.add, input.batch),
    ...libraryEdits("remove", songs.remove, input.batch),
  ];
}
