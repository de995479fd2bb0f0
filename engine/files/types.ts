import type { SongEntry } from "../match/entry.js";

/** The formats a `file` source reads (and `musicsync export` writes); a recipe names one of them. */
export const FILE_FORMATS = ["csv", "m3u", "xspf", "json", "text"] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

/**
 * A generic CSV's columns, by header name: which one holds what, as written. `duration_unit`
 * absent: milliseconds when the header says ms, else seconds ("3:45" is read as m:ss). A recipe's
 * `file` source writes them; its schema (engine/recipe/schema.ts) says the same shape, and
 * engine/recipe/types.ts checks that the two agree.
 */
export interface CsvColumns {
  title: string;
  artists?: string;
  album?: string;
  duration?: string;
  duration_unit?: "ms" | "s";
  isrc?: string;
  explicit?: string;
  video_id?: string;
}

export interface FileEntry extends SongEntry {
  /** 1-based line where the entry starts. */
  line: number;
}

/** A row that cannot be read: skipped, or the whole file refused when reading strictly. */
export interface FileIssue {
  line: number;
  message: string;
}

export interface EntriesRead {
  format: FileFormat;
  entries: FileEntry[];
  issues: FileIssue[];
}

export interface ReadOptions {
  /** Used only to pick the format by extension. */
  fileName: string;
  format?: FileFormat;
  columns?: CsvColumns;
  /** The first bad row refuses the whole file instead of becoming an issue. */
  strict?: boolean;
}
