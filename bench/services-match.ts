/**
 * bench/services-match — how well musicsync's matcher finds Spotify, ListenBrainz and Last.fm
 * entries, as the readers give them, among the emulator's songs.
 *
 *   npx tsx bench/services-match.ts [--size N] [--seed S]
 *
 * Starts an emulator (catalogue of N songs, default 2000), reads through the real readers
 * (engine/services/) from the emulator's fakes: Spotify's longest playlist (ISRCs on some tracks,
 * none on others; read with the app's token, as a public playlist is), ListenBrainz's Weekly Jams and Weekly Exploration
 * (every one kept), the Road Trip playlist and the all-time top recordings; Last.fm's loved tracks,
 * overall top tracks and recent tracks. Each service's entries (distinct by service id) are
 * resolved as a file source resolves its entries, then again on the cache, and judged against the
 * fakes' ground truth.
 *
 * Then a person's Spotify library beyond songs, read signed in: the saved albums (editions, albums
 * the catalogue lacks) matched to the catalogue's albums, the followed artists to its artists.
 *
 * Prints per service the misses by kind and, last, `<service> precision P recall R entries N
 * searches S (per entry) again A`: P = correct among accepted, R = accepted and correct among the
 * entries the catalogue has, S = searches sent, A = searches sent on the second run. For Spotify,
 * also what ten songs added to the playlist then cost (`grown`): the weekly mirror's case; for the
 * saved albums and followed artists, what five more saved or followed cost.
 */
import { lastfmKey, lastfmTruth } from "../emulator/services/lastfm/index.js";
import { listenbrainzTruth } from "../emulator/services/listenbrainz/index.js";
import {
  followArtists,
  SPOTIFY_FAKE_CLIENT,
  type SpotifyLibraryTruth,
  saveAlbums,
  spotifyAlbumTruth,
  spotifyArtistTruth,
  spotifyTruth,
} from "../emulator/services/spotify/index.js";
import { ALBUMS, type AlbumEntry } from "../engine/match/album.js";
import { ARTISTS } from "../engine/match/artist.js";
import {
  type MatchKind,
  type Resolution,
  type ResolveDeps,
  resolveEntries,
  resolveWith,
} from "../engine/match/resolve.js";
import { LastfmReader } from "../engine/services/lastfm/index.js";
import { ListenBrainzReader } from "../engine/services/listenbrainz/index.js";
import { SpotifyClient } from "../engine/services/spotify/index.js";
import type { ServiceTrack } from "../engine/services/types.js";
import { openSqliteState } from "../engine/state/sqlite.js";
import { MusicClient } from "../src/index.js";
import { signInToStandIn } from "../test/support/spotify-sign-in.js";
import { startHarness } from "../test/support/sync-harness.js";
import { commandLine } from "./args.js";

const args = commandLine({
  script: "bench/services-match",
  numbers: { size: { default: 2000 }, seed: { default: 7, zero: true } },
});
const { size, seed } = args.numbers;

const http = { now: Date.now, sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };

function distinct(tracks: ServiceTrack[]): ServiceTrack[] {
  const seen = new Map<string, ServiceTrack>();
  for (const t of tracks) if (!seen.has(t.serviceId)) seen.set(t.serviceId, t);
  return [...seen.values()];
}

async function searchesSent(url: string): Promise<number> {
  const stats = (await (await fetch(`${url}/_emulator/stats`)).json()) as {
    requests: Record<string, number>;
  };
  return stats.requests.search ?? 0;
}

/** Why one entry went wrong, if it did. */
function miss(t: ServiceTrack, answer: string | null, r: Resolution): string | null {
  if (r.videoId === answer) return null;
  const ids = t.isrc ? "with ISRC" : t.mbid ? "with MBID" : "words only";
  const kind = answer === null ? "not in the catalogue" : ids;
  if (answer === null) return `${kind}: matched something (false match)`;
  if (r.videoId === null) return `${kind}: not matched (${r.reasons[0] ?? "?"})`.replace(/\d+(\.\d+)?/g, "#");
  return `${kind}: matched the wrong song (false match)`;
}

const h = await startHarness({ catalogueSize: size, seed });
try {
  const client = new MusicClient({ baseUrl: h.emulator.url });
  const lb = new ListenBrainzReader({ baseUrl: `${h.emulator.url}/listenbrainz`, http });
  const lfm = new LastfmReader({
    apiKey: lastfmKey(h.emulator.state),
    baseUrl: `${h.emulator.url}/lastfm/2.0/`,
    http,
  });
  const road = (await lb.userPlaylists("listener")).find((p) => p.title === "Road Trip")!;
  const spotify = new SpotifyClient({
    app: { clientId: SPOTIFY_FAKE_CLIENT.id, clientSecret: SPOTIFY_FAKE_CLIENT.secret },
    apiBase: `${h.emulator.url}/spotify/api/v1`,
    accountsBase: `${h.emulator.url}/spotify/accounts`,
    http,
  });
  const longest = (
    (await (await fetch(`${h.emulator.url}/_emulator/services/spotify/playlists`)).json()) as {
      playlists: { id: string; length: number }[];
    }
  ).playlists.sort((a, b) => b.length - a.length)[0]!;
  const spotifyAnswers = () =>
    new Map(
      spotifyTruth(h.emulator.state, longest.id).flatMap((t) =>
        t?.trackId ? [[`spotify:track:${t.trackId}`, t.videoId] as const] : [],
      ),
    );
  const services: [string, ServiceTrack[], Map<string, string | null>][] = [
    ["spotify", distinct((await spotify.playlist(longest.id)).entries), spotifyAnswers()],
    [
      "listenbrainz",
      distinct([
        ...(await lb.series("listener", "weekly-jams", "all")).flatMap((p) => p.list.entries),
        ...(await lb.series("listener", "weekly-exploration", "all")).flatMap((p) => p.list.entries),
        ...(await lb.playlist(road.mbid)).list.entries,
        ...(await lb.topRecordings("listener", "all_time")).entries,
      ]),
      listenbrainzTruth(h.emulator.state),
    ],
    [
      "lastfm",
      distinct([
        ...(await lfm.lovedTracks("scrobbler")).entries,
        ...(await lfm.topTracks("scrobbler", "overall")).entries,
        ...(await lfm.recentTracks("scrobbler")).entries,
      ]),
      lastfmTruth(h.emulator.state),
    ],
  ];
  /** Ten songs added to the playlist on Spotify, the whole list read and matched again: what it searches. */
  const grownBy10 = async (deps: Parameters<typeof resolveEntries>[1]) => {
    await fetch(`${h.emulator.url}/_emulator/services/spotify/playlists/${longest.id}/add?count=10`, {
      method: "POST",
    });
    const now = (await spotify.playlist(longest.id)).entries.map((t) => ({ ...t, videoId: null }));
    const before = await searchesSent(h.emulator.url);
    await resolveEntries(now, deps);
    return (await searchesSent(h.emulator.url)) - before;
  };
  const lines: string[] = [];
  for (const [name, tracks, truth] of services) {
    const state = openSqliteState(":memory:");
    const deps = {
      search: (query: string, filter: "songs" | "videos") => client.search(query, { filter, limit: 20 }),
      cache: state,
      overrides: new Map<string, string>(),
      now: Date.now(),
    };
    const entries = tracks.map((t) => ({ ...t, videoId: null }));
    const before = await searchesSent(h.emulator.url);
    const first = await resolveEntries(entries, deps);
    const searches = (await searchesSent(h.emulator.url)) - before;
    await resolveEntries(entries, deps);
    const again = (await searchesSent(h.emulator.url)) - before - searches;
    const grown = name === "spotify" ? await grownBy10(deps) : null;
    await state.close();
    const figures = judged(name, tracks, first.resolutions, (id) => truth.get(id) ?? null, miss);
    lines.push(
      `${figures} searches ${searches} (${perEntry(searches, tracks.length)} per entry) again ${again}` +
        (grown === null ? "" : ` grown by 10: ${grown} searches`),
    );
  }
  const person = new SpotifyClient({
    app: { clientId: SPOTIFY_FAKE_CLIENT.id, clientSecret: SPOTIFY_FAKE_CLIENT.secret },
    apiBase: `${h.emulator.url}/spotify/api/v1`,
    accountsBase: `${h.emulator.url}/spotify/accounts`,
    token: await signInToStandIn(h.emulator.url, http),
    http,
  });
  const search = (query: string, filter: Parameters<ResolveDeps["search"]>[1]) =>
    client.search(query, { filter, limit: 20 });
  // A larger sample than a person's 30 saved albums: most of the catalogue's albums, some as editions.
  saveAlbums(h.emulator.state, 140);
  followArtists(h.emulator.state, 20);
  lines.push(
    await library("spotify albums", ALBUMS, {
      read: async () => (await person.savedAlbums()).entries,
      truth: () => spotifyAlbumTruth(h.emulator.state),
      more: () => saveAlbums(h.emulator.state, 5),
      search,
      searchesSent: () => searchesSent(h.emulator.url),
      describe: (a: AlbumEntry) => (/\(|remaster/i.test(a.title) ? "an edition" : "the album as titled"),
    }),
    await library("spotify artists", ARTISTS, {
      read: async () => (await person.followedArtists()).entries,
      truth: () => spotifyArtistTruth(h.emulator.state),
      more: () => followArtists(h.emulator.state, 5),
      search,
      searchesSent: () => searchesSent(h.emulator.url),
      describe: () => "by name",
    }),
  );
  console.log(`catalogue ${size} songs (seed ${seed})`);
  for (const l of lines) console.log(l);
} finally {
  await h.stop();
}

interface LibraryBench<E> {
  read(): Promise<E[]>;
  truth(): SpotifyLibraryTruth[];
  more(): unknown;
  search: ResolveDeps["search"];
  searchesSent(): Promise<number>;
  /** What kind of entry it is, for the misses by kind. */
  describe(entry: E): string;
}

/**
 * A library list matched as a run matches it (on a fresh cache), again on the cache, then after
 * five more saved or followed on Spotify; judged against the stand-in's truth. Prints its misses
 * by kind and returns its figures' line.
 */
async function library<E extends { serviceId: string }, C>(
  name: string,
  kind: MatchKind<E, C>,
  b: LibraryBench<E>,
): Promise<string> {
  const state = openSqliteState(":memory:");
  const deps = { search: b.search, cache: state, overrides: new Map<string, string>(), now: Date.now() };
  try {
    const entries = await b.read();
    const answers = new Map(b.truth().map((t) => [t.serviceId, t.answer]));
    const start = await b.searchesSent();
    const first = await resolveWith(kind, entries, deps);
    const searches = (await b.searchesSent()) - start;
    await resolveWith(kind, entries, deps);
    const again = (await b.searchesSent()) - start - searches;
    b.more();
    const before = await b.searchesSent();
    await resolveWith(kind, await b.read(), deps);
    const grown = (await b.searchesSent()) - before;
    const figures = judged(
      name,
      entries,
      first.resolutions,
      (id) => answers.get(id) ?? null,
      (e, answer, r) => libraryMiss(b.describe(e), answer, r),
    );
    return `${figures} searches ${searches} (${perEntry(searches, entries.length)} per entry) again ${again} grown by 5: ${grown} searches`;
  } finally {
    await state.close();
  }
}

function libraryMiss<E, C>(kind: string, answer: string | null, r: Resolution<E, C>): string | null {
  if (r.videoId === answer) return null;
  if (answer === null) return "not in the catalogue: matched something (false match)";
  if (r.videoId === null) return `${kind}: not matched (${r.reasons[0] ?? "?"})`.replace(/\d+(\.\d+)?/g, "#");
  return `${kind}: matched the wrong one (false match)`;
}

function perEntry(searches: number, entries: number): string {
  return (searches / Math.max(1, entries)).toFixed(2);
}

/**
 * One list's first resolutions judged against the truth: prints the misses by kind and returns
 * `<name> precision P recall R entries N`.
 */
function judged<E extends { serviceId: string }, R extends { videoId: string | null }>(
  name: string,
  entries: readonly E[],
  resolutions: readonly R[],
  answerOf: (serviceId: string) => string | null,
  missOf: (entry: E, answer: string | null, r: R) => string | null,
): string {
  let accepted = 0;
  let correct = 0;
  const kinds = new Map<string, number>();
  for (const [i, e] of entries.entries()) {
    const r = resolutions[i]!;
    const answer = answerOf(e.serviceId);
    if (r.videoId) accepted++;
    if (r.videoId && r.videoId === answer) correct++;
    const m = missOf(e, answer, r);
    if (m) kinds.set(m, (kinds.get(m) ?? 0) + 1);
  }
  const existing = entries.filter((e) => answerOf(e.serviceId) !== null).length;
  console.log(`${name}: ${entries.length} entries, ${existing} in the catalogue; misses by kind:`);
  for (const [kind, n] of [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 8))
    console.log(`  ${String(n).padStart(4)}  ${kind}`);
  const share = (n: number, of: number) => (n / Math.max(1, of)).toFixed(3);
  return `${name} precision ${share(correct, accepted)} recall ${share(correct, existing)} entries ${entries.length}`;
}
