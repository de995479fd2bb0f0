/**
 * Spotify's objects as the engine's entries: a track (or why a row cannot be one: a local file, a
 * track since removed, a podcast episode), a saved album, an artist. Pure; raw JSON is `unknown`
 * until read here, and a field the description lets be null or absent is read as unknown.
 */
import type { ServiceAlbum, ServiceArtist, ServiceSkip, ServiceTrack } from "../types.js";
import { isSpotifyId } from "./ids.js";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : null);
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** Why a row is not a song the engine can look for. */
export const SKIP_REASONS = {
  local: "local file",
  removed: "track no longer on Spotify",
  episode: "podcast episode",
  unreadable: "track without an id or title",
} as const;

export type Row = { track: ServiceTrack } | { skip: (typeof SKIP_REASONS)[keyof typeof SKIP_REASONS] };

const ISRC = /^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$/;

function names(list: unknown): string[] {
  return Array.isArray(list) ? list.map((a) => str(obj(a)?.name)).filter((n): n is string => n !== null) : [];
}

/** One playlist row or liked-song row (`{track}`), as an entry or a reason to skip it. */
export function rowOf(item: unknown): Row {
  const i = obj(item);
  const t = obj(i?.track);
  if (!t) return { skip: SKIP_REASONS.removed };
  if (t.is_local === true || i?.is_local === true) return { skip: SKIP_REASONS.local };
  if (t.type === "episode") return { skip: SKIP_REASONS.episode };
  const id = str(t.id);
  const title = str(t.name);
  if (!id || !isSpotifyId(id) || !title) return { skip: SKIP_REASONS.unreadable };
  const isrc = str(obj(t.external_ids)?.isrc)?.toUpperCase().replace(/-/g, "") ?? null;
  const ms = t.duration_ms;
  return {
    track: {
      title,
      artists: names(t.artists),
      album: str(obj(t.album)?.name),
      durationSeconds: typeof ms === "number" && ms > 0 ? Math.round(ms / 1000) : null,
      explicit: typeof t.explicit === "boolean" ? t.explicit : null,
      isrc: isrc && ISRC.test(isrc) ? isrc : null,
      mbid: null,
      serviceId: `spotify:track:${id}`,
    },
  };
}

/** Counts of skipped rows by reason, in the order first met. */
export class SkipCounter {
  private readonly counts = new Map<string, number>();
  add(reason: string): void {
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
  }
  list(): ServiceSkip[] {
    return [...this.counts].map(([reason, count]) => ({ reason, count }));
  }
  get total(): number {
    let n = 0;
    for (const c of this.counts.values()) n += c;
    return n;
  }
}

/** A saved-album row (`{added_at, album}`); null when it holds no album with an id. */
export function albumOf(item: unknown): ServiceAlbum | null {
  const a = obj(obj(item)?.album);
  const id = str(a?.id);
  const title = str(a?.name);
  if (!a || !id || !title) return null;
  // The date is "1981", "1981-12" or "1981-12-15" by its `release_date_precision`: the year leads each.
  const year = /^(\d{4})/.exec(str(a.release_date) ?? "");
  const tracks = a.total_tracks;
  return {
    title,
    artists: names(a.artists),
    year: year ? Number(year[1]) : null,
    trackCount: typeof tracks === "number" && Number.isInteger(tracks) && tracks > 0 ? tracks : null,
    albumType: str(a.album_type),
    upc: str(obj(a.external_ids)?.upc),
    serviceId: `spotify:album:${id}`,
  };
}

export function artistOf(item: unknown): ServiceArtist | null {
  const a = obj(item);
  const id = str(a?.id);
  const name = str(a?.name);
  return id && name ? { name, serviceId: `spotify:artist:${id}` } : null;
}
