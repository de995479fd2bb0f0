/**
 * planUndo: the plan that takes back what one run confirmed (or, killed half way, what its journal
 * says left and the target shows happened). Pure: the run, what it recorded before its first write,
 * its journal and the target as read now in; an ordinary Plan out, which `apply` sends like any
 * other and whose lines say, for each item, what goes back and what is left alone and why.
 */
import { targetFingerprint } from "../plan/fingerprint.js";
import { summarise } from "../plan/finish.js";
import { type ActualTarget, type Owned, PLAN_VERSION, type Plan } from "../plan/types.js";
import type { TargetBefore } from "../run/before.js";
import type { JournalEntry, RunBeforeRecord, RunRecord } from "../state/types.js";
import type { Rating } from "../targets/ratings.js";
import { undoItems } from "./items-undo.js";
import { stepsOf } from "./journal.js";
import { type Draft, undoPlaylist } from "./playlist-undo.js";

export interface UndoInput {
  run: RunRecord;
  before: RunBeforeRecord;
  journal: readonly JournalEntry[];
  /** The target as read now (a DISLIKE target's rows: the dislikes the engine remembers). */
  now: ActualTarget;
  owned: Owned;
  /** Likes targets: the current rating of songs the run rated, where it could be read. */
  ratings?: ReadonlyMap<string, Rating>;
  /** Playlist fields (title, description, privacy) a later run of the recipe wrote or may have written. */
  setLater?: ReadonlySet<string>;
}

export interface UndoOptions {
  /** Delete a playlist the run created (kept otherwise: only its rows are taken out). */
  deleteCreated?: boolean;
  /** Most items per write request (default 100, the planner's default batch). */
  batchSize?: number;
}

export function planUndo(input: UndoInput, options: UndoOptions = {}): Plan {
  const { run, now } = input;
  const undone = input.before.plan as Plan;
  const before = input.before.before as TargetBefore;
  const steps = stepsOf(input.journal);
  const tag = `run #${run.id}`;
  const batch = options.batchSize ?? 100;
  const spec = before.spec;
  const draft: Draft =
    spec.type === "playlist" || spec.type === "saved_episodes"
      ? undoPlaylist({
          before,
          steps,
          now,
          tag,
          labels: new Map(undone.lines.filter((l) => l.key !== null).map((l) => [l.key as string, l.label])),
          deleteCreated: options.deleteCreated === true,
          ownsPlaylist: input.owned.playlist,
          batch,
          setLater: input.setLater ?? new Set(),
        })
      : undoItems({ before, steps, now, ratings: input.ratings ?? new Map(), tag, batch });
  return {
    version: PLAN_VERSION,
    recipe: { id: run.recipeId, hash: run.recipeHash },
    account: run.account,
    mode: undone.mode,
    target: {
      spec,
      playlistId: now.playlistId,
      exists: now.exists,
      fingerprint: targetFingerprint(now),
      rows: now.rows.length,
    },
    actions: draft.actions,
    lines: draft.lines,
    guards: [],
    errors: [],
    tombstones: [],
    summary: summarise(draft.lines, draft.actions, draft.moves),
  };
}
