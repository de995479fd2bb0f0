/**
 * The emulator of bench/workers.ts, in a process of its own (so that its CPU is told apart from the
 * workers'): starts, then sends its URL, its pid and the ids of its catalogue's songs to the parent.
 */
import { startEmulator } from "../emulator/index.js";

const size = Number(process.argv[2] ?? 2000);
const emulator = await startEmulator({ catalogueSize: size, seed: 7 });
const songs = (
  emulator.state.store.sqlite
    .prepare("SELECT video_id AS id FROM songs WHERE available = 1 AND album_id IS NOT NULL ORDER BY id")
    .all() as { id: string }[]
).map((r) => r.id);
process.send?.({ url: emulator.url, pid: process.pid, songs });
process.on("disconnect", () => void emulator.stop().then(() => process.exit(0)));
