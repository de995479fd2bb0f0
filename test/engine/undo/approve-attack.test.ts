/**
 * Attacks on `musicsync undo` and `musicsync approve` (docs/ENGINE.md#undo): racing undos, undos of undos,
 * a person's edits since the run, failed and unanswered writes, hostile arguments, approvals
 * against a locked account or expired credentials. Each test is one promise: never lose a row,
 * never make a second playlist, say exactly what was done, bad input gets one clear line.
 */
import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../cli/musicsync/main.js";
import type { EngineClient } from "../../../engine/apply/client.js";
import { loadRecipePaths } from "../../../engine/recipe/load.js";
import { syncRecipe } from "../../../engine/run/runner.js";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import { ErrorCodes, TransportError } from "../../../src/index.js";
import { musicsync as compiled, screen } from "../../support/cli-process.js";
import { credentialSecrets, describePieces, findCredentialPieces } from "../../support/credential-leaks.js";
import { type EchoServer, startEchoServer } from "../../support/echo-server.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  playlistsTitled,
  startHarness,
} from "../../support/sync-harness.js";

const playlistRecipe = (id: string, playlistId: string, ids: readonly string[], extra = "") =>
  `apiVersion: musicsync/v1
kind: Recipe
id: ${id}
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { id: ${playlistId}, title: "${id}" }
mode: mirror
policy: { batch_size: 50${extra} }
`;

const newPlaylistRecipe = (id: string, title: string, ids: readonly string[]) =>
  `apiVersion: musicsync/v1
kind: Recipe
id: ${id}
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { title: "${title}", privacy: PRIVATE }
mode: mirror
`;

/** A client whose `method` loses its answer: after the request landed (`lands`), or before it left. */
function failing(c: EngineClient, method: keyof EngineClient, lands: boolean): EngineClient {
  return new Proxy(c, {
    get(target, name, receiver) {
      const real = Reflect.get(target, name, receiver) as (...a: unknown[]) => Promise<unknown>;
      if (name !== method) return typeof real === "function" ? real.bind(target) : real;
      return async (...args: unknown[]) => {
        if (lands) await real.apply(target, args);
        throw new TransportError(ErrorCodes.CONNECTION, "connection failed: other side closed", {
          operation: String(method),
        });
      };
    },
  });
}

let h: Harness;
let echo: EchoServer | null = null;
let songs: string[];
let next = 0;

beforeAll(async () => {
  h = await startHarness({ catalogueSize: 300 });
  songs = catalogueSongs(h, 200);
  await mkdir(join(h.dir, "recipes"), { recursive: true });
});
afterAll(async () => {
  await echo?.close();
  await h?.stop();
});

/** `count` songs no other test of this file uses. */
function fresh(count: number): string[] {
  const out = songs.slice(next, next + count);
  next += count;
  if (out.length < count) throw new Error("out of songs");
  return out;
}

async function cli(...args: string[]) {
  const out = screen(false);
  const err = screen(false);
  const code = await main(["-p", h.projectFile, ...args], {
    stdout: out.stream,
    stderr: err.stream,
    env: {},
  });
  return { code, stdout: out.text(), stderr: err.text() };
}

async function withState<T>(body: (s: ReturnType<typeof openSqliteState>) => Promise<T>): Promise<T> {
  const state = openSqliteState(h.stateFile);
  try {
    return await body(state);
  } finally {
    await state.close();
  }
}

const lastRunId = (recipeId: string) =>
  withState(async (s) => (await s.recentRuns({ recipeId, limit: 1 }))[0]!.id);

const ids = async (pid: string) => (await playlistRows(h, pid)).map((r) => r.videoId);

/** A playlist of the person's holding `original`, and recipe `id` mirroring `desired` into it. */
async function adopted(id: string, original: readonly string[], desired: readonly string[], extra = "") {
  const pid = await h.person.createPlaylist(id, "", { privacyStatus: "PRIVATE", videoIds: [...original] });
  if (typeof pid !== "string") throw new Error("no playlist");
  await writeFile(join(h.dir, "recipes", `${id}.yaml`), playlistRecipe(id, pid, desired, extra));
  return pid;
}

async function dropRecipe(id: string) {
  await rm(join(h.dir, "recipes", `${id}.yaml`), { force: true });
}

describe("undo races", () => {
  it("undo while another process holds the account's lock: exit 4, nothing written", async () => {
    const s = fresh(6);
    const pid = await adopted("locked", s.slice(0, 4), [s[1]!, s[0]!, s[4]!]);
    expect((await cli("sync", "-r", "locked")).code).toBe(0);
    const runId = await lastRunId("locked");
    const after = await ids(pid);
    // A live process of this machine (the test runner's parent) holds the lock, as a sync would.
    const lockId = await withState(async (st) => {
      const a = await st.acquireLock("default", `${hostname()}:${process.ppid}`, Date.now(), 300_000);
      if (!a.acquired) throw new Error("lock not taken");
      return a.lock.lockId;
    });
    try {
      const writes = await h.writes();
      const r = await cli("undo", String(runId));
      expect(r.code, r.stdout + r.stderr).toBe(4);
      expect(`${r.stdout}${r.stderr}`).toContain("is locked by");
      expect(await h.writes()).toBe(writes);
      expect(await ids(pid)).toEqual(after);
    } finally {
      await withState((st) => st.forceUnlock(lockId));
      await dropRecipe("locked");
    }
  });

  it("two undos of the same run at once: the playlist ends as before the run, no row twice", async () => {
    const s = fresh(8);
    const original = s.slice(0, 5);
    const pid = await adopted("twice", original, [s[3]!, s[0]!, s[5]!, s[6]!]);
    expect((await cli("sync", "-r", "twice")).code).toBe(0);
    const runId = await lastRunId("twice");
    const [a, b] = await Promise.all([cli("undo", String(runId)), cli("undo", String(runId))]);
    const codes = [a.code, b.code].sort();
    // One applies; the other waits for it and finds nothing to do, or is refused (locked / stale).
    expect(codes[0], a.stdout + a.stderr + b.stdout + b.stderr).toBe(0);
    expect([0, 1, 4]).toContain(codes[1]);
    expect(await ids(pid)).toEqual(original);
    await dropRecipe("twice");
  });

  it("undo of a run already undone changes nothing; undo of the undo redoes; and back again", async () => {
    const s = fresh(8);
    const original = s.slice(0, 5);
    const desired = [s[4]!, s[2]!, s[0]!, s[5]!, s[6]!];
    const pid = await adopted("chain", original, desired);
    expect((await cli("sync", "-r", "chain")).code).toBe(0);
    const synced = await ids(pid);
    expect(synced).toEqual(desired);
    const run1 = await lastRunId("chain");

    expect((await cli("undo", String(run1))).code).toBe(0);
    const run2 = await lastRunId("chain");
    expect(await ids(pid)).toEqual(original);

    // The same run again: nothing of the person's goes, nothing comes twice.
    const writes = await h.writes();
    const again = await cli("undo", String(run1));
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(await h.writes()).toBe(writes);
    expect(await ids(pid)).toEqual(original);

    // Undo of the undo: the run's work back.
    expect((await cli("undo", String(run2))).code).toBe(0);
    const run3 = await lastRunId("chain");
    expect(await ids(pid)).toEqual(synced);
    // Undo of the undo of the undo: the person's playlist as it was.
    const r = await cli("undo", String(run3));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await ids(pid)).toEqual(original);
    await dropRecipe("chain");
  });
});

describe("undo after the person's own edits", () => {
  it("the person added the same video again: only the run's copy goes", async () => {
    const s = fresh(5);
    const original = s.slice(0, 3);
    const pid = await adopted("dupe", original, [...original, s[3]!]);
    expect((await cli("sync", "-r", "dupe")).code).toBe(0);
    const runId = await lastRunId("dupe");
    await h.person.addPlaylistItems(pid, [s[3]!], { duplicates: true });
    const before = await ids(pid);
    expect(before.filter((v) => v === s[3])).toHaveLength(2);
    const r = await cli("undo", String(runId));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await ids(pid)).toEqual([...original, s[3]!]);
    await dropRecipe("dupe");
  });

  it("the person renamed the playlist and changed its privacy since: both left alone, said so", async () => {
    const s = fresh(4);
    const pid = await adopted("renamed", s.slice(0, 3), s.slice(0, 2));
    // The recipe's title differs from the person's: the run renames the playlist.
    await writeFile(
      join(h.dir, "recipes", "renamed.yaml"),
      playlistRecipe("renamed", pid, s.slice(0, 2)).replace('title: "renamed"', 'title: "By the engine"'),
    );
    expect((await cli("sync", "-r", "renamed")).code).toBe(0);
    const runId = await lastRunId("renamed");
    await h.person.editPlaylist(pid, { title: "Mine now", privacyStatus: "PUBLIC" });
    const r = await cli("undo", String(runId));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const now = await h.person.getPlaylist(pid, { limit: null });
    expect(now.title).toBe("Mine now");
    expect(now.privacy).toBe("PUBLIC");
    expect(await ids(pid)).toEqual(s.slice(0, 3));
    await dropRecipe("renamed");
  });

  it("an add the service refused (STATUS_FAILED), then the person adds that video: undo keeps the person's row", async () => {
    const s = fresh(5);
    const original = s.slice(0, 3);
    const pid = await adopted("refused-add", original, [...original, s[3]!]);
    await h.faults({ queue: [{ kind: "failed-status", endpoint: "browse/edit_playlist", count: 20 }] });
    const sync = await cli("sync", "-r", "refused-add");
    await fetch(`${h.emulator.url}/_emulator/faults`, { method: "DELETE" });
    expect(sync.code, sync.stdout + sync.stderr).not.toBe(0);
    expect(await ids(pid)).toEqual(original);
    const runId = await lastRunId("refused-add");
    // The person adds the song by hand afterwards.
    await h.person.addPlaylistItems(pid, [s[3]!]);
    const r = await cli("undo", String(runId));
    expect([0, 1], r.stdout + r.stderr).toContain(r.code);
    expect(await ids(pid)).toEqual([...original, s[3]!]);
    await dropRecipe("refused-add");
  });

  it("an add whose answer was lost and that never landed, then the person adds that video: undo keeps the person's row", async () => {
    const s = fresh(5);
    const original = s.slice(0, 3);
    const pid = await adopted("lost-add", original, [...original, s[3]!]);
    const { recipes } = await loadRecipePaths([join(h.dir, "recipes", "lost-add.yaml")], {
      project: h.project,
    });
    // The connection drops before the add reaches the service: nothing changes.
    const env = h.env({ wrap: (c) => failing(c, "addPlaylistItems", false) });
    const run = await syncRecipe(recipes[0]!, env);
    await env.close();
    expect(run.outcome).not.toBe("converged");
    expect(await ids(pid)).toEqual(original);
    const runId = await lastRunId("lost-add");
    // The person adds the song by hand afterwards.
    await h.person.addPlaylistItems(pid, [s[3]!]);
    const r = await cli("undo", String(runId));
    expect([0, 1], r.stdout + r.stderr).toContain(r.code);
    expect(
      await ids(pid),
      `${JSON.stringify(await withState((st) => st.journal(runId)))}\n${r.stdout}`,
    ).toEqual([...original, s[3]!]);
    await dropRecipe("lost-add");
  });

  it("a remove the service refused (STATUS_FAILED), then the person removes that row: undo does not put it back", async () => {
    const s = fresh(4);
    const original = s.slice(0, 4);
    const pid = await adopted("refused-remove", original, original.slice(0, 3));
    await h.faults({ queue: [{ kind: "failed-status", endpoint: "browse/edit_playlist", count: 20 }] });
    const sync = await cli("sync", "-r", "refused-remove");
    await fetch(`${h.emulator.url}/_emulator/faults`, { method: "DELETE" });
    expect(sync.code, sync.stdout + sync.stderr).not.toBe(0);
    expect(await ids(pid)).toEqual(original);
    const runId = await lastRunId("refused-remove");
    // The remove was refused and the row is still there: the journal says so.
    expect((await withState((st) => st.journal(runId))).map((e) => e.status)).toEqual(["failed"]);
    const rows = await playlistRows(h, pid);
    await h.person.removePlaylistItems(pid, [rows[3]!]);
    const r = await cli("undo", String(runId));
    expect([0, 1], r.stdout + r.stderr).toContain(r.code);
    expect(await ids(pid), r.stdout).toEqual(original.slice(0, 3));
    await dropRecipe("refused-remove");
  });

  it("a create whose answer was lost: undo finds the playlist, never says the run created none", async () => {
    const s = fresh(3);
    await writeFile(join(h.dir, "recipes", "lost.yaml"), newPlaylistRecipe("lost", "Lost create", s));
    const { recipes } = await loadRecipePaths([join(h.dir, "recipes", "lost.yaml")], { project: h.project });
    // The create lands, then the connection drops before its answer.
    const env = h.env({ wrap: (c) => failing(c, "createPlaylist", true) });
    const run = await syncRecipe(recipes[0]!, env);
    await env.close();
    const runId = await lastRunId("lost");
    const made = await playlistsTitled(h, "Lost create");
    expect(made, `${run.outcome} ${run.error}`).toHaveLength(1);
    const r = await cli("undo", String(runId), "--dry-run");
    const journal = JSON.stringify(await withState((st) => st.journal(runId)));
    expect(r.stderr, journal).not.toContain("created no playlist");
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).toMatch(/- remove .*added by run/);
    await dropRecipe("lost");
  });
});

describe("credentials echoed by the service", () => {
  it("status, history, approve and undo --dry-run --json show no piece of a credential", async () => {
    const s = fresh(8);
    const pid = await h.person.createPlaylist("Echo held", "", { privacyStatus: "PRIVATE", videoIds: s });
    if (typeof pid !== "string") throw new Error("no playlist");
    echo = await startEchoServer({ upstream: h.emulator.url });
    const file = join(h.dir, "echo.yaml");
    await mkdir(join(h.dir, "echo-recipes"), { recursive: true });
    await writeFile(
      file,
      [
        "apiVersion: musicsync/v1",
        "kind: Project",
        "accounts:",
        `  default: { auth: "\${MUSICSYNC_AUTH}", base_url: "${echo.url}" }`,
        "pacing: { min_interval_ms: 0 }",
        "recipes: [echo-recipes]",
        "state: echo-state.db",
        "",
      ].join("\n"),
    );
    await writeFile(
      join(h.dir, "echo-recipes", "echo.yaml"),
      playlistRecipe("echo-held", pid, s.slice(0, 2), ", require_approval: { removals: 3 }"),
    );
    const env = { MUSICSYNC_AUTH: JSON.stringify(h.headers), MUSICSYNC_LOG_LEVEL: "debug" };
    const p = ["-p", file];
    const sync = await compiled(["sync", "--json", ...p], env);
    expect(sync.code, sync.stdout + sync.stderr).toBe(5);
    const status = await compiled(["status", "--json", ...p], env);
    const runId = (JSON.parse(status.stdout) as { approvals: { runId: number }[] }).approvals[0]!.runId;
    const approve = await compiled(["approve", String(runId), ...p], env);
    const approveJson = await compiled(["--json", "approve", String(runId), ...p], env);
    const history = await compiled(["history", "--json", ...p], env);
    const runs = (JSON.parse(history.stdout) as { runs: { id: number; undoable: boolean }[] }).runs;
    const undone = runs.find((r) => r.undoable);
    // The approve's writes were refused with the credentials in the answer: a run with writes sent.
    expect(undone, history.stdout).toBeDefined();
    const undo = undone
      ? await compiled(["undo", String(undone.id), "--dry-run", "--json", ...p], env)
      : null;
    const secrets = [...credentialSecrets(h.headers)];
    for (const r of echo.requests) secrets.push(...credentialSecrets(r.headers as Record<string, string>));
    const outputs = { sync, status, approve, approveJson, history, ...(undo ? { undo } : {}) };
    for (const [label, out] of Object.entries(outputs)) {
      for (const text of [out.stdout, out.stderr]) {
        const found = findCredentialPieces(text, secrets);
        expect(found, `${label}: ${describePieces(found)}`).toEqual([]);
      }
    }
  });
});

describe("undo with hostile arguments", () => {
  it.each([
    ["abc", /"abc" is not a run id \(musicsync history lists them\)/],
    ["1.5", /"1.5" is not a run id \(musicsync history lists them\)/],
    ["-3", /"-3" is not a run id \(musicsync history lists them\)/],
  ])("undo %s: one line naming the run id, exit 1", async (arg, message) => {
    const r = await cli("undo", "--", arg);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });

  it("undo 99999999999999999999: the error names the id as typed, not a rounded number", async () => {
    const r = await cli("undo", "99999999999999999999");
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).not.toContain("100000000000000000000");
    expect(r.stderr).toContain("99999999999999999999");
  });

  it("-o into a folder that does not exist: one line naming -o and the path, before any read", async () => {
    const s = fresh(4);
    const pid = await adopted("out", s.slice(0, 3), [s[3]!]);
    expect((await cli("sync", "-r", "out")).code).toBe(0);
    const runId = await lastRunId("out");
    const file = join(h.dir, "no-such-folder", "undo.json");
    const r = await cli("undo", String(runId), "-o", file);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(/-o|--out/);
    expect(r.stderr).not.toContain("ENOENT");
    expect(existsSync(file)).toBe(false);
    expect(await ids(pid)).toEqual([s[3]!]);
    await dropRecipe("out");
  });
});

/** A mirror of `ids` into a new playlist "<id>", holding a plan that removes more than 3 rows. */
const heldRecipe = (id: string, ids: readonly string[]) =>
  newPlaylistRecipe(id, id, ids).replace(
    "mode: mirror\n",
    "mode: mirror\npolicy: { require_approval: { removals: 3 } }\n",
  );

/** Recipe `id` synced with `all`, then changed to `kept`: its next sync is held. Returns the held run. */
async function held(id: string, all: readonly string[], kept: readonly string[]): Promise<number> {
  await writeFile(join(h.dir, "recipes", `${id}.yaml`), heldRecipe(id, all));
  expect((await cli("sync", "-r", id)).code).toBe(0);
  await writeFile(join(h.dir, "recipes", `${id}.yaml`), heldRecipe(id, kept));
  const sync = await cli("sync", "-r", id);
  expect(sync.code, sync.stdout + sync.stderr).toBe(5);
  return lastRunId(id);
}

const pending = (runId: number) => withState(async (s) => (await s.approval(runId))?.status);

describe("approve", () => {
  it.each([
    ["abc", /"abc" is not a run id/],
    ["-1", /"-1" is not a run id/],
    ["1.0", /"1.0" is not a run id/],
  ])("approve %s: one line, exit 1", async (arg, message) => {
    const r = await cli("approve", "--", arg);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });

  it("approve 99999999999999999999 names the id as typed", async () => {
    const r = await cli("approve", "99999999999999999999");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("99999999999999999999");
  });

  it("approve of a run that held nothing (a plain sync) is refused in one line", async () => {
    const s = fresh(3);
    await writeFile(join(h.dir, "recipes", "plain.yaml"), newPlaylistRecipe("plain", "Plain", s));
    expect((await cli("sync", "-r", "plain")).code).toBe(0);
    const runId = await lastRunId("plain");
    const r = await cli("approve", String(runId));
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `error: run ${runId} holds no plan for approval (musicsync status lists those that wait)`,
    );
    await dropRecipe("plain");
  });

  it("approve while the account is locked: exit 4, the plan still waits, nothing written", async () => {
    const s = fresh(8);
    const runId = await held("held-locked", s, s.slice(0, 2));
    const lockId = await withState(async (st) => {
      const a = await st.acquireLock("default", `${hostname()}:${process.ppid}`, Date.now(), 300_000);
      if (!a.acquired) throw new Error("lock not taken");
      return a.lock.lockId;
    });
    try {
      const writes = await h.writes();
      const r = await cli("approve", String(runId));
      expect(r.code, r.stdout + r.stderr).toBe(4);
      expect(await h.writes()).toBe(writes);
      expect(await pending(runId)).toBe("pending");
    } finally {
      await withState((st) => st.forceUnlock(lockId));
    }
    const [pid] = await playlistsTitled(h, "held-locked");
    const ok = await cli("approve", String(runId));
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(await ids(pid!)).toEqual(s.slice(0, 2));
    await dropRecipe("held-locked");
  });

  it("approve after the recipe file was deleted applies the plan the person saw", async () => {
    const s = fresh(8);
    const runId = await held("held-gone", s, s.slice(0, 3));
    await dropRecipe("held-gone");
    const r = await cli("approve", String(runId));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const [pid] = await playlistsTitled(h, "held-gone");
    expect(await ids(pid!)).toEqual(s.slice(0, 3));
  });

  it("approve, then undo the approved run: every removed row back, in place, one playlist", async () => {
    const s = fresh(8);
    const runId = await held("held-undo", s, s.slice(0, 2));
    expect((await cli("approve", String(runId))).code).toBe(0);
    const applied = await lastRunId("held-undo");
    expect(applied).not.toBe(runId);
    const [pid] = await playlistsTitled(h, "held-undo");
    expect(await ids(pid!)).toEqual(s.slice(0, 2));
    // The held run itself wrote nothing: undo says so.
    const none = await cli("undo", String(runId));
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("wrote nothing");
    const r = await cli("undo", String(applied));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await ids(pid!)).toEqual(s);
    expect(await playlistsTitled(h, "held-undo")).toHaveLength(1);
    await dropRecipe("held-undo");
  });
});
