/**
 * The floor of one recipe run, shared by bench/recipe-cost.ts and bench/workers.ts: what a
 * no-change run cannot cost less than, in CPU ms — its reads of the service (captured once as the
 * client sends them, replayed over one kept-alive connection), gunzip, JSON.parse, the set
 * difference of the playlist's rows against the recipe's, and one durable SQLite commit.
 */
import { gunzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { type Agent, type Dispatcher, request } from "undici";

/** A read as the client sends it: URL, method, headers and body. */
export interface CapturedRead {
  url: string;
  options: Omit<Dispatcher.RequestOptions, "path">;
}

/** Reads a playlist (a checkout's own MusicClient, given the dispatcher to record with). */
export type PlaylistReader = (dispatcher: Dispatcher) => Promise<unknown>;

/** The client's read of a playlist, recorded once through `agent`. */
export async function captureRead(agent: Agent, read: PlaylistReader): Promise<CapturedRead> {
  let seen: Dispatcher.DispatchOptions | undefined;
  const recorder = agent.compose((dispatch) => (options, handler) => {
    // The client may fetch the site's page first (visitor data); the read is the browse request.
    if (options.path.includes("/youtubei/v1/browse")) seen ??= options;
    return dispatch(options, handler);
  });
  await read(recorder);
  if (!seen) throw new Error("bench floor: the client sent no request");
  const { method, headers, body, path, origin } = seen;
  return {
    url: `${String(origin)}${path}`,
    options: { method, headers: headers as Record<string, string>, body: body as string },
  };
}

export interface FloorInput {
  agent: Agent;
  read: CapturedRead;
  /** The recipe's songs (the set the rows are compared with). */
  wanted: ReadonlySet<string>;
  /** Where the floor's SQLite file is made (a folder of the caller's). */
  dbFile: string;
  rounds: number;
  /** Reads per run: 1 for a static source (the target's), 2 with a playlist source. */
  reads: number;
}

/** CPU ms of this process per round of the floor. */
export async function floorCost(f: FloorInput): Promise<number> {
  const db = new Database(f.dbFile);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.exec("CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY, at INTEGER, result TEXT)");
  const insert = db.prepare("INSERT INTO runs (at, result) VALUES (?, ?)");
  const cpu = process.cpuUsage();
  for (let i = 0; i < f.rounds; i++) {
    const have = new Set<string>();
    for (let r = 0; r < f.reads; r++) {
      const { body, headers } = await request(f.read.url, { ...f.read.options, dispatcher: f.agent });
      const bytes = Buffer.from(await body.arrayBuffer());
      const text = (headers["content-encoding"] === "gzip" ? gunzipSync(bytes) : bytes).toString("utf8");
      for (const id of videoIdsIn(JSON.parse(text))) have.add(id);
    }
    const missing = [...f.wanted].filter((id) => !have.has(id)).length;
    db.transaction(() => insert.run(Date.now(), missing === 0 ? "no_changes" : "changes"))();
  }
  const used = process.cpuUsage(cpu);
  db.close();
  return (used.user + used.system) / 1000 / f.rounds;
}

/** Every `videoId` value in a response (the set the engine's parse would yield, without the rest). */
function videoIdsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const v of node) videoIdsIn(v, out);
  else if (node !== null && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "videoId" && typeof v === "string") out.push(v);
      else videoIdsIn(v, out);
    }
  }
  return out;
}
