/**
 * The inverse of what a run did to a playlist (or the saved episodes), from the rows as they were
 * before it, its journal, and the rows as they are now. Rows are told apart by setVideoId: the
 * rows its journal names as added are taken out, the rows it removed go back at their former
 * places, and a row the person (or a later run) changed since — or one that may be the person's,
 * because the run's add of that video went unanswered — is left alone with a line saying so. Pure.
 */
import { chunk } from "../../shared/chunk.js";
import type { ActualTarget, MoveStep, PlanAction, PlanLine, RowRef } from "../plan/types.js";
import { sameDescription, sameTitle } from "../recipe/service-text.js";
import type { RowBefore, TargetBefore } from "../run/before.js";
import { itemLabel } from "../sources/item.js";
import { addedRows, type Fate, line, removedRows, type Step } from "./journal.js";
import { movesTo } from "./moves.js";

export interface Draft {
  actions: PlanAction[];
  lines: PlanLine[];
  moves: number;
}

export interface PlaylistUndoInput {
  before: TargetBefore;
  steps: readonly Step[];
  now: ActualTarget;
  /** "run #12", as the lines name the undone run. */
  tag: string;
  /** Labels of items the undone plan named, for rows no longer anywhere to be read. */
  labels: ReadonlyMap<string, string>;
  deleteCreated: boolean;
  /** The engine still owns the playlist (it may delete it). */
  ownsPlaylist: boolean;
  batch: number;
  /** Fields a later run wrote (or may have written): their value now is that run's, not this one's. */
  setLater: ReadonlySet<string>;
}

interface Added {
  videoId: string;
}

/** What the journal tells of the rows the run added, set against the target now. */
interface AddedByRun {
  /** setVideoId → the row, for each row an answer the journal kept names as the run's. */
  rows: Map<string, Added>;
  /**
   * setVideoId → how the add went, for each row now of a video the run's add named but whose answer
   * names no row of it: maybe the run's, maybe the person's, so it stays (and the plan says why).
   */
  unsure: Map<string, "failed" | "unknown">;
}

/**
 * The rows the run added. Only a row its journal names (by setVideoId) is taken for the run's: a
 * new row of a video whose add went unanswered may just as well be one the person added since.
 */
function rowsAddedByRun(steps: readonly Step[], now: ActualTarget, before: ReadonlySet<string>): AddedByRun {
  const rows = new Map<string, Added>();
  const doubt = new Map<string, "failed" | "unknown">();
  for (const s of steps) {
    if (s.action.kind !== "add_playlist_items" && s.action.kind !== "create_playlist") continue;
    const named = addedRows(s) ?? {};
    for (const [videoId, sid] of Object.entries(named)) if (!before.has(sid)) rows.set(sid, { videoId });
    // A confirmed add, or a failed one that read the playlist back, named every row it put there.
    if (s.fate === "confirmed" || (s.fate === "failed" && addedRows(s))) continue;
    for (const v of s.action.videoIds) {
      if (!(v in named)) doubt.set(v, doubt.get(v) === "unknown" ? "unknown" : s.fate);
    }
  }
  const unsure = new Map<string, "failed" | "unknown">();
  for (const r of now.rows) {
    const sid = r.setVideoId;
    const fate = r.videoId ? doubt.get(r.videoId) : undefined;
    if (sid && fate && !before.has(sid) && !rows.has(sid)) unsure.set(sid, fate);
  }
  return { rows, unsure };
}

/**
 * Rows of `before` the run's removes took away, with whether the journal kept the answer. A refused
 * remove took nothing but the rows its journal names; one whose answer was lost is credited with
 * the rows it named that are gone now.
 */
function rowsRemovedByRun(
  steps: readonly Step[],
  before: ReadonlyMap<string, number>,
  now: ReadonlySet<string>,
): Map<string, Fate> {
  const out = new Map<string, Fate>();
  for (const s of steps) {
    if (s.action.kind !== "remove_playlist_items") continue;
    const named =
      s.fate === "failed"
        ? removedRows(s)
        : s.action.videos.flatMap((v) => (v.setVideoId ? [v.setVideoId] : []));
    const fate = s.fate === "unknown" ? "unknown" : "confirmed";
    for (const sid of named) if (before.has(sid) && !now.has(sid) && !out.has(sid)) out.set(sid, fate);
  }
  return out;
}

export function undoPlaylist(input: PlaylistUndoInput): Draft {
  const { before, steps, now } = input;
  const beforeAt = new Map<string, number>();
  before.rows.forEach((r, i) => {
    if (r.setVideoId) beforeAt.set(r.setVideoId, i);
  });
  const nowIds = new Set(now.rows.map((r) => r.setVideoId).filter((s): s is string => !!s));
  const { rows: added, unsure } = rowsAddedByRun(steps, now, new Set(beforeAt.keys()));
  const created = !before.exists && steps.some((s) => s.action.kind === "create_playlist");
  const foreign = now.rows.filter(
    (r) => !r.setVideoId || (!beforeAt.has(r.setVideoId) && !added.has(r.setVideoId)),
  );
  if (created && input.deleteCreated && input.ownsPlaylist && foreign.length === 0 && now.playlistId) {
    return deletePlaylist(input, now.playlistId);
  }
  const draft: Draft = { actions: [], lines: [], moves: 0 };
  if (created) draft.lines.push(createdLine(input, foreign.length));
  const edit = metadataUndo(input, draft.lines);
  if (edit) draft.actions.push(edit);
  rowsUndo(input, { beforeAt, nowIds, added, unsure, foreign }, draft);
  return draft;
}

function createdLine(input: PlaylistUndoInput, foreign: number): PlanLine {
  const { now, tag } = input;
  const why = !input.deleteCreated
    ? `${tag} created it; kept (--delete-created deletes it)`
    : !input.ownsPlaylist
      ? `${tag} created it; kept: the engine no longer owns it`
      : `${tag} created it; kept: ${foreign} row${foreign === 1 ? " in it is" : "s in it are"} not known to be the run's`;
  return line("skip", now.playlistId, `playlist "${now.title ?? ""}"`, null, why);
}

function deletePlaylist(input: PlaylistUndoInput, playlistId: string): Draft {
  const { now, tag } = input;
  const lines = [
    line("remove", playlistId, `playlist "${now.title ?? ""}"`, null, `${tag} created it (--delete-created)`),
    ...now.rows.map((r) => line("remove", r.videoId, itemLabel(r), r.videoId, "goes with the playlist")),
  ];
  return { actions: [{ kind: "delete_playlist", playlistId }], lines, moves: 0 };
}

type Field = "title" | "description" | "privacy";

function same(field: Field, a: string | null | undefined, b: string | null | undefined): boolean {
  if (field === "title") return sameTitle(a, b);
  if (field === "description") return sameDescription(a ?? "", b ?? "");
  return (a ?? null) === (b ?? null);
}

/** Title, description and privacy the run set, put back where they still hold what it set. */
function metadataUndo(input: PlaylistUndoInput, lines: PlanLine[]): PlanAction | null {
  const { before, steps, now, tag } = input;
  if (!before.exists || !now.playlistId) return null;
  const edit: Extract<PlanAction, { kind: "edit_playlist" }> = {
    kind: "edit_playlist",
    playlistId: now.playlistId,
  };
  for (const field of ["title", "description", "privacy"] as const) {
    const set = steps.filter((s) => s.action.kind === "edit_playlist" && s.action[field] !== undefined).pop();
    if (set?.action.kind !== "edit_playlist") continue;
    const value = set.action[field] as string;
    const was = field === "description" ? (before.description ?? "") : before[field];
    if (was === null || same(field, was, value)) continue;
    if (set.fate !== "confirmed" && input.setLater.has(field) && !same(field, now[field], was)) {
      // The run's edit lost its answer and may never have landed, and a later run wrote the field:
      // the value now is that run's, and taking it back would undo the later run (undo soak seed
      // 103). A confirmed edit is the run's own even when a later run wrote the same value again
      // after the person changed it (seed 250).
      lines.push(line("skip", now.playlistId, field, null, `${field} set again by a later run; left alone`));
      continue;
    }
    if (same(field, now[field], value)) {
      if (field === "privacy") edit.privacy = was as NonNullable<typeof edit.privacy>;
      else edit[field] = was;
    } else if (!same(field, now[field], was)) {
      lines.push(line("skip", now.playlistId, field, null, `${field} changed since ${tag}; left alone`));
    }
  }
  return Object.keys(edit).length > 2 ? edit : null;
}

interface Rows {
  beforeAt: ReadonlyMap<string, number>;
  nowIds: ReadonlySet<string>;
  added: ReadonlyMap<string, Added>;
  unsure: ReadonlyMap<string, "failed" | "unknown">;
  foreign: readonly ActualTarget["rows"][number][];
}

/** A row of `before` the undo adds again; `fate` unknown: its remove's answer was lost. */
interface Readd {
  row: RowBefore;
  at: number;
  fate: Fate;
}

/** What the undo does with the rows: the run's added rows out, its removed rows back, all in order. */
interface RowsPlan {
  removeIds: Set<string>;
  standIn: Set<string>;
  readd: Readd[];
  order: Ordering;
}

function rowsUndo(input: PlaylistUndoInput, rows: Rows, draft: Draft): void {
  const { before, now, tag, batch } = input;
  const playlistId = now.playlistId ?? before.playlistId ?? "";
  // Rows the run added: out, if still there; gone already, they are the person's doing.
  const removing = now.rows.filter((r) => r.setVideoId && rows.added.has(r.setVideoId));
  for (const [sid, a] of rows.added) {
    if (rows.nowIds.has(sid)) continue;
    const label = input.labels.get(a.videoId) ?? a.videoId;
    draft.lines.push(line("skip", a.videoId, label, a.videoId, `removed since ${tag}; left alone`));
  }
  // Rows the run removed: back, unless the same video came back since (then that row stands for it).
  const gone = rowsRemovedByRun(input.steps, rows.beforeAt, rows.nowIds);
  const spare = new Map<string, string[]>();
  for (const r of rows.foreign)
    if (r.videoId && r.setVideoId) spare.set(r.videoId, [...(spare.get(r.videoId) ?? []), r.setVideoId]);
  const standIn = new Set<string>();
  const readd: Readd[] = [];
  before.rows.forEach((row, at) => {
    const fate = row.setVideoId ? gone.get(row.setVideoId) : undefined;
    if (!fate) return;
    const back = spare.get(row.videoId)?.shift();
    if (back) standIn.add(back);
    else readd.push({ row, at, fate });
  });
  const removeIds = new Set(removing.map((r) => r.setVideoId as string));
  const order = ordering(input, rows, removeIds, readd);
  draft.lines.push(...rowLines(input, rows, { removeIds, standIn, readd, order }));
  for (const part of chunk(removing, batch)) {
    draft.actions.push({
      kind: "remove_playlist_items",
      playlistId,
      videos: part.map((r) => ({ videoId: r.videoId ?? "", setVideoId: r.setVideoId })),
    });
  }
  for (const part of chunk(
    readd.map((r) => r.row.videoId),
    batch,
  )) {
    draft.actions.push({ kind: "add_playlist_items", playlistId, videoIds: part });
  }
  for (const part of chunk(order.moves, batch))
    draft.actions.push({ kind: "move_playlist_items", playlistId, moves: part });
  draft.moves = order.moves.length;
}

/** Why a row the run's unanswered (or failed) add may have put there stays. */
function unsureWhy(tag: string, fate: "failed" | "unknown"): string {
  const how = fate === "unknown" ? "was never answered" : "failed part way";
  return `kept: ${tag}'s add of it ${how}, so this copy may be yours; remove it by hand if it is the run's`;
}

/** One line per row now, then one per row added back. */
function rowLines(input: PlaylistUndoInput, rows: Rows, plan: RowsPlan): PlanLine[] {
  const { tag } = input;
  const { removeIds, standIn, order } = plan;
  const out: PlanLine[] = [];
  for (const r of input.now.rows) {
    const sid = r.setVideoId ?? "";
    const say = (op: PlanLine["op"], why: string) =>
      out.push(line(op, r.videoId, itemLabel(r), r.videoId, why));
    const unsure = rows.unsure.get(sid);
    const moved = order.moved.has(sid);
    if (removeIds.has(sid)) say("remove", `added by ${tag}`);
    else if (standIn.has(sid)) say("skip", `back in the playlist since ${tag}; not added again`);
    // Shown (a skip, not a quiet keep): the person may want to take it out by hand.
    else if (unsure) say(moved ? "move" : "skip", unsureWhy(tag, unsure));
    else if (moved && rows.beforeAt.has(sid)) say("move", `back to #${order.place.get(sid)}`);
    else if (moved) say("move", `not there before ${tag}; kept after the row it follows`);
    else if (rows.beforeAt.has(sid)) say("keep", "unchanged");
    else say("keep", `not there before ${tag}; left alone`);
  }
  for (const { row, at, fate } of plan.readd) {
    const why =
      fate === "unknown"
        ? `removed by ${tag}, whose answer was lost (the row is gone); back at #${at + 1}`
        : `removed by ${tag}; back at #${at + 1}`;
    out.push(line("add", row.videoId, row.label, row.videoId, why));
  }
  return out;
}

interface Ordering {
  moves: MoveStep[];
  /** setVideoIds of rows now in the playlist that move. */
  moved: Set<string>;
  /** Each staying row's 1-based place once the undo is done. */
  place: Map<string, number>;
}

/**
 * Where every row goes. Rows of `before` (kept or re-added) take their former order if the run
 * moved rows, else each re-added row goes right after the row that preceded it before. A row that
 * was not there before (the person's, a later run's) stays after the row it follows now.
 */
function ordering(
  input: PlaylistUndoInput,
  rows: Rows,
  removeIds: ReadonlySet<string>,
  readd: readonly Readd[],
): Ordering {
  const none: Ordering = { moves: [], moved: new Set(), place: new Map() };
  if (input.before.spec.type !== "playlist") return none;
  const staying = input.now.rows.map((r) => r.setVideoId ?? "").filter((sid) => sid && !removeIds.has(sid));
  const rank = (id: string) => (id.startsWith("+") ? Number(id.slice(1)) : (rows.beforeAt.get(id) ?? -1));
  let ranked = staying.filter((sid) => rows.beforeAt.has(sid));
  const fresh = readd.map((r) => `+${r.at}`);
  const runMoved = input.steps.some((s) => s.action.kind === "move_playlist_items");
  if (runMoved) ranked = [...ranked, ...fresh].sort((a, b) => rank(a) - rank(b));
  else {
    for (const id of fresh) {
      let after = -1;
      ranked.forEach((other, i) => {
        if (rank(other) < rank(id) && (after === -1 || rank(other) > rank(ranked[after]!))) after = i;
      });
      ranked.splice(after + 1, 0, id);
    }
  }
  const goal = withForeign(staying, ranked, rows.beforeAt);
  const current = [...staying, ...fresh];
  const idMoves = movesTo(current, goal, (id) => !id.startsWith("+"));
  const ref = (id: string): RowRef => {
    if (id.startsWith("+"))
      return { videoId: input.before.rows[Number(id.slice(1))]!.videoId, setVideoId: null };
    const row = input.now.rows.find((r) => r.setVideoId === id)!;
    return { videoId: row.videoId ?? "", setVideoId: id };
  };
  return {
    moves: idMoves.map((m) => ({ row: ref(m.row), before: m.before === null ? null : ref(m.before) })),
    moved: new Set(idMoves.map((m) => m.row).filter((id) => !id.startsWith("+"))),
    place: new Map(goal.map((id, i) => [id, i + 1])),
  };
}

/**
 * The goal order: `ranked`, each other staying row kept after the row of `before` it follows now
 * (and after the re-added rows that come right after that row).
 */
function withForeign(
  staying: readonly string[],
  ranked: readonly string[],
  beforeAt: ReadonlyMap<string, number>,
) {
  const followers = new Map<string, string[]>();
  let anchor = "";
  for (const sid of staying) {
    if (beforeAt.has(sid)) anchor = sid;
    else followers.set(anchor, [...(followers.get(anchor) ?? []), sid]);
  }
  // A re-added row goes right after the row it followed before, ahead of rows added since.
  const goal = [...(followers.get("") ?? [])];
  let pending: string[] = [];
  for (const id of ranked) {
    if (id.startsWith("+")) {
      goal.push(id);
      continue;
    }
    goal.push(...pending, id);
    pending = followers.get(id) ?? [];
  }
  goal.push(...pending);
  return goal;
}
