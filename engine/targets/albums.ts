/**
 * Albums named by tracks (`expand: albums`) are known by their page's browse id (MPRE…), but the
 * library saves an album by rating its playlist (OLAK5uy…), and only the album page gives that id.
 * So, between the pipeline and the plan, each such album gets its playlist id: from the library
 * row of the same album when it is saved already (a re-run reads nothing), else from its page,
 * one read per album not yet saved.
 */
import type { Desired } from "../plan/types.js";
import type { TargetSpec } from "../recipe/types.js";
import type { Item } from "../sources/item.js";
import type { SourceClient } from "../sources/reader.js";

/** Reads of the service this needs (a part of `SourceClient`). */
export type AlbumsClient = Pick<SourceClient, "getAlbum">;

function needsPlaylist(item: Item): item is Item & { browseId: string } {
  return item.kind === "album" && item.playlistId === null && item.browseId !== null;
}

/** Desired with every album's playlist id filled in; albums whose page names none are skipped. */
export async function withAlbumPlaylists(
  desired: Desired,
  target: TargetSpec,
  actualRows: readonly Item[],
  client: AlbumsClient,
): Promise<Desired> {
  if (target.type !== "library" || target.kind !== "albums") return desired;
  if (!desired.items.some(needsPlaylist)) return desired;
  const known = new Map<string, string | null>();
  for (const row of actualRows) if (row.browseId && row.playlistId) known.set(row.browseId, row.playlistId);
  const items: Item[] = [];
  const skipped = [...desired.skipped];
  for (const item of desired.items) {
    if (!needsPlaylist(item)) {
      items.push(item);
      continue;
    }
    if (!known.has(item.browseId)) {
      known.set(item.browseId, (await client.getAlbum(item.browseId)).audioPlaylistId ?? null);
    }
    const playlistId = known.get(item.browseId) ?? null;
    if (playlistId === null) skipped.push({ item, reason: "the album page names no playlist to save" });
    else items.push({ ...item, playlistId });
  }
  return { ...desired, items, skipped };
}
