/**
 * One emulator's Spotify fake: its generated data and its accounts host, kept beside the
 * emulator's state (a WeakMap, so nothing of the emulator's own needs to know of it). The data is
 * in memory: it is generated again, the same, from the seed and the catalogue at each start. The
 * tokens issued are in the emulator's database, so that a sign-in outlives a restart (each
 * musicsync command starts the embedded emulator anew), and so are the changes made through the
 * controls (a playlist gaining songs), made again on the generated data at the next start.
 */
import type { EmulatorState } from "../../context.js";
import { keepChange, replayChanges } from "../kept-changes.js";
import { SpotifyAccounts } from "./auth.js";
import { type FakePlaylist, generateSpotifyData, type SpotifyData } from "./data.js";
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
      replayChanges(this.state, "spotify", (c) => this.change(c as unknown as PlaylistChange));
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
    return this.made({ op: "grow", id, count });
  }

  /** Removes the rows at `positions` (0-based) from a playlist. */
  remove(id: string, positions: readonly number[]): void {
    this.made({ op: "remove", id, positions: [...positions] });
  }

  private made(c: PlaylistChange): FakeTrack[] {
    const added = this.change(c);
    keepChange(this.state, "spotify", { ...c });
    return added;
  }

  private change(c: PlaylistChange): FakeTrack[] {
    const p = this.playlist(c.id);
    p.snapshot++;
    if (c.op === "grow") {
      const added = this.data.more(c.count);
      p.items.push(...added);
      return added;
    }
    const drop = new Set(c.positions);
    p.items = p.items.filter((_, i) => !drop.has(i));
    return [];
  }
}

/** A change made to a playlist through the controls, as kept. */
type PlaylistChange =
  | { op: "grow"; id: string; count: number }
  | { op: "remove"; id: string; positions: number[] };

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
