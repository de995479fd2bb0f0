/**
 * The lock beside a file: one holder at a time, released when the body ends (or throws), a lock
 * left by an ended process taken over, a live holder waited for and then refused with its name.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LockFileError, removeAbandoned, withLockFile } from "../../../engine/files/lock-file.js";
import { withTempDir } from "../../support/temp-dir.js";

const noWait = { sleep: async () => {} };

describe("withLockFile", () => {
  it("holds the lock while the body runs, one body at a time, and releases it after a throw", async () => {
    await withTempDir("lock-", async (dir) => {
      const path = join(dir, "token.json");
      const order: string[] = [];
      let release: () => void = () => {};
      let entered: () => void = () => {};
      const inside = new Promise<void>((r) => {
        entered = r;
      });
      const first = withLockFile(path, async () => {
        order.push("first in");
        entered();
        expect(readFileSync(`${path}.lock`, "utf8")).toBe(`${process.pid}@${hostname()}\n`);
        await new Promise<void>((r) => {
          release = r;
        });
        order.push("first out");
      });
      await inside;
      // The second waits (its sleeps hand the turn back) until the first lets go.
      const second = withLockFile(
        path,
        async () => {
          order.push("second");
        },
        { sleep: async () => release() },
      );
      await Promise.all([first, second]);
      expect(order).toEqual(["first in", "first out", "second"]);
      await expect(
        withLockFile(path, async () => {
          throw new Error("body failed");
        }),
      ).rejects.toThrow("body failed");
      expect(existsSync(`${path}.lock`)).toBe(false);
    });
  });

  it("refuses after its tries when a live process holds the lock, naming it; takes over an ended one's", async () => {
    await withTempDir("lock-", async (dir) => {
      const path = join(dir, "token.json");
      writeFileSync(`${path}.lock`, `${process.pid}@${hostname()}\n`);
      let ran = false;
      const body = async () => {
        ran = true;
      };
      const refused = withLockFile(path, body, { ...noWait, attempts: 5 });
      await expect(refused).rejects.toBeInstanceOf(LockFileError);
      await expect(refused).rejects.toThrow(`is held by process ${process.pid}@${hostname()}`);
      expect(ran).toBe(false);
      // Another machine's holder cannot be asked: waited for like a live one.
      writeFileSync(`${path}.lock`, "1@another-machine\n");
      await expect(withLockFile(path, body, { ...noWait, attempts: 3 })).rejects.toThrow("1@another-machine");
      const ended = spawnSync(process.execPath, ["-e", ""]).pid!;
      writeFileSync(`${path}.lock`, `${ended}@${hostname()}\n`);
      await withLockFile(path, body, { ...noWait, attempts: 3 });
      expect(ran).toBe(true);
      expect(existsSync(`${path}.lock`)).toBe(false);
    });
  });

  it("takes over only the abandoned lock it read: a live holder's, made meanwhile by another taker, stays", async () => {
    await withTempDir("lock-", async (dir) => {
      const lock = join(dir, "token.json.lock");
      const ended = `${spawnSync(process.execPath, ["-e", ""]).pid!}@${hostname()}`;
      // Another process took the abandoned lock over first and holds its own now; this one read
      // the ended holder's before, and acts on that.
      const live = `${process.pid}@${hostname()}\n`;
      writeFileSync(lock, live);
      await removeAbandoned(lock, ended);
      expect(readFileSync(lock, "utf8")).toBe(live);
      // The abandoned one itself is removed; nothing is left beside it.
      writeFileSync(lock, `${ended}\n`);
      await removeAbandoned(lock, ended);
      expect(readdirSync(dir)).toEqual([]);
      // Gone already (the other taker removed it): nothing to do.
      await removeAbandoned(lock, ended);
      expect(readdirSync(dir)).toEqual([]);
    });
  });

  it("never hangs on a lock that is a named pipe, and says no more of a lock than a holder's pid@host", async () => {
    await withTempDir("lock-", async (dir) => {
      const path = join(dir, "token.json");
      // A pipe opened for reading waits for a writer: the owner must be read without waiting.
      const made = spawnSync("mkfifo", [`${path}.lock`]);
      expect(made.status).toBe(0);
      await expect(withLockFile(path, async () => {}, { ...noWait, attempts: 2 })).rejects.toThrow(
        "is held by process (unknown)",
      );
      // A lock that is a link to another file (a token): what it leads to is never quoted.
      const secret = join(dir, "secret.json");
      writeFileSync(secret, '{"refresh_token":"AQDq-a-refresh-token-never-printed"}\n');
      const other = join(dir, "other.json");
      symlinkSync(secret, `${other}.lock`);
      const linked = withLockFile(other, async () => {}, { ...noWait, attempts: 2 });
      await expect(linked).rejects.toThrow("is held by process (unknown)");
      await expect(linked).rejects.not.toThrow("AQDq");
      // A folder in its place: refused the same way, not taken for an ended holder.
      const third = join(dir, "third.json");
      mkdirSync(`${third}.lock`);
      await expect(withLockFile(third, async () => {}, { ...noWait, attempts: 2 })).rejects.toThrow(
        "is held by process (unknown)",
      );
    });
  });

  it("says why a lock cannot be made", async () => {
    await withTempDir("lock-", async (dir) => {
      await expect(withLockFile(join(dir, "no-folder", "token.json"), async () => {})).rejects.toThrow(
        /cannot make the lock .*no-folder\/token\.json\.lock: no such file or directory/,
      );
    });
  });
});
