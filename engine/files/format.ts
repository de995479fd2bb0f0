import { extname } from "node:path";
import type { FileFormat } from "./types.js";

const BY_EXTENSION: Record<string, FileFormat> = {
  ".csv": "csv",
  ".tsv": "csv",
  ".m3u": "m3u",
  ".m3u8": "m3u",
  ".xspf": "xspf",
  ".json": "json",
  ".txt": "text",
};

/** By extension; for other names by the content's first characters; plain text when nothing fits. */
export function formatOf(fileName: string, text?: string): FileFormat {
  const known = BY_EXTENSION[extname(fileName).toLowerCase()];
  if (known) return known;
  const start = (text ?? "").slice(0, 4096).trimStart();
  if (/^#EXTM3U/i.test(start)) return "m3u";
  if (start.startsWith("<") && /<(\w+:)?playlist[\s>]/.test(start)) return "xspf";
  if (start.startsWith("[") || start.startsWith("{")) return "json";
  const firstLine = start.split("\n", 1)[0] ?? "";
  if (/^"?(track name|title|name|track|song)"?\s*[,;\t]/i.test(firstLine)) return "csv";
  return "text";
}
