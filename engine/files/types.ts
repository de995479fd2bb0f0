import type { SongEntry } from "../match/entry.js";
import type { CsvColumns, FileFormat } from "../recipe/types.js";

// The recipe's `file` source declares the formats and the CSV mapping; the reader takes them as they are.
export type { CsvColumns, FileFormat };

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
