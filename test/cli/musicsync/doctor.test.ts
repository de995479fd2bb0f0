/**
 * `musicsync doctor`: each check's ok / warning / error, the exit code, and that no credential is
 * ever printed (a recognisable fake cookie is searched for in everything it says).
 */
import { spawnSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { credentialChecks, oauthExpiry } from "../../../cli/musicsync/doctor-account.js";
import type { Account } from "../../../engine/recipe/types.js";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import { musicsyncInProc } from "../../support/musicsync-inproc.js";
import { type Harness, startHarness } from "../../support/sync-harness.js";

const FAKE = "H2DOCTORFAKECOOKIE0123456789abcdefXYZ";

let dir: string;
let h: Harness | null = null;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "musicsync-doctor-"));
});
afterEach(async () => {
  await h?.stop();
  h = null;
  await chmod(dir, 0o755).catch(() => {});
  await rm(dir, { recursive: true, force: true });
});

const RECIPE = `apiVersion: musicsync/v1
kind: Recipe
id: mine
sources: [{ id: s, type: static, videoIds: [aaaaaaaaaaa] }]
target: { type: playlist, playlist: { title: Mine } }
`;

/** A project on a small embedded emulator, with one valid recipe. */
async function project(account = "emulator: { db: emulator.db, catalogue: 60 }", recipe = RECIPE) {
  await mkdir(join(dir, "recipes"), { recursive: true });
  await writeFile(join(dir, "recipes", "mine.yaml"), recipe);
  await writeFile(
    join(dir, "musicsync.yaml"),
    `apiVersion: musicsync/v1\nkind: Project\naccounts:\n  default: { ${account} }\nstate: state.db\n`,
  );
}

const doctor = () => musicsyncInProc(["-p", dir, "doctor"]);
const line = (out: string, words: string) => out.split("\n").find((l) => l.includes(words)) ?? "";

describe("musicsync doctor", () => {
  it("says ok to a sound project on the embedded emulator, exit 0", async () => {
    await project();
    const r = await doctor();
    expect(r.stdout).toMatch(/^ok +project: /m);
    expect(line(r.stdout, "embedded emulator")).toMatch(/^ok +account default:/);
    expect(line(r.stdout, "read the library")).toMatch(/^ok /);
    expect(line(r.stdout, "first sync creates it")).toMatch(/^ok +state:/);
    expect(line(r.stdout, "1 recipe valid")).toMatch(/^ok +recipes:/);
    expect(r.stdout).toContain("0 errors, 0 warnings.");
    expect(r.code).toBe(0);
  });

  it("reports a project file that does not load, exit 1", async () => {
    await writeFile(join(dir, "musicsync.yaml"), "apiVersion: musicsync/v1\nkind: Project\naccounts: []\n");
    const r = await doctor();
    expect(r.stdout).toMatch(/^error +project: .*musicsync\.yaml:\d+:\d+ /m);
    expect(r.code).toBe(1);
  });

  it("names a missing auth file, exit 1", async () => {
    await project("auth: nothere.json");
    const r = await doctor();
    // A file not made yet is made, not "renewed".
    const file = join(dir, "nothere.json");
    expect(line(r.stdout, "nothere.json")).toBe(
      `error   account default: accounts.default.auth: the file ${file} does not exist or cannot be read; ` +
        `make one with \`musicapi browser -o ${file}\` (or \`musicapi oauth -o ${file}\`)`,
    );
    expect(r.code).toBe(1);
  });

  it("says refused credentials are refused, and never prints them", async () => {
    h = await startHarness({ catalogueSize: 60 });
    const wrong = { ...h.headers, cookie: `SAPISID=${FAKE}; __Secure-3PAPISID=${FAKE}; SID=${FAKE}` };
    await writeFile(join(dir, "headers.json"), JSON.stringify(wrong));
    await project(`auth: headers.json, base_url: "${h.emulator.url}"`);
    const r = await doctor();
    expect(line(r.stdout, "browser headers from")).toMatch(
      /^ok +account default: browser headers from \S+headers\.json/,
    );
    expect(line(r.stdout, "refused")).toMatch(/^error +account default: the credentials were refused/);
    expect(r.code).toBe(1);
    const all = r.stdout + r.stderr;
    expect(all).not.toContain(FAKE);
    expect(all).not.toContain(FAKE.slice(0, 16));
    // The same credentials inline in the project file: the value is never shown either.
    await project(`auth: '${JSON.stringify(wrong)}', base_url: "${h.emulator.url}"`);
    const inline = await doctor();
    expect(inline.stdout).toContain("inline in accounts.default.auth");
    expect(inline.stdout + inline.stderr).not.toContain(FAKE.slice(0, 16));
  });

  it("tells a valid OAuth token from an expired one, and whether it can be refreshed", async () => {
    const now = Date.UTC(2025, 0, 1);
    expect(oauthExpiry("a", now / 1000 + 3600, false, now)).toMatchObject({
      level: "ok",
      message: expect.stringContaining("valid until"),
    });
    expect(oauthExpiry("a", now / 1000 - 60, true, now)).toMatchObject({
      level: "ok",
      message: expect.stringContaining("refreshed on first use"),
    });
    expect(oauthExpiry("a", now / 1000 - 60, false, now)).toMatchObject({
      level: "error",
      message: expect.stringContaining("oauth_client"),
    });

    const token = {
      access_token: FAKE,
      refresh_token: `${FAKE}r`,
      expires_at: now / 1000 - 60,
      scope: "s",
      token_type: "Bearer",
    };
    await writeFile(join(dir, "oauth.json"), JSON.stringify(token));
    const account: Account = {
      auth: "oauth.json",
      token: null,
      oauth_client: null,
      brand_account: "123456789012345678901",
      language: "en",
      location: null,
      base_url: null,
      emulator: null,
    };
    const without = credentialChecks("default", account, dir, now);
    expect(without.map((c) => c.level)).toEqual(["ok", "ok", "error"]);
    expect(without[0]!.message).toContain("OAuth token from");
    expect(without[1]!.message).toContain("brand account 123456789012345678901");
    const withClient = credentialChecks(
      "default",
      { ...account, oauth_client: { id: "i", secret: FAKE } },
      dir,
      now,
    );
    expect(withClient.map((c) => c.level)).toEqual(["ok", "ok", "ok"]);
    expect(JSON.stringify([without, withClient])).not.toContain(FAKE.slice(0, 16));
  });

  it("reports a read-only state database", async () => {
    await project();
    openSqliteState(join(dir, "state.db")).close();
    await chmod(join(dir, "state.db"), 0o444);
    const r = await doctor();
    expect(line(r.stdout, "read-only")).toMatch(/^error +state: .*state\.db is read-only/);
    expect(r.code).toBe(1);
  });

  it("reports a state database of a newer schema, and leaves it alone", async () => {
    await project();
    openSqliteState(join(dir, "state.db")).close();
    const db = new Database(join(dir, "state.db"));
    db.prepare('INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES (?, ?)').run("future", 9e12);
    db.close();
    const r = await doctor();
    expect(line(r.stdout, "newer schema")).toMatch(/^error +state: .*upgrade musicsync/);
    expect(r.code).toBe(1);
    const after = new Database(join(dir, "state.db"), { readonly: true });
    const rows = after.prepare('SELECT MAX(created_at) AS last FROM "__drizzle_migrations"').get();
    after.close();
    expect(rows).toEqual({ last: 9e12 });
  });

  it("warns of a stale lock and a suspended recipe, with the command that clears each", async () => {
    await project();
    const state = openSqliteState(join(dir, "state.db"));
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid;
    const taken = await state.acquireLock("default", `${hostname()}:${gone}`, Date.now(), 60_000);
    await state.recordRecipeFailure("mine", "default", Date.now(), "the source is gone", { suspendAfter: 1 });
    await state.close();
    const r = await doctor();
    const lockId = taken.acquired ? taken.lock.lockId : "";
    expect(line(r.stdout, "stale lock")).toMatch(new RegExp(`^warning +state: .*musicsync unlock ${lockId}`));
    expect(line(r.stdout, "recipe mine")).toMatch(
      /^warning +recipe mine: suspended: .*the source is gone.*musicsync resume mine/,
    );
    expect(r.stdout).toContain("0 errors, 2 warnings.");
    expect(r.code).toBe(0);
  });

  it("reports an invalid recipe as file:line:col, exit 1", async () => {
    await project(undefined, RECIPE.replace("type: static", "type: nonsense"));
    const r = await doctor();
    expect(r.stdout).toMatch(/^error +recipes: \S+mine\.yaml:\d+:\d+ /m);
    expect(r.code).toBe(1);
  });

  it("warns of a recipe whose items cannot go into its target, exit 0", async () => {
    await project(
      undefined,
      RECIPE.replace(
        "target: { type: playlist, playlist: { title: Mine } }",
        "target: { type: subscriptions }",
      ),
    );
    const r = await doctor();
    expect(r.stdout).toMatch(/^warning +recipes: \S+mine\.yaml:\d+:\d+ warning: .*subscriptions/m);
    expect(r.code).toBe(0);
  });
});
