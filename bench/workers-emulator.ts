/**
 * The emulator of bench/workers.ts, in a process of its own (so that its CPU is told apart from the
 * workers'): starts, then sends its URL, its pid and the ids of its catalogue's songs to the parent.
 */
import { startEmulator } from "../emulator/index.js";
import { commandLine } from "./args.js";

const { size = 2000 } = commandLine({
  script: "bench/workers-emulator",
  positionals: [{ name: "size", flag: { default: 2000 } }],
}).positionals;
const emulator = await startEmulator({ catalogueSize: size, seed: 7 });
const songs = (
  emulator.state.store.sqlite
    .prepare("SELECT video_id AS id FROM songs WHERE available = 1 AND album_id IS NOT NULL ORDER BY id")
    .all() as { id: string }[]
).map((r) => r.id);
process.send?.({ url: emulator.url, pid: process.pid, songs });
process.on("disconnect", () => void emulator.stop().then(() => process.exit(0)));
