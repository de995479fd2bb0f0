/**
 * docs/client.md's first program, kept here so that the type check proves it matches the real
 * signatures; test/readme/guides.test.ts checks that the guide shows this code, runs the guide's copy
 * against the emulator it starts, and compares what it prints. Run it with
 * `npx tsx examples/client-usage.ts`.
 */
import { MusicClient } from "musicapi";
import { startEmulator } from "musicapi/emulator";

const emulator = await startEmulator({ seed: 1 }); // a local service: its catalogue is generated from the seed
try {
  const headers = await fetch(`${emulator.url}/_emulator/accounts/1/headers`); // its first account's
  const auth = (await headers.json()) as Record<string, string>;
  const music = new MusicClient({ baseUrl: emulator.url, uploadUrl: emulator.url, auth });

  const songs = await music.search("the pale deserts", { filter: "songs" });
  const first = songs[0];
  if (first?.resultType !== "song" || !first.videoId) throw new Error("no song found");
  const videoId = first.videoId;
  console.log(`${songs.length} songs, the first: ${first.title} by ${first.artists?.[0]?.name}`);

  const album = first.album?.id ? await music.getAlbum(first.album.id) : null;
  console.log(`on the album ${album?.title} (${album?.tracks.length} tracks)`);

  const queue = await music.getWatchPlaylist({ videoId, radio: true });
  const id = await music.createPlaylist("Road trip", "made with musicapi", { videoIds: [videoId] });
  if (typeof id !== "string") throw new Error(`createPlaylist: ${JSON.stringify(id)}`);
  await music.addPlaylistItems(
    id,
    queue.tracks.slice(1, 10).map((track) => track.videoId),
  );
  const playlist = await music.getPlaylist(id, { limit: null });
  console.log(`${playlist.title}: ${playlist.trackCount} songs`);
} finally {
  await emulator.stop(); // else the emulator's server keeps the program running
}
