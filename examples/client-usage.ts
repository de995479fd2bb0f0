/**
 * The README's client example, kept here so that the type check proves it matches the real
 * signatures. It talks to the real service: run it yourself with `npx tsx examples/client-usage.ts`
 * (and a `browser.json` made by `npx musicapi browser`); the tests only type-check it.
 */
import { MusicClient } from "musicapi";

const music = new MusicClient(); // unauthenticated: the public catalogue
const songs = await music.search("daft punk", { filter: "songs", limit: 40 });
const first = songs[0];
if (first?.resultType === "song") {
  const album = first.album ? await music.getAlbum(first.album.id ?? "") : null;
  console.log(album?.title, album?.tracks.length);

  const queue = await music.getWatchPlaylist({ videoId: first.videoId ?? undefined, radio: true });

  const me = new MusicClient({ auth: "browser.json" }); // your library
  const id = await me.createPlaylist("Road trip", "made with musicapi", { videoIds: [first.videoId ?? ""] });
  if (typeof id === "string") {
    await me.addPlaylistItems(
      id,
      queue.tracks.slice(1, 10).map((track) => track.videoId),
    );
    const playlist = await me.getPlaylist(id, { limit: null });
    console.log(playlist.title, playlist.trackCount);
  }
}
