/**
 * What a person sees when `sync` runs on a terminal: under a pseudo-terminal made by
 * util-linux's `script` (Debian's bsdutils, part of every base system), the bytes the command wrote
 * are rendered by a small terminal model (test/support/terminal-screen.ts) and the final screen must hold
 * each plan and each recipe's result line, no trace of the progress bar, and the cursor — where
 * the shell's prompt goes — on a fresh line below all of it.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, MAIN, musicsync } from "../../support/cli-process.js";
import { writeRecipes } from "../../support/daemon-harness.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";
import { renderTerminal } from "../../support/terminal-screen.js";

beforeAll(() => ensureBuilt(), 180_000);

const dirs: string[] = [];
let h: Harness | null = null;
afterAll(async () => {
  await h?.stop();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** `musicsync <args>` on a 200×40 pseudo-terminal; its output as the terminal got it. */
function onTerminal(args: readonly string[], cwd: string): Promise<{ code: number | null; bytes: string }> {
  const command = ["stty cols 200 rows 40;", "exec", ...[process.execPath, MAIN, ...args].map(quoted)].join(
    " ",
  );
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], {
      cwd,
      env: { ...process.env, TERM: "xterm" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let bytes = "";
    child.stdout.on("data", (d: Buffer) => (bytes += d.toString("utf8")));
    // Bounded: a hung command fails the test instead of holding it.
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, bytes });
    });
  });
}

function quoted(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

describe("the terminal model", () => {
  it("erases, restores the cursor in screen rows, and keeps what scrolled off", () => {
    expect(renderTerminal("abc\r\u001b[2Kx\n").lines).toEqual(["x", ""]);
    expect(renderTerminal("one\r\n\u001b7bar\u001b[0K\u001b8\u001b[1G\u001b[2Kdone\r\n")).toEqual({
      lines: ["one", "done", ""],
      cursor: { row: 2, col: 0 },
    });
    // Saved on the screen's last row, then a scroll: the restore lands on the next line of text.
    const scrolled = renderTerminal("a\r\nb\u001b7\r\nc\u001b8X", 2);
    expect(scrolled.lines).toEqual(["a", "b", "cX"]);
  });
});

describe("sync on a terminal", () => {
  it("leaves every plan and result line on the screen, no progress bar, and the prompt below them", {
    timeout: 240_000,
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), "musicsync-tty-"));
    dirs.push(dir);
    expect((await musicsync(["init", "--emulator", "p"], {}, dir)).code).toBe(0);
    const project = join(dir, "p");
    // A second recipe: the first one's bar must not eat the second's plan either.
    await writeFile(
      join(project, "recipes", "songs.yaml"),
      [
        "apiVersion: musicsync/v1",
        "kind: Recipe",
        "id: songs",
        "sources:",
        "  - { id: chart, type: chart, country: US, section: videos }",
        "pipeline:",
        "  - limit: 30",
        "target:",
        "  type: playlist",
        '  playlist: { title: "US Top 30", privacy: PRIVATE }',
        "mode: mirror",
        "policy: { batch_size: 5 }",
        "",
      ].join("\n"),
    );
    const run = await onTerminal(["sync"], project);
    expect(run.code).toBe(0);
    const { lines, cursor } = renderTerminal(run.bytes);
    const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
    const order = [
      at(/^songs: playlist "US Top 30" \(new\) \[mirror\]$/),
      at(/^songs: Applied: \d+ actions? in \d+ write requests?; converged\.$/),
      at(/^starter: playlist "US Top Videos" \(new\) \[mirror\]$/),
      at(/^starter: Applied: \d+ actions? in \d+ write requests?; converged\.$/),
    ];
    expect(
      order.every((i) => i >= 0),
      lines.join("\n"),
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(lines.filter((l) => /^Plan: /.test(l))).toHaveLength(2);
    expect(lines.join("\n")).not.toMatch(/\d+\/\d+ writes/);
    const last = lines.findLastIndex((l) => l !== "");
    expect(cursor.col).toBe(0);
    expect(cursor.row).toBeGreaterThan(last);
  });
});

describe("a log line while the bar shows", () => {
  it("lands on lines of its own, and the bar comes back below it", async () => {
    h = await startHarness();
    await writeRecipes(h.dir, [{ id: "paced", ids: catalogueSongs(h, 20), batch: 2 }]);
    // The third write meets a 429: the retry is logged on stderr, mid-bar.
    await h.faults({ queue: [{ kind: "rate-limit", endpoint: "browse/edit_playlist", retryAfter: 0 }] });
    const run = await onTerminal(["sync", "-p", h.projectFile], h.dir);
    expect(run.code).toBe(0);
    const { lines, cursor } = renderTerminal(run.bytes);
    const warn = lines.findIndex((l) => /^\[[\d:]+\] WARN: write throttled; retrying$/.test(l));
    const done = lines.findIndex((l) =>
      /^paced: Applied: 10 actions in 11 write requests; converged\.$/.test(l),
    );
    expect(warn, lines.join("\n")).toBeGreaterThan(0);
    expect(done).toBeGreaterThan(warn);
    expect(lines.join("\n")).not.toMatch(/\d+\/\d+ writes/);
    expect(cursor.col).toBe(0);
    expect(cursor.row).toBeGreaterThan(lines.findLastIndex((l) => l !== ""));
  });
});
