/**
 * The plan is data first: a versioned document that says, for one recipe and one target as read,
 * every write request to send (in order) and what happens to every item. Text, JSON and Markdown
 * are renderings of it; `apply` sends exactly its actions.
 */
import type { SkippedItem } from "../pipeline/types.js";
import type { Mode, Policy, Privacy, TargetSpec } from "../recipe/types.js";
import type { Item } from "../sources/item.js";
import type { SourceNote } from "../sources/read.js";

export const PLAN_VERSION = 1;

/** What the planner needs to know of the recipe besides its items. */
export interface PlanRecipe {
  id: string;
  hash: string;
  account: string;
  target: TargetSpec;
}

export interface Desired {
  recipe: PlanRecipe;
  /** The pipeline's output, in desired order. */
  items: readonly Item[];
  /** What the pipeline dropped, with reasons. */
  skipped: readonly SkippedItem[];
  /** How many items all sources returned together (before the pipeline). */
  sourceTotal: number;
  /** Ids of sources whose read looked truncated (fewer items than the service said it had). */
  truncatedSources: readonly string[];
  /** Each source's read size against its last complete read (the shrinkage guard); absent = unknown. */
  sources?: readonly SourceSize[];
  /** File rows that could not be read and entries no video was found for. */
  notes?: readonly SourceNote[];
  /**
   * Keys the service refused lately (the account's quarantine): never added while it lasts, but a
   * row that already holds one is the person's song like any other and stays.
   */
  quarantined?: ReadonlySet<string>;
}

/** How many items one source returned, and how many its last complete read held. */
export interface SourceSize {
  id: string;
  /** The source id and a digest of its options: a source whose options change starts afresh. */
  key: string;
  items: number;
  /** The service said how many items the list holds, and the read had them all. */
  counted: boolean;
  /** The read had fewer items than the service said the list holds. */
  truncated: boolean;
  /** Items of the last complete read of this source, or null when none is recorded. */
  last: number | null;
}

/** A source read as the plan reports it; `record`: a run that applies keeps its size as the baseline. */
export interface PlanSource extends SourceSize {
  record: boolean;
}

/** The target as just read from the service. */
export interface ActualTarget {
  /** False when a playlist to be created by title was not found. */
  exists: boolean;
  playlistId: string | null;
  title: string | null;
  description: string | null;
  privacy: Privacy | null;
  /** Rows in service order (playlist rows carry setVideoId). */
  rows: readonly Item[];
  /** The read returned fewer rows than the service said the target holds. */
  truncated: boolean;
}

/** What the engine remembers and cannot read back: which rows it added, which it must not re-add. */
export interface Owned {
  /** The engine created this playlist (or adopted it by id). */
  playlist: boolean;
  /** Keys of rows the engine added and believes still present. */
  rows: ReadonlySet<string>;
  /** Keys the person removed after the engine added them: never re-added (sync/adopt, append). */
  tombstones: ReadonlySet<string>;
}

export interface PlanPolicy extends Policy {
  mode: Mode;
}

/** A row as a write names it; `setVideoId` is null for a row this plan adds (known after the add). */
export interface RowRef {
  videoId: string;
  setVideoId: string | null;
}

export interface MoveStep {
  row: RowRef;
  /** Move before this row; null = to the end. */
  before: RowRef | null;
}

export type PlanAction =
  | { kind: "create_playlist"; title: string; description: string; privacy: Privacy; videoIds: string[] }
  | { kind: "edit_playlist"; playlistId: string; title?: string; description?: string; privacy?: Privacy }
  /** playlistId null: the playlist the plan's create_playlist makes. */
  | { kind: "add_playlist_items"; playlistId: string | null; videoIds: string[] }
  | { kind: "remove_playlist_items"; playlistId: string; videos: RowRef[] }
  | { kind: "move_playlist_items"; playlistId: string | null; moves: MoveStep[] }
  | { kind: "rate_song"; videoId: string; rating: "LIKE" | "DISLIKE" | "INDIFFERENT" }
  | { kind: "rate_playlist"; playlistId: string; rating: "LIKE" | "INDIFFERENT" }
  | {
      kind: "edit_song_library_status";
      feedbackTokens: string[];
      /** The songs the tokens name, in the same order, and which way they go. Absent in plans
       * saved before these were kept: apply's read-back then guesses from the plan's lines. */
      videoIds?: string[];
      direction?: "add" | "remove";
    }
  | { kind: "subscribe_artists"; channelIds: string[] }
  | { kind: "unsubscribe_artists"; channelIds: string[] }
  /** Only in undo plans, with `--delete-created`: the playlist the undone run created. */
  | { kind: "delete_playlist"; playlistId: string };

export type PlanActionKind = PlanAction["kind"];

export type LineOp = "add" | "keep" | "move" | "remove" | "rate" | "skip";

/** One item's fate. Every source item and every target row appears exactly once. */
export interface PlanLine {
  op: LineOp;
  key: string | null;
  label: string;
  videoId: string | null;
  /** Source id and rank for source items; null for target rows no source named. */
  source: string | null;
  rank: number | null;
  /** Why: the skip reason, or a note ("added outside the engine", "rating LIKE"). */
  reason: string | null;
}

export type GuardName =
  | "source_truncated"
  | "source_shrunk"
  | "too_few_items"
  | "empty_desired"
  | "max_removals"
  | "target_truncated"
  | "overflow";

export interface GuardNote {
  guard: GuardName;
  message: string;
  /** What the guard held back ("none": a note only, e.g. rows rotated out under `overflow: rotate`). */
  blocks: "removals" | "all" | "adds" | "none";
}

export interface PlanSummary {
  add: number;
  remove: number;
  move: number;
  rate: number;
  /** Items the target holds and keeps: one per item, a row the pipeline dropped included. */
  keep: number;
  /**
   * Items that do not go in: the skip lines, and the file sources' entries left out (`notes`: an
   * entry no video was found for, a row that cannot be read), which have no video to make a line of.
   */
  skip: number;
  create: number;
  edit: number;
  /** Write requests the plan sends. */
  requests: number;
}

export interface Plan {
  version: typeof PLAN_VERSION;
  recipe: { id: string; hash: string };
  account: string;
  mode: Mode;
  target: {
    spec: TargetSpec;
    playlistId: string | null;
    exists: boolean;
    /** sha256 of the target as read: apply refuses the plan when a fresh read differs. */
    fingerprint: string;
    rows: number;
  };
  actions: PlanAction[];
  lines: PlanLine[];
  guards: GuardNote[];
  /** Reasons the plan refuses to do anything (e.g. `overflow: error`). */
  errors: string[];
  /** Keys apply records as tombstones (rows the person removed after the engine added them). */
  tombstones: string[];
  summary: PlanSummary;
  /** Each source's read size (absent in plans made before it was kept). */
  sources?: PlanSource[];
  /** File rows that could not be read, entries no video was found for (absent when none). */
  notes?: SourceNote[];
  /** `overflow: split`: which of the recipe's playlists this plan is (absent: not split). */
  part?: PlanPart;
  /**
   * A plan only shown (`plan`, `sync --dry-run`) that `policy.require_approval` would hold when
   * applied: why. Absent when it would be applied as it is.
   */
  heldForApproval?: string;
}

/** Part `index` of `of` (1-based); part 1 is the recipe's own playlist, part k its "Title (k)". */
export interface PlanPart {
  index: number;
  of: number;
}
