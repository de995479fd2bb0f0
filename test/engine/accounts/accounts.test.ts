/**
 * Accounts in the state database: credentials sealed with AES-256-GCM under
 * MUSICSYNC_ACCOUNTS_KEY, `musicsync accounts add | list | remove | key`, and recipes whose account
 * exists only in the database synced against the emulator. No output, error or database byte holds
 * a piece of a credential or of the key.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AccountInputError,
  addAccount,
  credentialSecretsOf,
  listAccounts,
  removeAccount,
  resealAccount,
  sealAccount,
  withStoredAccounts,
} from "../../../engine/accounts/accounts.js";
import {
  ACCOUNTS_KEY_VARIABLE,
  keyIdOf,
  newAccountsKey,
  parseAccountsKey,
  SealError,
  seal,
  unseal,
} from "../../../engine/accounts/seal.js";
import { loadProjectText } from "../../../engine/recipe/load.js";
import type { Project } from "../../../engine/recipe/types.js";
import { openState } from "../../../engine/state/open.js";
import type { EngineState } from "../../../engine/state/types.js";
import { MusicClient } from "../../../src/index.js";
import { ensureBuilt, MAIN, ROOT } from "../../support/cli-process.js";
import { credentialSecrets, describePieces, findCredentialPieces } from "../../support/credential-leaks.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";
import { withTempDir } from "../../support/temp-dir.js";

const KEY = newAccountsKey();
const OTHER_KEY = newAccountsKey();
const keyEnv = { [ACCOUNTS_KEY_VARIABLE]: KEY };

/** Every piece of 8 characters or more of a credential or of the keys, in any spelling, is a leak. */
/**
 * The secrets of a set of browser headers for an 8-character check: each cookie's value and the
 * SAPISIDHASH's digest. Not the whole cookie header nor the hash's timestamp: cookie names
 * (`__Secure-3PAPISID`) and the time are no secret, and messages and log lines may hold them.
 */
function secretsOf(headers: Record<string, string>): string[] {
  const hash = /^(?:SAPISIDHASH )?\d+_([0-9a-f]+)$/;
  const values = credentialSecrets(headers).filter((s) => s !== headers.cookie);
  return [...values.map((s) => hash.exec(s)?.[1] ?? s), KEY, OTHER_KEY];
}

function expectNoPieces(label: string, text: string | Buffer, secrets: readonly string[]) {
  const found = findCredentialPieces(text, secrets, 8);
  expect(found, `${label}: ${describePieces(found)}`).toEqual([]);
}

/** The bytes of a SQLite database and of its write-ahead log and journal, where rows may sit. */
async function databaseBytes(file: string): Promise<Buffer> {
  const parts = [file, `${file}-wal`, `${file}-journal`].filter((f) => existsSync(f));
  return Buffer.concat(await Promise.all(parts.map((f) => readFile(f))));
}

function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("it did not throw");
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("it did not reject");
}

describe("sealing credentials", () => {
  const key = parseAccountsKey(KEY);
  const secret = 'SID=AbCdEfGh12345678; SAPISID=ZyXwVuTsRq/987654321"x';

  it("round-trips, with a fresh IV each time and the key's id in the clear", () => {
    const a = seal(secret, key, "alice");
    const b = seal(secret, key, "alice");
    expect(a).not.toBe(b);
    expect(a.startsWith(`sealed:v1:${keyIdOf(key.bytes)}:`)).toBe(true);
    expect(unseal(a, key, "alice")).toBe(secret);
    expectNoPieces("sealed", a, [secret]);
  });

  it("takes a key as base64, base64url or hex, and refuses anything else without repeating it", () => {
    const bytes = Buffer.from(KEY, "base64");
    for (const text of [KEY, bytes.toString("base64url"), bytes.toString("hex"), ` ${KEY}\n`])
      expect(parseAccountsKey(text).id).toBe(keyIdOf(bytes));
    const bad = [
      "correct-horse-battery-staple-but-not-a-key",
      KEY.slice(0, 40),
      Buffer.alloc(16, 7).toString("hex"),
      Buffer.alloc(48, 9).toString("base64"),
      "0".repeat(64),
    ];
    for (const text of bad) {
      const e = thrown(() => parseAccountsKey(text));
      expect(e).toBeInstanceOf(SealError);
      expect(e.message).toMatch(/MUSICSYNC_ACCOUNTS_KEY is (not a key|one byte repeated)/);
      expect(e.message).toContain("musicsync accounts key");
      expectNoPieces("key error", e.message, [text]);
    }
  });

  it("names both keys when another key sealed it, and says 'altered' when it was tampered with", () => {
    const sealed = seal(secret, key, "alice");
    const other = parseAccountsKey(OTHER_KEY);
    const wrong = thrown(() => unseal(sealed, other, "alice"));
    expect(wrong.message).toContain(
      `sealed with key ${key.id}, but MUSICSYNC_ACCOUNTS_KEY is key ${other.id}`,
    );
    // A flipped character of the ciphertext, the tag or the IV, a header edited, a row moved.
    const fields = sealed.split(":");
    for (const i of [3, 4, 5]) {
      const f = fields[i]!;
      const edited = [...fields];
      edited[i] = (f[0] === "A" ? "B" : "A") + f.slice(1);
      const e = thrown(() => unseal(edited.join(":"), key, "alice"));
      expect(e.message).toMatch(/fail their check under key .* altered/);
      expectNoPieces("tamper error", `${e.message}\n${e.stack}`, [secret, KEY]);
    }
    expect(thrown(() => unseal(sealed, key, "bob")).message).toMatch(
      /altered \(or copied from another account\)/,
    );
    expect(thrown(() => unseal(`sealed:v9:${fields.slice(2).join(":")}`, key, "alice")).message).toMatch(
      /sealed in a form v9 this musicsync does not know/,
    );
    expect(thrown(() => unseal("hello", key, "alice")).message).toMatch(/not a sealed text/);
    for (const e of [wrong])
      expectNoPieces("wrong key", `${e.message}\n${e.stack}`, [secret, KEY, OTHER_KEY]);
  });
});

describe("accounts stored in SQLite", () => {
  let h: Harness;
  let dir: string;
  let headers: Record<string, string>;
  let secrets: string[];
  beforeAll(async () => {
    h = await startHarness();
    dir = await mkdtemp(join(tmpdir(), "musicsync-accounts-"));
    headers = (await (await fetch(`${h.emulator.url}/_emulator/accounts/2/headers`)).json()) as Record<
      string,
      string
    >;
    secrets = secretsOf(headers);
  });
  afterAll(async () => {
    await h.stop();
    await rm(dir, { recursive: true, force: true });
  });

  function projectWith(accounts: string): Project {
    const text = `apiVersion: musicsync/v1\nkind: Project\naccounts:\n${accounts}\nstate: state.db\n`;
    const { project, issues } = loadProjectText(join(dir, "musicsync.yaml"), text);
    if (!project) throw new Error(issues.map((i) => i.message).join("; "));
    return project;
  }

  it("adds, lists without credentials, merges into the project for a client, removes", async () => {
    const file = join(dir, "round.db");
    const state = openState(file);
    try {
      const input = { auth: JSON.stringify(headers), base_url: h.emulator.url, location: "DE" };
      expect(await addAccount(state, "liam", input, 1_000, keyEnv)).toEqual({
        replaced: false,
        keyId: parseAccountsKey(KEY).id,
      });
      const listed = await listAccounts(state, keyEnv);
      expect(listed).toEqual([
        {
          name: "liam",
          credential: "auth",
          settings: { base_url: h.emulator.url, location: "DE" },
          check: { status: "sealed" },
          keyId: parseAccountsKey(KEY).id,
          createdAt: 1_000,
          updatedAt: 1_000,
        },
      ]);
      expectNoPieces("listing", JSON.stringify(listed), secrets);

      const project = projectWith(`  default: { auth: headers.json, base_url: "${h.emulator.url}" }`);
      const merged = await withStoredAccounts(project, state, keyEnv);
      expect(Object.keys(merged.accounts).sort()).toEqual(["default", "liam"]);
      expect(merged.accounts.liam).toMatchObject({ auth: JSON.stringify(headers), base_url: h.emulator.url });
      const client = new MusicClient({ auth: merged.accounts.liam!.auth!, baseUrl: h.emulator.url });
      expect(Array.isArray(await client.getLibraryPlaylists({ limit: 5 }))).toBe(true);

      expect((await addAccount(state, "liam", input, 2_000, keyEnv)).replaced).toBe(true);
      expect((await listAccounts(state))[0]).toMatchObject({ createdAt: 1_000, updatedAt: 2_000 });
      expect(await removeAccount(state, "liam")).toBe(true);
      expect(await removeAccount(state, "liam")).toBe(false);
      expect(await listAccounts(state)).toEqual([]);
    } finally {
      await state.close();
    }
  });

  it("refuses an account whose settings were changed in the database (credentials sent elsewhere)", async () => {
    const state = openState(join(dir, "redirect.db"));
    try {
      await addAccount(
        state,
        "mia",
        { auth: JSON.stringify(headers), base_url: h.emulator.url },
        1_000,
        keyEnv,
      );
      const row = (await state.storedAccount("mia"))!;
      // Whoever can write the database, without the key, points the account at another server.
      await state.saveAccount({
        ...row,
        settings: { ...row.settings, base_url: "http://127.0.0.1:9/steal" },
      });
      const project = projectWith(`  default: { auth: headers.json, base_url: "${h.emulator.url}" }`);
      await expect(withStoredAccounts(project, state, keyEnv)).rejects.toThrow(
        /account "mia" were changed outside musicsync \(base_url no longer match/,
      );
      // Listed, the change is said; a password put in the URL is never shown.
      await state.saveAccount({
        ...row,
        settings: { ...row.settings, base_url: "http://thief:s3cretPassw0rd@127.0.0.1:9/steal" },
      });
      const [listed] = await listAccounts(state, keyEnv);
      expect(listed).toMatchObject({
        settings: { base_url: "http://***@127.0.0.1:9/steal" },
        check: { status: "changed", settings: ["base_url"] },
      });
      expect(JSON.stringify(listed)).not.toContain("s3cretPassw0rd");
      // Without the key it cannot be checked, and says why.
      const [unchecked] = await listAccounts(state, {});
      expect(unchecked!.check).toMatchObject({
        status: "unchecked",
        reason: expect.stringMatching(/not set/),
      });
    } finally {
      await state.close();
    }
  });

  it("keeps no piece of the credentials in the database file or its write-ahead log", async () => {
    const file = join(dir, "bytes.db");
    const state = openState(file);
    try {
      await addAccount(state, "liam", { auth: JSON.stringify(headers) }, 1, keyEnv);
      const asText = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join("\n");
      await addAccount(state, "liam-text", { auth: asText }, 1, keyEnv);
      // Read while open (rows in the -wal) and after close (checkpointed into the file).
      expect(existsSync(`${file}-wal`) || existsSync(file)).toBe(true);
      expectNoPieces("state while open", await databaseBytes(file), secrets);
    } finally {
      await state.close();
    }
    expectNoPieces("state after close", await databaseBytes(file), secrets);
  });

  it("refuses bad names, non-credentials and bad settings before any write", async () => {
    const saved: string[] = [];
    const inner = openState(":memory:");
    const state = new Proxy(inner, {
      get(t, p) {
        if (p === "saveAccount") return async (a: { name: string }) => void saved.push(a.name);
        return Reflect.get(t, p, t);
      },
    }) as EngineState;
    const auth = JSON.stringify(headers);
    const badNames = ["", "-dash", "a b", "x/y", "../etc", "ä", "a".repeat(65), "x\ny"];
    for (const name of badNames) {
      const e = await rejection(addAccount(state, name, { auth }, 1, keyEnv));
      expect(e, name).toBeInstanceOf(AccountInputError);
      expect(e.message).toMatch(/account name .* is not allowed/s);
    }
    await expect(removeAccount(state, "a b")).rejects.toThrow(/is not allowed/);
    const refused: [Parameters<typeof addAccount>[2], RegExp][] = [
      [{ auth: headers.cookie! }, /the auth given is not credentials/],
      [{ auth: "headers.json" }, /the auth given is not credentials/],
      [{}, /give either auth or token/],
      [{ auth, token: auth }, /give either auth or token/],
      [
        { token: '{"access_token":"ya29.abcdefghijk","refresh_token":"1//abcdefghij"}' },
        /needs oauth_client/,
      ],
      [{ auth: JSON.stringify({ cookie: "SID=nothingUsefulHere123" }) }, /the auth given cannot be used/],
      [{ auth, location: "Germany" }, /location "Germany" does not match/],
      [{ auth, brand_account: "123" }, /brand_account "123" does not match/],
      [{ auth, base_url: "ftp://x" }, /base_url "ftp:\/\/x" does not match/],
    ];
    for (const [input, message] of refused) {
      const e = await rejection(addAccount(state, "ok", input, 1, keyEnv));
      expect(e.message).toMatch(message);
      expectNoPieces(String(message), `${e.message}\n${e.stack}`, [...secrets, "nothingUsefulHere123"]);
    }
    await expect(addAccount(state, "ok", { auth }, 1, {})).rejects.toThrow(
      /MUSICSYNC_ACCOUNTS_KEY is not set/,
    );
    await expect(
      addAccount(state, "ok", { auth }, 1, { [ACCOUNTS_KEY_VARIABLE]: "not-a-key-at-all-but-secret" }),
    ).rejects.toThrow(/is not a key/);
    expect(saved).toEqual([]);
    await inner.close();
  });

  it("gives a clear error, without the credentials or the key, on a missing, wrong or tampered key", async () => {
    const state = openState(":memory:");
    try {
      await addAccount(state, "liam", { auth: JSON.stringify(headers) }, 1, keyEnv);
      const project = projectWith(`  default: { auth: headers.json }`);
      const other = parseAccountsKey(OTHER_KEY).id;
      const row = (await state.storedAccount("liam"))!;
      const cases: [Record<string, string>, RegExp][] = [
        [{}, /MUSICSYNC_ACCOUNTS_KEY is not set/],
        [
          { [ACCOUNTS_KEY_VARIABLE]: OTHER_KEY },
          new RegExp(`sealed with key [0-9a-f]{8}, but .* is key ${other}`),
        ],
        [{ [ACCOUNTS_KEY_VARIABLE]: "still-not-a-key" }, /is not a key/],
      ];
      for (const [env, message] of cases) {
        const e = await rejection(withStoredAccounts(project, state, env));
        expect(e).toBeInstanceOf(SealError);
        expect(e.message).toMatch(message);
        expectNoPieces(String(message), `${e.message}\n${e.stack}`, [...secrets, "still-not-a-key"]);
      }
      const f = row.sealed.split(":");
      f[5] = `${f[5]![0] === "A" ? "B" : "A"}${f[5]!.slice(1)}`;
      await state.saveAccount({ ...row, sealed: f.join(":") });
      const skipped: string[] = [];
      const merged = await withStoredAccounts(project, state, keyEnv, (name, e) =>
        skipped.push(`${name}: ${e.message}`),
      );
      expect(Object.keys(merged.accounts)).toEqual(["default"]);
      expect(skipped).toHaveLength(1);
      expect(skipped[0]).toMatch(/^liam: .*altered/);
      expectNoPieces("skipped", skipped.join("\n"), secrets);
    } finally {
      await state.close();
    }
  });

  it("a missing or bad key, where accounts are stored, names the key that sealed them instead of a new one", async () => {
    const state = openState(":memory:");
    try {
      await addAccount(state, "liam", { auth: JSON.stringify(headers) }, 1, keyEnv);
      const sealedBy = parseAccountsKey(KEY).id;
      const project = projectWith(`  default: { auth: headers.json }`);
      for (const env of [{}, { [ACCOUNTS_KEY_VARIABLE]: "still-not-a-key" }]) {
        const messages = [
          (await rejection(withStoredAccounts(project, state, env))).message,
          (await rejection(resealAccount(state, "liam", 2, env))).message,
          ...(await listAccounts(state, env)).map((a) =>
            a.check.status === "unchecked" ? a.check.reason : "",
          ),
        ];
        for (const m of messages) {
          expect(m).toContain(`set it to the key that sealed them (key ${sealedBy};`);
          expect(m).toContain("a new key cannot open them");
          expect(m).toContain("`musicsync accounts add`");
          expect(m).not.toContain("prints a new one");
        }
      }
      // Where nothing sealed needs opening (storing a first account), a new key is the way.
      expect(() => sealAccount("new", { auth: JSON.stringify(headers) }, 1, {})).toThrow(/prints a new one/);
    } finally {
      await state.close();
    }
  });

  it("lets the project file's account of the same name win, without needing the key", async () => {
    const state = openState(":memory:");
    try {
      await addAccount(state, "default", { auth: JSON.stringify(headers) }, 1, keyEnv);
      const project = projectWith(`  default: { auth: headers.json }`);
      expect(await withStoredAccounts(project, state, {})).toBe(project);
    } finally {
      await state.close();
    }
  });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built `musicsync` as a child process, with stdin given (for `--auth -`). */
async function musicsync(args: readonly string[], env: Record<string, string>, stdin = ""): Promise<Run> {
  await ensureBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe("musicsync accounts add beside accounts sealed with another key", () => {
  it("without a key names the key that sealed the others; with another key stores, and warns that one key must open them all", async () => {
    await withTempDir("musicsync-keys-", async (dir) => {
      const project = join(dir, "musicsync.yaml");
      await writeFile(project, "apiVersion: musicsync/v1\nkind: Project\nstate: state.db\n");
      const creds = join(dir, "h.json");
      // Browser headers as `musicapi browser` writes them (made up: nothing is sent with them).
      const cookie = "SID=g.a000kQhFqZ3sP9xYw; SAPISID=Zq8HcR2vLm5TnB4x/AkYpWd3";
      await writeFile(creds, JSON.stringify({ cookie, "x-goog-authuser": "0" }));
      const add = (name: string, env: Record<string, string>) =>
        musicsync(["accounts", "add", name, "--auth", creds, "-p", project], env);
      expect((await add("first", keyEnv)).code).toBe(0);
      const sealedBy = parseAccountsKey(KEY).id;
      const none = await add("second", {});
      expect(none.code).toBe(1);
      expect(none.stderr).toContain(`set it to the key that sealed them (key ${sealedBy};`);
      expect(none.stderr).not.toContain("prints a new one");
      const other = await add("second", { [ACCOUNTS_KEY_VARIABLE]: OTHER_KEY });
      expect(other.code).toBe(0);
      expect(other.stderr).toBe(
        `warning: other stored accounts were sealed with key ${sealedBy}, which MUSICSYNC_ACCOUNTS_KEY ` +
          `(key ${parseAccountsKey(OTHER_KEY).id}) cannot open: add them again with this key, or this one with theirs\n`,
      );
      // Replacing the only account under a new key warns of nothing.
      expect((await add("first", { [ACCOUNTS_KEY_VARIABLE]: OTHER_KEY })).stderr).toBe("");
    });
  });
});

describe("musicsync accounts, then a sync of a recipe whose account is only in the database", () => {
  let h: Harness;
  afterAll(async () => {
    await h?.stop();
  });

  it("stores, lists, syncs, refuses, removes — and prints no piece of a credential or the key", async () => {
    h = await startHarness();
    const headers = (await (await fetch(`${h.emulator.url}/_emulator/accounts/2/headers`)).json()) as Record<
      string,
      string
    >;
    const secrets = secretsOf(headers);
    const dir = join(h.dir, "stored");
    await mkdir(join(dir, "recipes"), { recursive: true });
    const project = join(dir, "musicsync.yaml");
    await writeFile(
      project,
      `apiVersion: musicsync/v1\nkind: Project\naccounts:\n  default: { auth: ../headers.json, base_url: "${h.emulator.url}" }\npacing: { min_interval_ms: 0 }\nstate: state.db\n`,
    );
    const songs = catalogueSongs(h, 3);
    await writeFile(
      join(dir, "recipes", "stored.yaml"),
      `apiVersion: musicsync/v1\nkind: Recipe\nid: from-db\naccount: liam\nsources:\n  - { id: list, type: static, videoIds: [${songs.join(", ")}] }\ntarget:\n  type: playlist\n  playlist: { title: "From the database", privacy: PRIVATE }\nmode: mirror\n`,
    );
    const creds = join(dir, "liam.json");
    await writeFile(creds, JSON.stringify(headers));
    const env = { ...keyEnv, MUSICSYNC_LOG_LEVEL: "debug" };
    const p = ["-p", project];
    const outputs: [string, Run][] = [];
    const run = async (label: string, args: string[], e: Record<string, string> = env, stdin = "") => {
      const r = await musicsync([...args, ...p], e, stdin);
      outputs.push([label, r]);
      return r;
    };

    // Refused before the state exists: no database file is made.
    expect((await run("bad name", ["accounts", "add", "a b", "--auth", creds])).code).toBe(1);
    expect((await run("no key", ["accounts", "add", "liam", "--auth", creds], {})).stderr).toMatch(
      /MUSICSYNC_ACCOUNTS_KEY is not set/,
    );
    const badKey = await run("bad key", ["accounts", "add", "liam", "--auth", creds], {
      [ACCOUNTS_KEY_VARIABLE]: "this-is-no-key-but-a-secret-phrase",
    });
    expect(badKey.stderr).toMatch(/is not a key/);
    expectNoPieces("bad key", badKey.stderr, ["this-is-no-key-but-a-secret-phrase"]);
    const cookieFile = join(dir, "cookie.txt");
    await writeFile(cookieFile, headers.cookie!);
    expect((await run("bare cookie", ["accounts", "add", "liam", "--auth", cookieFile])).stderr).toMatch(
      /not credentials/,
    );
    expect(existsSync(join(dir, "state.db"))).toBe(false);

    // Stored from a file, then replaced from stdin; the file is gone before the sync.
    const added = await run("add", [
      "accounts",
      "add",
      "liam",
      "--auth",
      creds,
      "--base-url",
      h.emulator.url,
    ]);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^Account liam stored \(auth, sealed with key [0-9a-f]{8}\)\.$/m);
    const again = await run(
      "add stdin",
      ["accounts", "add", "liam", "--auth", "-", "--base-url", h.emulator.url],
      env,
      JSON.stringify(headers),
    );
    expect(again.stdout).toMatch(/Account liam replaced/);
    await rm(creds);

    const list = await run("list", ["accounts", "list"]);
    expect(list.stdout).toMatch(new RegExp(`^liam +auth +${parseAccountsKey(KEY).id} +base_url=`, "m"));
    const json = await run("list json", ["accounts", "list", "--json"]);
    const listed = JSON.parse(json.stdout) as { accounts: { name: string; keyId: string }[] };
    expect(listed.accounts.map((a) => [a.name, a.keyId])).toEqual([["liam", parseAccountsKey(KEY).id]]);
    expect((await run("key id", ["accounts", "key", "--id"])).stdout.trim()).toBe(parseAccountsKey(KEY).id);
    const fresh = await run("key", ["accounts", "key"]);
    expect(parseAccountsKey(fresh.stdout.trim()).id).not.toBe(parseAccountsKey(KEY).id);

    expect((await run("plan", ["plan"])).code).toBe(2);
    const sync = await run("sync", ["sync", "--json"]);
    expect(sync.code, sync.stderr).toBe(0);
    const liam = new MusicClient({ auth: headers, baseUrl: h.emulator.url });
    const lists = await liam.getLibraryPlaylists({ limit: null });
    expect(lists.filter((l) => l.title === "From the database")).toHaveLength(1);
    // doctor says where the credentials are kept: in the state, not "inline" in a setting.
    const doctor = await run("doctor", ["doctor"]);
    expect(doctor.stdout).toMatch(
      /^ok +account liam: browser headers from the accounts stored in the state \(`musicsync accounts`\)$/m,
    );
    expect(doctor.stdout).not.toContain("inline in");

    // Another key: the account is left out with both key ids named; the recipe cannot run.
    const wrong = await run("wrong key", ["plan"], { [ACCOUNTS_KEY_VARIABLE]: OTHER_KEY });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /warning: stored account liam left out: .* sealed with key [0-9a-f]{8}, but/,
    );
    expect(wrong.stderr).toMatch(/unknown account "liam"/);
    const missing = await run("missing key", ["plan"], {});
    expect(missing.stderr).toMatch(/stored account liam left out: MUSICSYNC_ACCOUNTS_KEY is not set/);

    // Tampered with in the database: refused as altered.
    const db = new Database(join(dir, "state.db"));
    const { sealed } = db.prepare("SELECT sealed FROM accounts WHERE name = 'liam'").get() as {
      sealed: string;
    };
    const at = sealed.lastIndexOf(":") + 1;
    const flipped = sealed.slice(0, at) + (sealed[at] === "A" ? "B" : "A") + sealed.slice(at + 1);
    db.prepare("UPDATE accounts SET sealed = ? WHERE name = 'liam'").run(flipped);
    db.close();
    expect((await run("tampered", ["plan"])).stderr).toMatch(/stored account liam left out: .*altered/);

    expect((await run("remove", ["accounts", "remove", "liam"])).code).toBe(0);
    expect((await run("remove again", ["accounts", "remove", "liam"])).code).toBe(1);
    expect((await run("list empty", ["accounts", "list"])).stdout).toBe("No stored accounts.\n");

    for (const [label, r] of outputs) {
      expectNoPieces(`${label} stdout`, r.stdout, secrets);
      expectNoPieces(`${label} stderr`, r.stderr, secrets);
    }
    expectNoPieces("state database", await databaseBytes(join(dir, "state.db")), secrets);
  }, 240_000);
});

describe("a stored account's base_url and public headers are no secret", () => {
  const mirror = "http://music-mirror.invalid:8080";
  const headers = {
    cookie:
      "SID=g.a000kQhFqZ3sP9xYw; SAPISID=Zq8HcR2vLm5TnB4x/AkYpWd3; __Secure-3PAPISID=Zq8HcR2vLm5TnB4x/AkYpWd3",
    "x-goog-authuser": "0",
    origin: mirror,
    "x-origin": mirror,
    "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    "content-type": "application/json",
  };

  it("a credentials text's secrets are its cookie's values and private fields, not its origin or scope", () => {
    const secrets = credentialSecretsOf(JSON.stringify(headers));
    expect(secrets).toContain("Zq8HcR2vLm5TnB4x/AkYpWd3");
    expect(secrets).toContain(headers.cookie);
    for (const value of [mirror, headers["user-agent"], "application/json", JSON.stringify(headers)])
      expect(secrets).not.toContain(value);
    const token = {
      access_token: "ya29.a0AfB_byCexampleAccessToken",
      refresh_token: "1//0gExampleRefreshTokenValue",
      scope: "https://www.googleapis.com/auth/youtube",
      token_type: "Bearer",
      expires_at: 1_900_000_000,
    };
    const tokenSecrets = credentialSecretsOf(JSON.stringify(token));
    expect(tokenSecrets.sort()).toEqual([token.access_token, token.refresh_token].sort());
    // Unparsable (JSON cut short): all of it.
    const cut = '{"cookie": "SAPISID=Zq8HcR2vLm5T';
    expect(credentialSecretsOf(cut)).toEqual([cut]);
  });

  it("a sync whose host cannot be resolved names the host, and still no piece of a credential", async () => {
    await withTempDir("musicsync-mirror-", async (dir) => {
      await mkdir(join(dir, "recipes"));
      const project = join(dir, "musicsync.yaml");
      await writeFile(
        project,
        "apiVersion: musicsync/v1\nkind: Project\ndefaults: { account: mirror }\nstate: state.db\nrecipes: [recipes]\n",
      );
      await writeFile(
        join(dir, "recipes", "one.yaml"),
        "apiVersion: musicsync/v1\nkind: Recipe\nid: one\nsources:\n  - { id: list, type: static, videoIds: [dQw4w9WgXcQ] }\ntarget:\n  type: playlist\n  playlist: { title: One, privacy: PRIVATE }\nmode: mirror\n",
      );
      await writeFile(join(dir, "mirror.json"), JSON.stringify(headers));
      const p = ["-p", project];
      const added = await musicsync(
        ["accounts", "add", "mirror", "--auth", join(dir, "mirror.json"), "--base-url", mirror, ...p],
        keyEnv,
      );
      expect(added.code, added.stderr).toBe(0);
      const sync = await musicsync(["sync", ...p], keyEnv);
      expect(sync.code).toBe(1);
      expect(sync.stdout + sync.stderr).toContain("ENOTFOUND music-mirror.invalid");
      expect(sync.stdout + sync.stderr).not.toContain("[redacted]");
      const list = await musicsync(["accounts", "list", ...p], keyEnv);
      expect(list.stdout).toContain(`base_url=${mirror}`);
      const secrets = [...credentialSecrets(headers), "Zq8HcR2vLm5TnB4x/AkYpWd3", KEY];
      for (const [label, r] of [
        ["sync", sync],
        ["list", list],
      ] as const) {
        expectNoPieces(`${label} stdout`, r.stdout, secrets);
        expectNoPieces(`${label} stderr`, r.stderr, secrets);
      }
    });
  });

  it("accounts list says a base_url changed in the database, never shows its password; reseal takes it", async () => {
    await withTempDir("musicsync-reseal-", async (dir) => {
      const project = join(dir, "musicsync.yaml");
      await writeFile(project, "apiVersion: musicsync/v1\nkind: Project\nstate: state.db\n");
      await writeFile(join(dir, "mirror.json"), JSON.stringify(headers));
      const p = ["-p", project];
      const add = (name: string, url: string) =>
        musicsync(
          ["accounts", "add", name, "--auth", join(dir, "mirror.json"), "--base-url", url, ...p],
          keyEnv,
        );
      expect((await add("mirror", mirror)).code).toBe(0);
      expect((await add("older", mirror)).code).toBe(0);
      // A password in the URL given is refused, and not repeated.
      const withPassword = await add("pw", "http://user:Pa55w0rdInUrl@music-mirror.invalid/");
      expect(withPassword.code).toBe(1);
      expect(withPassword.stderr).toContain(
        'base_url "http://***@music-mirror.invalid/" holds a user name or password',
      );
      expect(withPassword.stderr).not.toContain("Pa55w0rdInUrl");

      // Someone with the database but not the key points "mirror" elsewhere, with a password in the
      // URL; "older" is a row stored before the settings were sealed with the credentials.
      const db = new Database(join(dir, "state.db"));
      const row = db.prepare("SELECT settings FROM accounts WHERE name = 'mirror'").get() as {
        settings: string;
      };
      const moved = {
        ...JSON.parse(row.settings),
        base_url: "https://thief:Pa55w0rdInUrl@elsewhere.invalid/x",
      };
      db.prepare("UPDATE accounts SET settings = ? WHERE name = 'mirror'").run(JSON.stringify(moved));
      const old = seal(JSON.stringify({ auth: JSON.stringify(headers) }), parseAccountsKey(KEY), "older");
      db.prepare("UPDATE accounts SET sealed = ? WHERE name = 'older'").run(old);
      db.close();

      const list = await musicsync(["accounts", "list", ...p], keyEnv);
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(
        /^mirror .*base_url=https:\/\/\*\*\*@elsewhere\.invalid\/x .*\(base_url changed outside musicsync\)/m,
      );
      expect(list.stdout).toMatch(/^older .*\(not sealed: stored by an older musicsync\)/m);
      expect(list.stderr).toContain(
        'warning: the stored settings of account "mirror" were changed outside musicsync',
      );
      expect(list.stderr).toContain("musicsync accounts reseal older");
      const json = await musicsync(["--json", "accounts", "list", ...p], keyEnv);
      const listed = JSON.parse(json.stdout) as { accounts: { name: string; check: { status: string } }[] };
      expect(listed.accounts.map((a) => [a.name, a.check.status])).toEqual([
        ["mirror", "changed"],
        ["older", "not_sealed"],
      ]);
      const noKey = await musicsync(["accounts", "list", ...p], {});
      expect(noKey.stderr).toContain(
        "settings not checked against their sealed copy: MUSICSYNC_ACCOUNTS_KEY is not set",
      );
      for (const r of [list, json, noKey]) expect(r.stdout + r.stderr).not.toContain("Pa55w0rdInUrl");

      // The person checked them: resealed, listed clean, used again.
      const resealed = await musicsync(["accounts", "reseal", "older", ...p], keyEnv);
      expect(resealed.code, resealed.stderr).toBe(0);
      expect(resealed.stdout).toContain(`Account older resealed with its settings: base_url=${mirror}`);
      const after = await musicsync(["accounts", "list", ...p], keyEnv);
      expect(after.stdout).toMatch(/^older +auth +[0-9a-f]{8} +base_url=\S+$/m);
      expect(after.stderr).not.toContain('"older"');
      const unknown = await musicsync(["accounts", "reseal", "nobody", ...p], keyEnv);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("no stored account nobody");
      const secrets = [...credentialSecrets(headers), "Zq8HcR2vLm5TnB4x/AkYpWd3", KEY];
      for (const r of [list, json, noKey, resealed, after]) {
        expectNoPieces("stdout", r.stdout, secrets);
        expectNoPieces("stderr", r.stderr, secrets);
      }
    });
  });

  it("accounts list shows a row edited by hand without letting it write to the terminal, and never crashes on it", async () => {
    await withTempDir("musicsync-hostile-row-", async (dir) => {
      const project = join(dir, "musicsync.yaml");
      await writeFile(project, "apiVersion: musicsync/v1\nkind: Project\nstate: state.db\n");
      await writeFile(join(dir, "mirror.json"), JSON.stringify(headers));
      const p = ["-p", project];
      for (const name of ["escapes", "nothing", "broken"]) {
        const added = await musicsync(
          ["accounts", "add", name, "--auth", join(dir, "mirror.json"), "--base-url", mirror, ...p],
          keyEnv,
        );
        expect(added.code, added.stderr).toBe(0);
      }
      const db = new Database(join(dir, "state.db"));
      const set = db.prepare("UPDATE accounts SET settings = ? WHERE name = ?");
      set.run(
        JSON.stringify({ credential: "auth", base_url: "http://evil.invalid/\u001b[2J\nforged line" }),
        "escapes",
      );
      set.run("null", "nothing");
      set.run("{not json", "broken");
      db.close();
      const list = await musicsync(["accounts", "list", ...p], keyEnv);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout + list.stderr).not.toMatch(/\u001b/);
      expect(list.stdout).not.toMatch(/^forged line/m);
      expect(list.stdout).toContain("base_url=http://evil.invalid/\\u001b[2J\\u000aforged line");
      for (const name of ["escapes", "nothing", "broken"])
        expect(list.stderr).toContain(
          `warning: the stored settings of account "${name}" were changed outside musicsync`,
        );
      // And no run uses them: each is left out, said in one line.
      const plan = await musicsync(["plan", ...p], keyEnv);
      for (const name of ["escapes", "nothing", "broken"])
        expect(plan.stderr).toMatch(
          new RegExp(`warning: stored account ${name} left out: .*changed outside musicsync`),
        );
    });
  });
});
