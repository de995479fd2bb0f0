import { createHash } from "node:crypto";
import { canonicalJson } from "../recipe/freeze.js";
import type { ActualTarget } from "./types.js";

/**
 * What a target looked like when planned: its metadata and its rows in order (row ids included, so
 * a remove-and-re-add of the same song counts as a change). Apply compares a fresh read with it.
 */
export function targetFingerprint(actual: ActualTarget): string {
  const hash = createHash("sha256");
  hash.update(
    canonicalJson({
      exists: actual.exists,
      playlistId: actual.playlistId,
      title: actual.title,
      description: actual.description,
      privacy: actual.privacy,
    }),
  );
  // One string built by appending (no array of 5,000 parts to join), hashed in one update.
  let text = actual.rows.length === 0 ? "\n" : "";
  for (const row of actual.rows) {
    text += `\n${row.videoId ?? ""}\u0000${row.setVideoId ?? ""}\u0000${row.playlistId ?? ""}\u0000${row.browseId ?? ""}`;
  }
  hash.update(text);
  return hash.digest("hex");
}
