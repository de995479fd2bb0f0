/**
 * The engine against a service that echoes the credentials back (docs/ENGINE.md#credentials), and an account
 * whose `auth` holds the credentials themselves. Nothing the engine writes — stdout of
 * `sync --json` and `plan --json`, debug logs, the saved plan, the state database's bytes — holds a
 * credential or a 12-character piece of one, in any spelling.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { GlobalOptions } from "../../../cli/musicsync/io.js";
import { stateFileOf } from "../../../cli/musicsync/project.js";
import {
  CredentialScrubber,
  engineScrubber,
  learnStateUrl,
  scrubLogLine,
} from "../../../engine/output/scrub.js";
import { loadProjectText } from "../../../engine/recipe/load.js";
import type { Project } from "../../../engine/recipe/types.js";
import { createEnv } from "../../../engine/run/env.js";
import { createLogger } from "../../../engine/run/logger.js";
import { AuthError } from "../../../src/index.js";
import { musicsync } from "../../support/cli-process.js";
import { credentialSecrets, describePieces, findCredentialPieces } from "../../support/credential-leaks.js";
import { type EchoServer, startEchoServer } from "../../support/echo-server.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";

let h: Harness | null = null;
let echo: EchoServer | null = null;
afterEach(async () => {
  await echo?.close();
  await h?.stop();
  h = echo = null;
});

/** A project whose one account takes its credentials from MUSICSYNC_AUTH, talking to `url`. */
async function project(harness: Harness, url: string): Promise<string> {
  const file = join(harness.dir, "echo.yaml");
  await writeFile(
    file,
    [
      "apiVersion: musicsync/v1",
      "kind: Project",
      "accounts:",
      `  default: { auth: "\${MUSICSYNC_AUTH}", base_url: "${url}" }`,
      "pacing: { min_interval_ms: 0 }",
      "recipes: [recipes]",
      "state: echo-state.db",
      "",
    ].join("\n"),
  );
  return file;
}

/** Three recipes: a new playlist from fixed songs, a copy of a playlist, and a search. */
async function recipes(harness: Harness, songs: readonly string[], playlistId: string): Promise<void> {
  await mkdir(join(harness.dir, "recipes"), { recursive: true });
  const recipe = (id: string, source: string, title: string) =>
    `apiVersion: musicsync/v1\nkind: Recipe\nid: ${id}\nsources:\n  - ${source}\ntarget:\n  type: playlist\n  playlist: { title: "${title}", privacy: PRIVATE }\nmode: mirror\n`;
  await writeFile(
    join(harness.dir, "recipes", "echo.yaml"),
    [
      recipe("echo-fixed", `{ id: list, type: static, videoIds: [${songs.join(", ")}] }`, "Echo"),
      recipe("echo-copy", `{ id: src, type: playlist, playlistId: ${playlistId} }`, "Echo copy"),
      recipe("echo-search", "{ id: found, type: search, query: Canyon, filter: songs }", "Echo search"),
    ].join("---\n"),
  );
}

/** The bytes of the state database and its write-ahead log, where rows may still sit. */
async function databaseBytes(file: string): Promise<Buffer> {
  const parts = [file, `${file}-wal`, `${file}-journal`].filter((f) => existsSync(f));
  return Buffer.concat(await Promise.all(parts.map((f) => readFile(f))));
}

function expectNoPieces(label: string, text: string | Buffer, secrets: readonly string[]) {
  const found = findCredentialPieces(text, secrets);
  expect(found, `${label}: ${describePieces(found)}`).toEqual([]);
}

describe("musicsync against a service that echoes the credentials back", () => {
  // docs/ENGINE.md#credentials
  it("prints, logs, saves and stores no piece of a credential: sync --json, plan -o, debug logs, state", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 4);
    const source = await h.person.createPlaylist("Echo source", "songs to copy", { videoIds: songs });
    echo = await startEchoServer({ upstream: h.emulator.url });
    const file = await project(h, echo.url);
    await recipes(h, songs, String(source));
    const env = { MUSICSYNC_AUTH: JSON.stringify(h.headers), MUSICSYNC_LOG_LEVEL: "debug" };
    const planFile = join(h.dir, "plan.json");

    const plan = await musicsync(["plan", "--json", "-p", file, "-o", planFile], env);
    const sync = await musicsync(["sync", "--json", "-p", file], env);

    // The service really echoed, in each of its ways: a failed write, an error, planted texts.
    expect(echo.counts.get("status-failed") ?? 0).toBeGreaterThan(0);
    expect(echo.counts.get("all-in-one") ?? 0).toBeGreaterThan(0);
    expect(echo.counts.get("forward-planted") ?? 0).toBeGreaterThan(0);
    const secrets = [...credentialSecrets(h.headers)];
    for (const r of echo.requests) secrets.push(...credentialSecrets(r.headers as Record<string, string>));
    expect(findCredentialPieces(echo.sent.join("\n"), secrets).length).toBeGreaterThan(0);

    // The engine ran: the inline credentials were taken, every recipe has an outcome, logs were written.
    const runs = (
      JSON.parse(sync.stdout) as { runs: { recipe: string; outcome: string; error: string | null }[] }
    ).runs;
    expect(runs.map((r) => r.recipe).sort()).toEqual(["echo-copy", "echo-fixed", "echo-search"]);
    expect(runs.find((r) => r.recipe === "echo-search")?.error).toContain("[redacted]");
    expect(sync.stderr.split("\n").filter((l) => l.startsWith("{")).length).toBeGreaterThan(0);
    expect(existsSync(planFile)).toBe(true);

    expectNoPieces("plan stdout", plan.stdout, secrets);
    expectNoPieces("plan stderr", plan.stderr, secrets);
    expectNoPieces("saved plan", await readFile(planFile, "utf8"), secrets);
    expectNoPieces("sync stdout", sync.stdout, secrets);
    expectNoPieces("sync logs", sync.stderr, secrets);
    expectNoPieces("state database", await databaseBytes(join(h.dir, "echo-state.db")), secrets);
  });
});

describe("an account's auth setting holding the credentials themselves", () => {
  // docs/ENGINE.md#credentials
  it("takes headers JSON or header text inline, and a path relative to the project file", async () => {
    h = await startHarness();
    const asText = Object.entries(h.headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join("\n");
    for (const auth of [JSON.stringify(h.headers), asText, "headers.json"]) {
      const text = `apiVersion: musicsync/v1\nkind: Project\naccounts:\n  default: { auth: "\${MUSICSYNC_AUTH}", base_url: "${h.emulator.url}" }\nstate: ":memory:"\n`;
      const { project: loaded, issues } = loadProjectText(join(h.dir, "p.yaml"), text, {
        MUSICSYNC_AUTH: auth,
      });
      expect(issues).toEqual([]);
      const env = createEnv({
        project: loaded!,
        projectFile: join(h.dir, "p.yaml"),
        logger: createLogger("silent"),
      });
      const playlists = await env.clientFor("default").getLibraryPlaylists({ limit: 5 });
      expect(Array.isArray(playlists)).toBe(true);
      await env.close();
    }
  });

  // docs/ENGINE.md#credentials
  it("names the setting and never its value when it is neither a file nor credentials", async () => {
    h = await startHarness();
    const cookieLine = h.headers.cookie!;
    const token = "ya29.a0AfH6SMBsomeBareAccessTokenValue";
    const neither = /^accounts\.default\.auth is neither a readable file nor credentials/;
    // [the value, the message expected, the secrets it holds]
    const cases: [string, RegExp, string[]][] = [
      [cookieLine, neither, credentialSecrets(h.headers)],
      [token, neither, [token]],
      [
        JSON.stringify({ ...h.headers, cookie: "SID=nothingUsefulHere123" }),
        /^accounts\.default\.auth: .*neither `__Secure-3PAPISID` nor `SAPISID`/,
        ["nothingUsefulHere123", h.headers.authorization!],
      ],
      [
        "missing/browser.json",
        /^accounts\.default\.auth: the file .*missing\/browser\.json does not exist/,
        [],
      ],
    ];
    for (const [value, expected, secrets] of cases) {
      const text = `apiVersion: musicsync/v1\nkind: Project\naccounts:\n  default: { auth: "\${MUSICSYNC_AUTH}" }\nstate: ":memory:"\n`;
      const { project: loaded } = loadProjectText(join(h.dir, "p.yaml"), text, { MUSICSYNC_AUTH: value });
      const env = createEnv({
        project: loaded!,
        projectFile: join(h.dir, "p.yaml"),
        logger: createLogger("silent"),
      });
      const error = (() => {
        try {
          env.clientFor("default");
        } catch (e) {
          return e as Error;
        }
        return null;
      })();
      expect(error).toBeInstanceOf(AuthError);
      expect(error?.message).toMatch(expected);
      expectNoPieces(String(expected), `${error?.message}\n${error?.stack}`, secrets);
      await env.close();
    }
  });

  // docs/ENGINE.md#credentials
  it("sync --json reports such a setting by name, without the cookie, in text and in JSON", async () => {
    h = await startHarness();
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeFile(
      join(h.dir, "recipes", "one.yaml"),
      `apiVersion: musicsync/v1\nkind: Recipe\nid: one\nsources:\n  - { id: list, type: static, videoIds: [${catalogueSongs(h, 1)[0]}] }\ntarget:\n  type: playlist\n  playlist: { title: "One", privacy: PRIVATE }\nmode: mirror\n`,
    );
    const file = await project(h, h.emulator.url);
    const env = { MUSICSYNC_AUTH: h.headers.cookie!, MUSICSYNC_LOG_LEVEL: "debug" };
    const json = await musicsync(["sync", "--json", "-p", file], env);
    const text = await musicsync(["sync", "-p", file], env);
    expect(json.code).toBe(1);
    expect(json.stdout).toContain("accounts.default.auth is neither a readable file nor credentials");
    expect(text.stderr).toContain("accounts.default.auth is neither a readable file nor credentials");
    const secrets = credentialSecrets(h.headers);
    for (const [label, out] of Object.entries({ ...json, text: text.stdout + text.stderr })) {
      if (typeof out === "string") expectNoPieces(label, out, secrets);
    }
  });
});

describe("the engine's log lines", () => {
  // docs/ENGINE.md#credentials
  it("stay JSON, with a credential scrubbed out of every field and the message", () => {
    const scrubber = new CredentialScrubber();
    const secret = "IVbjUZyG2Xp-hjA7/n646dbsU9ysD5hSb6";
    scrubber.addSecrets([secret]);
    const record = {
      level: 20,
      msg: `refused ${encodeURIComponent(secret)}`,
      err: { reason: secret.slice(3, 20) },
    };
    const line = scrubLogLine(`${JSON.stringify(record)}\n`, scrubber);
    const parsed = JSON.parse(line) as typeof record;
    expect(parsed.level).toBe(20);
    expect(parsed.msg).toBe("refused [redacted]");
    expect(findCredentialPieces(line, [secret])).toEqual([]);
    const plain = `${JSON.stringify({ level: 30, msg: "nothing secret here" })}\n`;
    expect(scrubLogLine(plain, scrubber)).toBe(plain);
  });
});

describe("the state URL's password", () => {
  it("is a secret of the scrubber, as written and decoded, once the state is named", () => {
    const scrubber = new CredentialScrubber();
    const url = "postgres://sync:Tr0ub4dor%26horse-battery@db.example.org:5432/music";
    learnStateUrl(url, scrubber);
    const line = `connect ${url} failed; password Tr0ub4dor&horse-battery; piece 4dor&horse-ba`;
    const out = scrubber.text(line);
    expect(out).not.toContain("Tr0ub4dor");
    expect(out).not.toContain("4dor&horse-ba");
    // The rest of the URL stays readable: the host is what a person needs to fix it.
    expect(out).toContain("db.example.org:5432/music");
  });

  it("is learnt by every command that resolves the state (stateFileOf)", () => {
    const url = "postgresql://u:another-long-state-secret@127.0.0.1:1/x";
    stateFileOf({ state: url, project: "musicsync.yaml" } as GlobalOptions, {} as Project);
    expect(engineScrubber.text(`the URL was ${url}`)).not.toContain("another-long-state-secret");
  });

  it("leaves a SQLite path and a URL without a password alone", () => {
    const scrubber = new CredentialScrubber();
    learnStateUrl("state/musicsync.db", scrubber);
    learnStateUrl("postgres://sync@127.0.0.1/music", scrubber);
    expect(scrubber.text("state/musicsync.db postgres://sync@127.0.0.1/music")).toBe(
      "state/musicsync.db postgres://sync@127.0.0.1/music",
    );
  });
});
