/**
 * Recipes and the project file, after loading: every default filled in, every object frozen.
 * Keys the engine defines are snake_case (`max_removals`); ids the service defines keep its
 * camelCase (`videoId`, `browseId`, `channelId`, `playlistId`).
 *
 * The file's own shape is said once, in schema.ts; this is what the loader makes of it, a shape of
 * its own (an absent setting is null or its default, paths are resolved, a file source knows its
 * folders). Where a part keeps its written shape with the defaults filled in (policy, pacing, CSV
 * columns, an emulator account) its type is derived from the schema; the words come from
 * vocabulary.ts, as the schema's do; normalise.ts turns one into the other, and the compiler checks
 * that it covers every source and target type the schema has.
 */

import type { Static } from "typebox";
import type { CsvColumns, FileFormat } from "../files/types.js";
import type { parts } from "./schema.js";
import type {
  ArtistSection,
  ChartSection,
  CombineOp,
  DedupeKey,
  ExpandKind,
  LastfmList,
  LastfmPeriod,
  LibraryKind,
  LibraryTargetKind,
  ListenBrainzRange,
  ListenBrainzSeries,
  Mode,
  NotifyEventKind,
  Privacy,
  SearchFilter,
  ShufflePeriod,
  SortKey,
  SpotifyLibrary,
} from "./vocabulary.js";
import { NOTIFY_EVENTS } from "./vocabulary.js";

export const API_VERSION = "musicsync/v1";
/** The service refuses to grow a playlist past this many items. */
export const PLAYLIST_CAP = 5000;

// The words (lists and their unions) live in vocabulary.ts, which the schema reads; said here too
// so the engine has one module to import a recipe's types from.
export * from "./vocabulary.js";

interface SourceBase {
  /** The name pipeline steps use to refer to this source. */
  id: string;
  /** Read at most this many items (null = all). */
  limit: number | null;
}

export interface PlaylistSource extends SourceBase {
  type: "playlist";
  playlistId: string;
}
export interface AlbumSource extends SourceBase {
  type: "album";
  browseId: string | null;
  audioPlaylistId: string | null;
}
export interface ArtistSource extends SourceBase {
  type: "artist";
  channelId: string;
  section: ArtistSection;
}
export interface SearchSource extends SourceBase {
  type: "search";
  query: string;
  filter: SearchFilter;
}
export interface ChartSource extends SourceBase {
  type: "chart";
  /** ISO 3166-1 alpha-2, or `ZZ` for the global charts. */
  country: string;
  section: ChartSection;
}
export interface MoodSource extends SourceBase {
  type: "mood";
  /** The mood or genre button's title, e.g. `Chill`. */
  category: string;
  /** `first`, `all`, or the title of one of the category's playlists. */
  playlist: string;
}
export interface RadioSource extends SourceBase {
  type: "radio";
  videoId: string | null;
  playlistId: string | null;
  /** Seed the radio from the first item of another source. */
  from: string | null;
}
export interface LikedSource extends SourceBase {
  type: "liked";
}
export interface LibrarySource extends SourceBase {
  type: "library";
  kind: LibraryKind;
}
export interface HistorySource extends SourceBase {
  type: "history";
}
export interface PodcastSource extends SourceBase {
  type: "podcast";
  playlistId: string;
}
export interface NewEpisodesSource extends SourceBase {
  type: "new_episodes";
}
export interface SavedEpisodesSource extends SourceBase {
  type: "saved_episodes";
}
export interface StaticSource extends SourceBase {
  type: "static";
  videoIds: readonly string[];
}
export interface SelfSource extends SourceBase {
  type: "self";
}

// A file source's CSV columns are the reader's (engine/files/types.ts); the schema says the same
// shape, and this fails to compile when the two part.
// (Compared as the compiler compares two types for identity: optional fields count too.)
type SameShape<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Holds<T extends true> = T;
type _CsvColumnsAgree = Holds<SameShape<Static<typeof parts.csvColumns>, CsvColumns>>;

/** Songs listed in a file (an export of another service, a local playlist), matched by search. */
export interface FileSource extends SourceBase {
  type: "file";
  /** Absolute: resolved against the recipe file's folder when the recipe loads. */
  path: string;
  /** null: from the file's extension, then its content. */
  format: FileFormat | null;
  columns: CsvColumns | null;
  /** A row that cannot be read refuses the whole file (default: it is skipped and reported). */
  strict: boolean;
  /** `matches.yaml` beside the recipe file: the person's corrections. */
  overrides: string;
  /**
   * The folders (real paths) the file must really be in: the project folder and the project's
   * `file_sources.allow`, set by the loader (engine/recipe/file-paths.ts). Empty: nowhere.
   */
  within: readonly string[];
}

/**
 * What the other services' sources share: their songs are matched to videos as a file's entries are
 * (engine/match/), with the person's corrections in `matches.yaml` beside the recipe file.
 */
interface ServiceSourceBase extends SourceBase {
  /** `matches.yaml` beside the recipe file (absolute once loaded). */
  overrides: string;
}

/** A Spotify playlist, or the person's liked songs, saved albums or followed artists. */
export interface SpotifySource extends ServiceSourceBase {
  type: "spotify";
  /** The playlist's id (from an id, an open.spotify.com link or a spotify:playlist: URI); null: `library`. */
  playlist: string | null;
  library: SpotifyLibrary | null;
}

/**
 * One of: the newest playlist of a series ListenBrainz makes for `user` (or every one it keeps,
 * `archived`), a playlist by MBID, `user`'s own playlist of a title, or `user`'s top recordings.
 */
export interface ListenBrainzSource extends ServiceSourceBase {
  type: "listenbrainz";
  user: string | null;
  series: ListenBrainzSeries | null;
  archived: boolean;
  playlist: string | null;
  title: string | null;
  top: ListenBrainzRange | null;
}

/** A Last.fm user's loved tracks, top tracks over a period, or recent tracks. */
export interface LastfmSource extends ServiceSourceBase {
  type: "lastfm";
  user: string;
  list: LastfmList;
  /** For `top`; Last.fm's default, `overall`, when not written. */
  period: LastfmPeriod;
}

export type ServiceSource = SpotifySource | ListenBrainzSource | LastfmSource;

export type SourceSpec =
  | PlaylistSource
  | AlbumSource
  | ArtistSource
  | SearchSource
  | ChartSource
  | MoodSource
  | RadioSource
  | LikedSource
  | LibrarySource
  | HistorySource
  | PodcastSource
  | NewEpisodesSource
  | SavedEpisodesSource
  | StaticSource
  | SelfSource
  | FileSource
  | ServiceSource;

export interface CombineStep {
  combine: { op: CombineOp; sources: readonly string[] };
}
export interface FilterStep {
  filter: {
    available: boolean | null;
    explicit: boolean | null;
    videoType: readonly string[] | null;
    duration: { min: number | null; max: number | null } | null;
    artists: { include: readonly string[] | null; exclude: readonly string[] | null } | null;
    title: { include: string | null; exclude: string | null } | null;
  };
}
export interface SinceStep {
  /** Keep items dated within this many days before the planning time. */
  since: { days: number };
}
export interface DedupeStep {
  dedupe: { by: DedupeKey };
}
export interface ExcludeStep {
  exclude: { sources: readonly string[]; liked: boolean; tombstones: boolean };
}
export interface SortStep {
  sort: { by: SortKey; order: "asc" | "desc" };
}
export interface ShuffleStep {
  shuffle: { period: ShufflePeriod; seed: string };
}
export interface LimitStep {
  limit: number;
}
export interface ExpandStep {
  expand: ExpandKind;
}

export type PipelineStep =
  | CombineStep
  | FilterStep
  | SinceStep
  | DedupeStep
  | ExcludeStep
  | SortStep
  | ShuffleStep
  | LimitStep
  | ExpandStep;

export interface PlaylistTarget {
  type: "playlist";
  /** Adopt an existing playlist by id, or own one created (and found again) by title. */
  playlist: {
    id: string | null;
    title: string | null;
    description: string | null;
    privacy: Privacy | null;
  };
  /** The recipe may delete the playlist it owns when the recipe is removed. */
  allow_delete: boolean;
}
export interface LikesTarget {
  type: "likes";
  rating: "LIKE" | "DISLIKE";
}
export interface LibraryTarget {
  type: "library";
  kind: LibraryTargetKind;
}
export interface SubscriptionsTarget {
  type: "subscriptions";
}
export interface SavedEpisodesTarget {
  type: "saved_episodes";
}
export type TargetSpec =
  | PlaylistTarget
  | LikesTarget
  | LibraryTarget
  | SubscriptionsTarget
  | SavedEpisodesTarget;
export type TargetType = TargetSpec["type"];

/**
 * A policy with its defaults filled in (engine/recipe/defaults.ts): each key as the schema describes
 * it (schema.ts), all present but `require_approval`, whose absence holds nothing. A recipe's
 * `require_approval` replaces the project's as a whole.
 */
export type Policy = Required<Omit<PolicyInput, "require_approval">> & Pick<PolicyInput, "require_approval">;
type PolicyInput = Static<typeof parts.policy>;

/** Thresholds over which a plan waits for a person; either one reached holds it. */
export type RequireApproval = Static<typeof parts.requireApproval>;

export interface Schedule {
  cron: string;
  timezone: string | null;
  /** Seconds: each run starts at a random moment up to this long after its time. Absent = none. */
  jitter_seconds?: number;
}

export interface Recipe {
  apiVersion: typeof API_VERSION;
  kind: "Recipe";
  id: string;
  description: string | null;
  account: string;
  schedule: Schedule | null;
  sources: readonly SourceSpec[];
  pipeline: readonly PipelineStep[];
  target: TargetSpec;
  mode: Mode;
  policy: Policy;
}

/** Where a loaded recipe came from, for messages and for the recipe hash. */
export interface LoadedRecipe {
  recipe: Recipe;
  file: string;
  line: number;
  col: number;
  /** sha256 of the normalised recipe, so a saved plan can tell it was made from this version. */
  hash: string;
}

export interface Account {
  /** Browser-headers file or OAuth token file, or the credentials themselves (see run/auth-setting.ts). */
  auth: string | null;
  /** An OAuth token file or the token JSON (alternative to `auth`). */
  token: string | null;
  oauth_client: { id: string; secret: string } | null;
  brand_account: string | null;
  language: string;
  location: string | null;
  /** Point the account at the emulator or a replay server. */
  base_url: string | null;
  /** The embedded emulator stands for the account (no credentials needed); see run/emulator-account.ts. */
  emulator: EmulatorAccount | null;
}

/**
 * An `emulator:` account, the emulator started in-process for each command, with its defaults
 * filled in; `db` is relative to the project file.
 */
export type EmulatorAccount = Required<Static<typeof parts.emulatorAccount>>;

/** How writes are paced and failures counted, per account, with the defaults filled in. */
export type Pacing = Required<Static<typeof parts.pacing>>;

export interface Project {
  apiVersion: typeof API_VERSION;
  kind: "Project";
  accounts: Readonly<Record<string, Account>>;
  defaults: { account: string; mode: Mode; timezone: string | null; policy: Policy };
  pacing: Pacing;
  /** Recipe files or folders, relative to the project file. */
  recipes: readonly string[];
  /** The SQLite state file, relative to the project file. */
  state: string;
  /** `musicsync undo`: runs older than max_age_days are refused (also `history`'s undoable marks). */
  undo: { max_age_days: number };
  /** Where the daemon and `sync` send notifications (engine/notify/); empty: none. */
  notify: readonly NotifyTarget[];
  /** Folders outside the project folder that `file` sources may read, as written (relative to the project file). */
  file_sources: { allow: readonly string[] };
  /** The other music services' settings, as written (secrets may be `${VAR}`s left unresolved). */
  services: Services;
  /**
   * Settings read only when a command uses them (accounts, notify, state) whose `${VAR}` was not
   * set where the file was loaded: left as written, refused by the command that needs them
   * (engine/recipe/deferred-settings.ts). Absent or empty when every reference had a value.
   */
  unresolved?: readonly UnresolvedSetting[];
}

/** `services:` of the project file, as written; absent services are absent. */
export type Services = Static<typeof parts.services>;

/** A setting that names environment variables not set here, and where it is. */
export interface UnresolvedSetting {
  /** `["notify", 1, "headers", "Authorization"]` */
  path: readonly (string | number)[];
  variables: readonly string[];
  file: string;
  line: number;
  col: number;
}

/** A target that leaves out `events` gets these: every event but the summary of applied changes. */
export const DEFAULT_NOTIFY_EVENTS: readonly NotifyEventKind[] = NOTIFY_EVENTS.filter((e) => e !== "applied");

interface NotifyTargetBase {
  /** Names the target in logs and metrics (default: its type and position, e.g. `webhook-1`). */
  name: string;
  events: readonly NotifyEventKind[];
}

/** A JSON POST of the event; `headers` (an Authorization for the receiver…) are sent, never logged. */
export interface WebhookTarget extends NotifyTargetBase {
  type: "webhook";
  url: string;
  headers: Readonly<Record<string, string>>;
}

/** An ntfy topic URL: the message as plain text, with Title, Priority and Tags headers. */
export interface NtfyTarget extends NotifyTargetBase {
  type: "ntfy";
  url: string;
  headers: Readonly<Record<string, string>>;
  /** 1 (min) to 5 (max); null: by event (failures and credentials high, the rest default). */
  priority: number | null;
  /** Added to the event's own tag. */
  tags: readonly string[];
}

/** A program run without a shell: the event as JSON on stdin and in MUSICSYNC_* variables. */
export interface CommandTarget extends NotifyTargetBase {
  type: "command";
  command: readonly string[];
}

export type NotifyTarget = WebhookTarget | NtfyTarget | CommandTarget;
