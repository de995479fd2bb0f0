/**
 * The shape of a recipe as written, once the schema has accepted it: everything optional that has a
 * default. Only the normaliser and the semantic checks see this form.
 */
import type {
  ArtistSection,
  ChartSection,
  CombineOp,
  CsvColumns,
  DedupeKey,
  ExpandKind,
  FileFormat,
  LibraryKind,
  LibraryTargetKind,
  Mode,
  NotifyEventKind,
  Policy,
  Privacy,
  SearchFilter,
  ShufflePeriod,
  SortKey,
  SourceType,
} from "./types.js";

export interface SourceInput {
  id: string;
  type: SourceType;
  limit?: number;
  playlistId?: string;
  browseId?: string;
  audioPlaylistId?: string;
  channelId?: string;
  section?: ArtistSection | ChartSection;
  query?: string;
  filter?: SearchFilter;
  country?: string;
  category?: string;
  playlist?: string;
  videoId?: string;
  from?: string;
  kind?: LibraryKind;
  videoIds?: string[];
  path?: string;
  format?: FileFormat;
  columns?: CsvColumns;
  strict?: boolean;
}

export interface StepInput {
  combine?: { op: CombineOp; sources: string[] };
  filter?: {
    available?: boolean;
    explicit?: boolean;
    videoType?: string[];
    duration?: { min?: number; max?: number };
    artists?: { include?: string[]; exclude?: string[] };
    title?: { include?: string; exclude?: string };
  };
  since?: { days: number };
  dedupe?: { by?: DedupeKey };
  exclude?: { sources?: string[]; liked?: boolean; tombstones?: boolean };
  sort?: { by: SortKey; order?: "asc" | "desc" };
  shuffle?: { period?: ShufflePeriod; seed?: string };
  limit?: number;
  expand?: ExpandKind;
}

export interface TargetInput {
  type: "playlist" | "likes" | "library" | "subscriptions" | "saved_episodes";
  playlist?: { id?: string; title?: string; description?: string; privacy?: Privacy };
  allow_delete?: boolean;
  rating?: "LIKE" | "DISLIKE";
  kind?: LibraryTargetKind;
}

export interface RecipeInput {
  apiVersion: "musicsync/v1";
  kind: "Recipe";
  id: string;
  description?: string;
  account?: string;
  schedule?: { cron: string; timezone?: string; jitter?: string };
  sources: SourceInput[];
  pipeline?: StepInput[];
  target: TargetInput;
  mode?: Mode;
  policy?: Partial<Policy>;
}

export interface ProjectInput {
  apiVersion: "musicsync/v1";
  kind: "Project";
  accounts?: Record<
    string,
    {
      auth?: string;
      token?: string;
      oauth_client?: { id: string; secret: string };
      brand_account?: string;
      language?: string;
      location?: string;
      base_url?: string;
      emulator?: { db?: string; seed?: number; catalogue?: number; account?: number };
    }
  >;
  defaults?: { account?: string; mode?: Mode; timezone?: string; policy?: Partial<Policy> };
  pacing?: { min_interval_ms?: number; max_writes_per_minute?: number; suspend_after_failures?: number };
  recipes?: string[];
  state?: string;
  undo?: { max_age_days?: number };
  notify?: NotifyTargetInput[];
  file_sources?: { allow?: string[] };
}

export interface NotifyTargetInput {
  type: "webhook" | "ntfy" | "command";
  name?: string;
  events?: NotifyEventKind[];
  url?: string;
  headers?: Record<string, string>;
  priority?: number;
  tags?: string[];
  command?: string[];
}
