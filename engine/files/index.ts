export { FileSourceError } from "./errors.js";
export { formatOf } from "./format.js";
export { readEntries, readEntriesFile } from "./read.js";
export type { CsvColumns, EntriesRead, FileEntry, FileFormat, FileIssue, ReadOptions } from "./types.js";
export { writeEntries } from "./write.js";
