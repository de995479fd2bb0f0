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
  const parts = new Array<string>(actual.rows.length);
  for (let i = 0; i < actual.rows.length; i++) {
    const row = actual.rows[i]!;
    parts[i] =
      `${row.videoId ?? ""}\u0000${row.setVideoId ?? ""}\u0000${row.playlistId ?? ""}\u0000${row.browseId ?? ""}`;
  }
  hash.update(`\n${parts.join("\n")}`);
  return hash.digest("hex");
}
