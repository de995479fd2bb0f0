/**
 * bench/spotify — what the Spotify pieces cost: the songs' ISRCs in catalogue generation, the
 * Spotify fake's data, and the engine's reader reading the fake's 500-row playlist and the
 * person's library (time and requests).
 *
 *   npx tsx bench/spotify.ts [--size N] [--runs R]
 *
 * Generation: a catalogue of N songs made in memory, and its ISRCs filled again on it (the part of
 * generation they add), side by side in each run. Reads: one emulator of N songs; the reader with
 * the app's token (a fresh token each run) reads the long playlist, then a person's token reads
 * liked songs, saved albums and followed artists. Prints medians of R runs; never fails on a slow
 * figure.
 */
import { performance } from "node:perf_hooks";
import { fillIsrcs } from "../emulator/catalogue/isrcs.js";
import { generateCatalogue } from "../emulator/catalogue.js";
import { startEmulator } from "../emulator/index.js";
import { SPOTIFY_FAKE_CLIENT, s256, spotifyFake } from "../emulator/services/spotify/index.js";
import { openDb } from "../emulator/store/db.js";
import { CatalogueWriter } from "../emulator/store/seed.js";
import { exchangeCode, SpotifyClient } from "../engine/services/spotify/index.js";
import { commandLine } from "./args.js";

const args = commandLine({
  script: "bench/spotify",
  numbers: { size: { default: 20_000 }, runs: { default: 5 } },
});
const { size, runs } = args.numbers;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function timed<T>(f: () => Promise<T> | T): Promise<[T, number]> {
  const t0 = performance.now();
  const v = await f();
  return [v, performance.now() - t0];
}

const generation: number[] = [];
const isrcs: number[] = [];
for (let i = 0; i < runs; i++) {
  const db = openDb(":memory:");
  const [, total] = await timed(() => generateCatalogue(db, { seed: 1, size }));
  db.$client.exec("UPDATE songs SET isrc = NULL; DELETE FROM meta WHERE key = 'isrcs'");
  const write = new CatalogueWriter(db);
  const [, fill] = await timed(() => write.transaction(() => fillIsrcs(write, 1)));
  generation.push(total);
  isrcs.push(fill);
  db.$client.close();
}
console.log(
  `catalogue of ${size} songs: generation ${ms(median(generation))}, of which ISRCs ${ms(median(isrcs))}`,
);

const emu = await startEmulator({ catalogueSize: size, seed: 1 });
try {
  const [, dataMs] = await timed(() => spotifyFake(emu.state).data);
  console.log(`Spotify fake's data: ${ms(dataMs)} (once per emulator, on its first Spotify request)`);
  const bases = { apiBase: `${emu.url}/spotify/api/v1`, accountsBase: `${emu.url}/spotify/accounts` };
  const app = { clientId: SPOTIFY_FAKE_CLIENT.id, clientSecret: SPOTIFY_FAKE_CLIENT.secret };
  const longest = spotifyFake(emu.state).playlists()[0]!;
  const requests = () => Object.values(emu.counts()).reduce((a, b) => a + b, 0);

  const playlist: number[] = [];
  let playlistRequests = 0;
  for (let i = 0; i < runs; i++) {
    const before = requests();
    await timed(() => new SpotifyClient({ app, ...bases }).playlist(longest.id)).then(([, t]) =>
      playlist.push(t),
    );
    playlistRequests = requests() - before;
  }
  console.log(
    `playlist of ${longest.items.length} rows (app token): ${ms(median(playlist))}, ${playlistRequests} requests (1 token)`,
  );

  const verifier = "bench-verifier-long-enough-for-pkce-0123456789abcdef";
  const redirect = "http://127.0.0.1:1/cb";
  const q = new URLSearchParams({
    client_id: app.clientId,
    response_type: "code",
    redirect_uri: redirect,
    scope: "user-library-read user-follow-read",
    code_challenge_method: "S256",
    code_challenge: s256(verifier),
  });
  const library: number[] = [];
  let libraryRequests = 0;
  for (let i = 0; i < runs; i++) {
    const res = await fetch(`${bases.accountsBase}/authorize?${q}`, { redirect: "manual" });
    const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
    const http = { now: () => Date.now(), sleep: (t: number) => new Promise<void>((r) => setTimeout(r, t)) };
    const token = await exchangeCode(
      { ...bases, clientId: app.clientId, code, redirectUri: redirect, verifier },
      http,
    );
    const client = new SpotifyClient({ app: { clientId: app.clientId }, token, ...bases });
    const before = requests();
    const [, t] = await timed(async () => {
      await client.likedSongs();
      await client.savedAlbums();
      await client.followedArtists();
    });
    library.push(t);
    libraryRequests = requests() - before;
  }
  console.log(
    `liked songs, saved albums, followed artists (person's token): ${ms(median(library))}, ${libraryRequests} requests`,
  );
} finally {
  await emu.stop();
}
