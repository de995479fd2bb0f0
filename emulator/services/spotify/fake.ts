/**
 * One emulator's Spotify fake: its generated data and its accounts host, kept beside the
 * emulator's state (a WeakMap, so nothing of the emulator's own needs to know of it). The data is
 * in memory: it is generated again, the same, from the seed and the catalogue at each start. The
 * tokens issued are in the emulator's database, so that a sign-in outlives a restart (each
 * musicsync command starts the embedded emulator anew), and so are the changes made through the
 * controls (a playlist gaining songs, an album saved, an artist followed), made again on the
 * generated data at the next start.
 */
import type { EmulatorState } from "../../context.js";
import { keepChange, replayChanges } from "../kept-changes.js";
import { SpotifyAccounts } from "./auth.js";
import {
  byId,
  type FakeArtist,
  type FakePlaylist,
  type FakeSavedAlbum,
  generateSpotifyData,
  type SpotifyData,
} from "./data.js";
import type { FakeTrack } from "./tracks.js";

export class SpotifyFake {
  readonly accounts: SpotifyAccounts;
  private generated: SpotifyData | null = null;

  constructor(private readonly state: EmulatorState) {
    this.accounts = new SpotifyAccounts(() => state.now(), state.store.spotifyTokens);
  }

  /**
   * Generated on first use (an emulator that never sees a Spotify request pays nothing), then the
   * changes kept from earlier starts made again on it (../kept-changes.ts).
   */
  get data(): SpotifyData {
    if (!this.generated) {
      this.generated = generateSpotifyData(this.state.store);
      replayChanges(this.state, "spotify", (c) => this.change(c as unknown as SpotifyChange));
    }
    return this.generated;
  }

  /** The public playlists, longest first as generated. */
  playlists(): FakePlaylist[] {
    return [...this.data.playlists.values()];
  }

  playlist(id: string): FakePlaylist {
    const p = this.data.playlists.get(id);
    if (!p) throw new Error(`emulator: no Spotify playlist ${id}`);
    return p;
  }

  /** Appends `count` tracks to a playlist (as its owner adding songs); returns them. */
  grow(id: string, count: number): FakeTrack[] {
    return this.made({ op: "grow", id, count }) as FakeTrack[];
  }

  /** Removes the rows at `positions` (0-based) from a playlist. */
  remove(id: string, positions: readonly number[]): void {
    this.made({ op: "remove", id, positions: [...positions] });
  }

  /** Saves the next `count` albums (newest first, as Spotify lists them); returns them. */
  saveAlbums(count: number): FakeSavedAlbum[] {
    return this.made({ op: "save", count }) as FakeSavedAlbum[];
  }

  /** Removes a saved album (it may be saved again later); false when it is not saved. */
  unsaveAlbum(id: string): boolean {
    return this.madeIf({ op: "unsave", id });
  }

  /** Follows the next `count` artists; returns them. */
  followArtists(count: number): FakeArtist[] {
    return this.made({ op: "follow", count }) as FakeArtist[];
  }

  /** Stops following an artist (it may be followed again later); false when it is not followed. */
  unfollowArtist(id: string): boolean {
    return this.madeIf({ op: "unfollow", id });
  }

  private made(c: SpotifyChange): Changed {
    const changed = this.change(c);
    // What was saved or followed is kept by id, not as "the next N": another emulator on the same
    // database, which saved the same next album, must not make the replay save two.
    const ids = c.op === "save" || c.op === "follow" ? { ids: changed.map((x) => x.id) } : {};
    keepChange(this.state, "spotify", { ...c, ...ids });
    return changed;
  }

  /** A change that may not apply (nothing to unsave): kept only when it did. */
  private madeIf(c: SpotifyChange): boolean {
    if (this.change(c).length === 0) return false;
    keepChange(this.state, "spotify", { ...c });
    return true;
  }

  private change(c: SpotifyChange): Changed {
    const data = this.data;
    switch (c.op) {
      case "grow": {
        const p = this.playlist(c.id);
        p.snapshot++;
        const added = data.more(c.count);
        p.items.push(...added);
        return added;
      }
      case "remove": {
        const p = this.playlist(c.id);
        p.snapshot++;
        const drop = new Set(c.positions);
        p.items = p.items.filter((_, i) => !drop.has(i));
        return [];
      }
      case "save": {
        const saved = taken(data.albumsToSave, c);
        data.albums.unshift(...saved);
        return saved;
      }
      case "unsave":
        return putBack(data.albums, data.albumsToSave, c.id);
      case "follow": {
        const followed = taken(data.artistsToFollow, c);
        data.artists = byId([...data.artists, ...followed]);
        return followed;
      }
      case "unfollow":
        return putBack(data.artists, data.artistsToFollow, c.id);
    }
  }
}

/** What a change added or took away. */
type Changed = (FakeTrack | FakeSavedAlbum | FakeArtist)[];

/** A change made through the controls, as kept: to a playlist, or to the person's library. */
type SpotifyChange =
  | { op: "grow"; id: string; count: number }
  | { op: "remove"; id: string; positions: number[] }
  | { op: "save" | "follow"; count: number; ids?: string[] }
  | { op: "unsave" | "unfollow"; id: string };

/** Takes from the ones to come the ones a kept change names (the next `count`, as kept before ids were). */
function taken<T extends { id: string }>(toCome: T[], c: { count: number; ids?: unknown }): T[] {
  if (!Array.isArray(c.ids)) return toCome.splice(0, c.count);
  const out: T[] = [];
  for (const id of c.ids) {
    const at = toCome.findIndex((x) => x.id === id);
    if (at >= 0) out.push(...toCome.splice(at, 1));
  }
  return out;
}

/** Moves the one of `id` from the list to the front of the ones to come; what moved (none or it). */
function putBack<T extends { id: string }>(list: T[], toCome: T[], id: string): T[] {
  const at = list.findIndex((x) => x.id === id);
  if (at < 0) return [];
  const moved = list.splice(at, 1);
  toCome.unshift(...moved);
  return moved;
}

const fakes = new WeakMap<EmulatorState, SpotifyFake>();

/** The Spotify fake of this emulator (made on first use). */
export function spotifyFake(state: EmulatorState): SpotifyFake {
  let f = fakes.get(state);
  if (!f) {
    f = new SpotifyFake(state);
    fakes.set(state, f);
  }
  return f;
}

/** What one track stands for: the catalogue song (video id) or none, and what kind of track it is. */
export interface SpotifyTruth {
  trackId: string | null;
  videoId: string | null;
  kind: FakeTrack["kind"];
  isrc: string | null;
}

/**
 * The known answers of matching: per row of a playlist (null rows for removed tracks), or of the
 * liked songs when `playlistId` is null. For tests and benchmarks only; the API never tells.
 */
export function spotifyTruth(state: EmulatorState, playlistId: string | null): (SpotifyTruth | null)[] {
  const fake = spotifyFake(state);
  const rows = playlistId === null ? fake.data.liked : fake.playlist(playlistId).items;
  return rows.map((t) =>
    t ? { trackId: t.id, videoId: t.videoId, kind: t.kind, isrc: t.isrc ?? null } : null,
  );
}
