/**
 * One checkout's side of bench/recipe-cost.ts, in a process of its own: a project of `recipes`
 * mirrors (each a private copy of a source playlist of `songs` songs) on one account of the
 * emulator, synced by that checkout's `musicsync` in this process. The parent sends commands and
 * gets back what each cost: this process's CPU time, its wall time, and the state's commits.
 *
 * Commits are counted under better-sqlite3 itself (./sqlite-commits.ts), so they say what reached
 * the database whatever the checkout's code; "durable" ones are those made while `synchronous` was
 * FULL or EXTRA (each waits for the disk).
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Agent } from "undici";
import { countCommits } from "../test/support/sqlite-commits.js";
import { captureRead, floorCost } from "./floor.js";

export interface Setup {
  dir: string;
  url: string;
  account: number;
  recipes: number;
  songs: number;
  /** Catalogue songs to draw the sources from (each source takes the next `songs`). */
  catalogue: string[];
  /** `static`: each recipe lists its songs (one read per run: the target); `playlist`: a source playlist too (two). */
  source: "static" | "playlist";
}

export type Command =
  | ({ cmd: "setup" } & Setup)
  | { cmd: "sync"; recipes?: string[] }
  | { cmd: "grow" }
  | { cmd: "floor"; rounds: number; reads: number }
  | { cmd: "exit" };

export interface Cost {
  cpuMs: number;
  wallMs: number;
  commits: number;
  durable: number;
  code: number;
}

type InProc = (args: readonly string[]) => Promise<{ code: number; stdout: string; stderr: string }>;
type Client = {
  createPlaylist(t: string, d: string, o: { privacyStatus: string; videoIds: string[] }): Promise<unknown>;
  addPlaylistItems(id: string, videoIds: string[], o: { duplicates: boolean }): Promise<unknown>;
};

const commits = countCommits();
let musicsync: InProc;
let project = "";
let person: Client;
let firstSource = "";
let spare: string[] = [];
let firstSongs: string[] = [];
let recipesDir = "";
let sourceKind: Setup["source"] = "static";
let catalogue: string[] = [];
let songs = 0;
let headersOf: Record<string, string> = {};
let baseUrl = "";
// biome-ignore lint/suspicious/noExplicitAny: the checkout's own MusicClient, loaded at run time.
let MusicClientClass: any;
const agent = new Agent();

async function setup(s: Setup): Promise<void> {
  const tree = (path: string) => import(pathToFileURL(join(s.dir, path)).href);
  musicsync = (await tree("test/support/musicsync-inproc.ts")).musicsyncInProc;
  const { MusicClient } = await tree("src/index.ts");
  MusicClientClass = MusicClient;
  ({ catalogue, songs, url: baseUrl } = s);
  const folder = await mkdtemp(join(tmpdir(), "recipe-cost-"));
  const headers = (await (await fetch(`${s.url}/_emulator/accounts/${s.account}/headers`)).json()) as Record<
    string,
    string
  >;
  await writeFile(join(folder, "headers.json"), JSON.stringify(headers));
  headersOf = headers;
  person = new MusicClient({ auth: headers, baseUrl: s.url }) as Client;
  await mkdir(join(folder, "recipes"));
  recipesDir = join(folder, "recipes");
  for (let i = 0; i < s.recipes; i++) {
    const videoIds = s.catalogue.slice(i * s.songs, (i + 1) * s.songs);
    // A playlist of the first list serves the floor's read in either case.
    const id = s.source === "playlist" || i === 0 ? await createSource(i, videoIds) : "";
    if (i === 0) [firstSource, firstSongs] = [id, videoIds];
    const from = s.source === "playlist" ? { playlistId: id } : { videoIds };
    await writeFile(join(recipesDir, `r${i}.yaml`), mirror(`r${i}`, from, `Copy ${i}`));
  }
  sourceKind = s.source;
  spare = s.catalogue.slice(s.recipes * s.songs);
  project = join(folder, "musicsync.yaml");
  const account = `{ auth: headers.json, base_url: "${s.url}" }`;
  const text = `apiVersion: musicsync/v1\nkind: Project\naccounts:\n  default: ${account}\n`;
  await writeFile(project, `${text}pacing: { min_interval_ms: 0 }\nrecipes: [recipes]\nstate: state.db\n`);
}

async function createSource(i: number, videoIds: string[]): Promise<string> {
  return String(await person.createPlaylist(`Source ${i}`, "", { privacyStatus: "PRIVATE", videoIds }));
}

function mirror(id: string, from: { playlistId: string } | { videoIds: string[] }, title: string): string {
  const source =
    "playlistId" in from
      ? `{ id: src, type: playlist, playlistId: ${from.playlistId} }`
      : `{ id: src, type: static, videoIds: [${from.videoIds.join(", ")}] }`;
  return [
    "apiVersion: musicsync/v1",
    "kind: Recipe",
    `id: ${id}`,
    "sources:",
    `  - ${source}`,
    "target:",
    "  type: playlist",
    `  playlist: { title: "${title}", privacy: PRIVATE }`,
    "mode: mirror",
    "",
  ].join("\n");
}

async function sync(recipes: string[] | undefined): Promise<Cost> {
  const only = recipes ? ["--recipe", ...recipes] : [];
  commits.reset();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await musicsync(["--project", project, "sync", "--quiet", ...only]);
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  if (result.code !== 0) process.stderr.write(result.stderr);
  return { cpuMs: (used.user + used.system) / 1000, wallMs, ...commits.read(), code: result.code };
}

/** One more song in the first recipe's source: the next sync of `r0` converges with one write. */
async function grow(): Promise<void> {
  const song = spare.shift();
  if (song === undefined) throw new Error("recipe-cost: no spare songs left in the catalogue");
  if (sourceKind === "playlist") await person.addPlaylistItems(firstSource, [song], { duplicates: false });
  else {
    firstSongs = [...firstSongs, song];
    await writeFile(join(recipesDir, "r0.yaml"), mirror("r0", { videoIds: firstSongs }, "Copy 0"));
  }
}

/** The floor (./floor.ts) of a run of the first recipe, read from its source playlist. */
async function floor(rounds: number, reads: number): Promise<number> {
  const read = await captureRead(agent, (dispatcher) =>
    new MusicClientClass({ auth: headersOf, baseUrl, dispatcher }).getPlaylist(firstSource, { limit: 100 }),
  );
  const wanted = new Set(catalogue.slice(0, songs));
  return floorCost({ agent, read, wanted, dbFile: join(dirname(project), "floor.db"), rounds, reads });
}

process.on("message", (m: Command) => {
  const answer = async (): Promise<unknown> => {
    if (m.cmd === "setup") return setup(m);
    if (m.cmd === "sync") return sync(m.recipes);
    if (m.cmd === "grow") return grow();
    if (m.cmd === "floor") return floor(m.rounds, m.reads);
    process.exit(0);
  };
  answer().then(
    (value) => process.send?.({ ok: true, value: value ?? null }),
    (e: unknown) => process.send?.({ ok: false, error: String((e as Error).stack ?? e) }),
  );
});
