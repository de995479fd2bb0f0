/**
 * Loaded into a bench's worker process (`node --import`): counts the SQL statements its node-postgres
 * clients send (the state's and the queue's apart) and the connections they open, and writes the
 * counts as JSON to the file named by BENCH_STATEMENTS_FILE each time the process gets SIGUSR2. Plain
 * JavaScript, so that any checkout's compiled worker can load it; the counting costs a few
 * microseconds a statement, alike for every checkout. With BENCH_STATEMENTS_LOG set to a file, the
 * state's statements themselves (each prepared one's name, then the start of its text) are written
 * there too, one a line (the first BENCH_STATEMENTS_CHARS characters of each, 160 unless set): what
 * a run sends, to see which could be merged or left out.
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const file = process.env.BENCH_STATEMENTS_FILE;
if (!file) throw new Error("bench/statement-count: BENCH_STATEMENTS_FILE is not set");
// The checkout's own pg (the worker runs in the checkout's folder): the one its code imports.
const pg = createRequire(join(process.cwd(), "package.json"))("pg");
const counts = { state: 0, queue: 0, connections: 0 };
const log = process.env.BENCH_STATEMENTS_LOG;
const texts = [];

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(config, ...rest) {
  const text = typeof config === "string" ? config : config?.text;
  // The queue's statements name its schema; everything else is the state's (or a lock's session).
  if (typeof text === "string" && text.includes("musicsync_queue")) counts.queue++;
  else {
    counts.state++;
    if (log)
      texts.push(`${config?.name ?? ""} ${text}`.slice(0, Number(process.env.BENCH_STATEMENTS_CHARS ?? 160)));
  }
  return query.call(this, config, ...rest);
};
const connect = pg.Client.prototype.connect;
pg.Client.prototype.connect = function counted(...args) {
  counts.connections++;
  return connect.apply(this, args);
};
process.on("SIGUSR2", () => {
  writeFileSync(file, JSON.stringify(counts));
  if (log) writeFileSync(log, `${texts.join("\n")}\n`);
});
