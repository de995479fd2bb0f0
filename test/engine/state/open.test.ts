import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PgMigrationError } from "../../../engine/postgres/migrate.js";
import { openState } from "../../../engine/state/open.js";
import { PgDialect } from "../../../engine/state/pg/dialect.js";
import { parseStateUrl, resolveStateUrl } from "../../../engine/state/url.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "state-open-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const run = { recipeId: "r", account: "a", kind: "plan" as const, recipeHash: "h", at: 1 };

describe("parseStateUrl", () => {
  it.each([
    ["state.db", "state.db"],
    ["/abs/state.db", "/abs/state.db"],
    [":memory:", ":memory:"],
    ["sqlite:relative/path.db", "relative/path.db"],
    ["sqlite:/abs/path.db", "/abs/path.db"],
    ["sqlite:///abs/path.db", "/abs/path.db"],
    ["sqlite::memory:", ":memory:"],
    ["C:\\state\\state.db", "C:\\state\\state.db"],
  ])("%s is the SQLite file %s", (url, file) => {
    expect(parseStateUrl(url)).toEqual({ kind: "sqlite", file });
  });

  it.each(["postgres://u@db/music", "postgresql://db:5432/music", "POSTGRES://db/music"])(
    "%s is PostgreSQL",
    (url) => {
      expect(parseStateUrl(url)).toEqual({ kind: "postgres", url });
    },
  );

  it("refuses another scheme, naming the value without its password", () => {
    expect(() => parseStateUrl("mysql://me:hunter2@db/music")).toThrow(
      /unknown state "mysql:\/\/me:\*\*\*@db\/music"/,
    );
    expect(() => parseStateUrl("mysql://me:hunter2@db/music")).not.toThrow(/hunter2/);
  });

  it("refuses a sqlite URL with a host, or with no file, and an empty setting", () => {
    expect(() => parseStateUrl("sqlite://host/state.db")).toThrow(/takes no host/);
    expect(() => parseStateUrl("sqlite:")).toThrow(/no file/);
    expect(() => parseStateUrl("sqlite:///")).toThrow(/no file/);
    expect(() => parseStateUrl("  ")).toThrow(/empty/);
  });
});

describe("openState", () => {
  it("opens one SQLite file whether named by path, sqlite:///absolute or sqlite:relative", async () => {
    const file = join(dir, "nested", "state.db");
    const first = openState(file);
    const id = await first.startRun(run);
    await first.close();
    expect(existsSync(file)).toBe(true);
    for (const url of [`sqlite://${file}`, `sqlite:${relative(process.cwd(), file)}`]) {
      const again = openState(url);
      expect((await again.runs("r")).map((r) => r.id)).toEqual([id]);
      await again.close();
    }
  });

  it("opens a fresh database in memory for :memory: and sqlite::memory:, leaving no file", async () => {
    for (const url of [":memory:", "sqlite::memory:"]) {
      const state = openState(url);
      expect(await state.runs("r")).toEqual([]);
      await state.startRun(run);
      expect(await state.runs("r")).toHaveLength(1);
      await state.close();
    }
    expect(existsSync(":memory:")).toBe(false);
    expect(existsSync("sqlite::memory:")).toBe(false);
  });

  it("opens PostgreSQL for postgres:// and postgresql:// URLs; a server that refuses is named without the password", async () => {
    for (const url of [
      "postgres://me:hunter2@127.0.0.1:1/music",
      "postgresql://me:hunter2@127.0.0.1:1/music",
    ]) {
      const state = openState(url);
      const error = await state.locks().then(
        () => null,
        (e: unknown) => e as Error,
      );
      await state.close();
      expect(error?.message).toContain("cannot connect to the state database 127.0.0.1:1/music");
      expect(String(error)).not.toMatch(/hunter2/);
    }
  });

  it("refuses an unknown scheme, naming it, and creates nothing", () => {
    expect(() => openState("redis://db/0")).toThrow(/unknown state "redis:\/\/db\/0"/);
    expect(existsSync("redis:")).toBe(false);
  });
});

describe("resolveStateUrl", () => {
  it("resolves relative SQLite paths against the project folder and keeps the rest", () => {
    expect(resolveStateUrl("state.db", "/proj")).toBe("/proj/state.db");
    expect(resolveStateUrl("sqlite:data/state.db", "/proj")).toBe("/proj/data/state.db");
    for (const kept of [
      "/abs/state.db",
      "sqlite:///abs/state.db",
      ":memory:",
      "sqlite::memory:",
      "postgres://db/m",
    ])
      expect(resolveStateUrl(kept, "/proj")).toBe(kept);
    expect(resolveStateUrl("redis://db/0", "/proj")).toBe("redis://db/0");
  });
});

describe("opening a PostgreSQL state whose session the server ends", () => {
  const quick = { forMs: 2_000, firstDelayMs: 10, maxDelayMs: 50 };
  /** A migration that fails the first `times` times with `error`, then succeeds. */
  const failing = (times: number, error: () => Error) => {
    let calls = 0;
    const migrate = async () => {
      calls++;
      if (calls <= times) throw new PgMigrationError("db:5432/music", null, "state database", error(), "");
    };
    return { migrate, calls: () => calls };
  };
  const idleTimeout = () =>
    Object.assign(new Error("terminating connection due to idle-session timeout"), { code: "57P05" });
  const refused = () =>
    Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });

  it("opens again after the server ended the opening's session (its idle_session_timeout, met while busy)", async () => {
    const m = failing(2, idleTimeout);
    const dialect = new PgDialect(new pg.Pool({ max: 1 }), m.migrate, quick);
    await dialect.open(async () => undefined);
    expect(m.calls()).toBe(3);
    await dialect.close();
  });

  it("says at once that a server refused to connect, as before", async () => {
    const m = failing(1, refused);
    const dialect = new PgDialect(new pg.Pool({ max: 1 }), m.migrate, quick);
    await expect(dialect.open(async () => undefined)).rejects.toThrow(/cannot connect to the state database/);
    expect(m.calls()).toBe(1);
    await dialect.close();
  });
});
