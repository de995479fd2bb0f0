/**
 * Where bench/workers.ts's CPU time went, from /proc (Linux): a process's own user + system time,
 * PostgreSQL's (the postmaster's own and its reaped children's, plus its live backends), and the
 * share of all cores that was busy between two readings.
 */
import { readdirSync, readFileSync } from "node:fs";

const TICKS = 100; // USER_HZ: /proc reports times in 1/100 s on Linux

function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces: split after its closing parenthesis.
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** User + system CPU seconds of a live process (0 once it is gone). */
export function cpuSeconds(pid: number): number {
  const f = statFields(pid);
  // After the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
  return f ? (Number(f[11]) + Number(f[12])) / TICKS : 0;
}

/** CPU seconds of every `postgres` process, the exited ones counted through their parent. */
export function postgresCpu(): number {
  let total = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let comm = "";
    try {
      comm = readFileSync(`/proc/${name}/comm`, "utf8").trim();
    } catch {
      continue;
    }
    if (comm !== "postgres") continue;
    const f = statFields(Number(name));
    if (!f) continue;
    total += (Number(f[11]) + Number(f[12])) / TICKS;
    // The postmaster (its parent is not a postgres process) also holds its exited backends' time.
    const parent = Number(f[1]);
    let parentComm = "";
    try {
      parentComm = readFileSync(`/proc/${parent}/comm`, "utf8").trim();
    } catch {}
    if (parentComm !== "postgres") total += (Number(f[13]) + Number(f[14])) / TICKS;
  }
  return total;
}

export interface BusyReading {
  busy: number;
  total: number;
  /** The share of all cores busy since `before`. */
  share(before: BusyReading): number;
}

/** The machine's busy and total CPU ticks so far (first line of /proc/stat). */
export function machineBusy(): BusyReading {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  const total = fields.reduce((a, b) => a + b, 0);
  const reading: BusyReading = {
    busy: total - idle,
    total,
    share: (before) => (reading.busy - before.busy) / Math.max(1, reading.total - before.total),
  };
  return reading;
}
