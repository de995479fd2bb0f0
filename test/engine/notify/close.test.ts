/**
 * A notifier's close leaves nothing behind: a command that is still running when the drain gives
 * it up is killed, and a command that could not start leaves no timer to keep a finished `sync`
 * alive (the soak's notify-down attack found `sync` living 10 s past its report: spawn's own
 * `timeout` timer outlived an ENOENT, and a given-up command ran on).
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { NotifyEvent } from "../../../engine/notify/events.js";
import { Notifier } from "../../../engine/notify/notifier.js";
import type { NotifyTarget } from "../../../engine/recipe/types.js";
import { createLogger } from "../../../engine/run/logger.js";

const event: NotifyEvent = {
  event: "run_failed",
  at: "2026-01-01T00:00:00.000Z",
  title: "t",
  message: "m",
  recipe: "r",
  account: "a",
  run: 1,
  details: {},
};

const commandTarget = (command: string[]): NotifyTarget => ({
  type: "command",
  name: "cmd",
  command,
  events: ["run_failed"],
});

const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

/** Whether a process of this pid still runs (a zombie counts as gone: it was killed). */
async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return false;
  }
}

describe("a notifier's close", () => {
  it("kills a command still running when the drain gives it up", async () => {
    const dir = await mkdtemp(join(tmpdir(), "notify-close-"));
    const pidFile = join(dir, "pid");
    const n = new Notifier({
      targets: [commandTarget(["/bin/sh", "-c", `echo $$ > ${pidFile}; exec sleep 60`])],
      logger: createLogger("silent"),
      policy: { attempts: 1, timeoutMs: 60_000 },
    });
    n.notify(event);
    // The command has started once it wrote its pid (bounded: 200 polls).
    let pid = 0;
    for (let i = 0; i < 200 && pid === 0; i++) {
      pid = Number(await readFile(pidFile, "utf8").catch(() => "0")) || 0;
      if (pid === 0) await new Promise((r) => setTimeout(r, 25));
    }
    expect(pid).toBeGreaterThan(0);
    const r = await n.close(100);
    expect(r.abandoned).toBe(1);
    let gone = false;
    for (let i = 0; i < 200 && !gone; i++) {
      gone = !(await alive(pid));
      if (!gone) await new Promise((r) => setTimeout(r, 25));
    }
    expect(gone).toBe(true);
  });

  it("leaves no timer behind for a command that could not start", async () => {
    const before = timers();
    const n = new Notifier({
      targets: [commandTarget(["/nonexistent/page-me"])],
      logger: createLogger("silent"),
      policy: { attempts: 1, timeoutMs: 600_000 },
    });
    n.notify(event);
    const r = await n.close(5_000);
    expect(r).toEqual({ delivered: 0, failed: 1, abandoned: 0 });
    expect(timers()).toBeLessThanOrEqual(before);
  });
});
