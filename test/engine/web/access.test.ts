/**
 * The status page's safety: an open address needs a token (one line, exit 1 without), a token is
 * checked on every request (bearer or the login cookie, which is not the token), and no page shows
 * a piece of a credential even when the service echoes them back.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadProjectFile } from "../../../engine/recipe/load.js";
import { credentialSecrets, describePieces, findCredentialPieces } from "../../support/credential-leaks.js";
import { musicsync } from "../../support/daemon-harness.js";
import { type EchoServer, startEchoServer } from "../../support/echo-server.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";
import { startWebOn, type WebUnderTest } from "./harness.js";

let h: Harness | null = null;
let w: WebUnderTest | null = null;
let echo: EchoServer | null = null;
afterEach(async () => {
  await w?.web.close();
  await echo?.close();
  await h?.stop();
  h = w = echo = null;
});

const recipe = (id: string, source: string) =>
  `apiVersion: musicsync/v1\nkind: Recipe\nid: ${id}\nsources:\n  - ${source}\ntarget:\n  type: playlist\n  playlist: { title: "${id}", privacy: PRIVATE }\nmode: mirror\n`;

describe("access", () => {
  it("refuses an address beyond loopback without a token: one line, exit 1", async () => {
    h = await startHarness();
    const saved = process.env.MUSICSYNC_HTTP_TOKEN;
    delete process.env.MUSICSYNC_HTTP_TOKEN;
    try {
      for (const cmd of [["serve"], ["daemon"]]) {
        const r = await musicsync([...cmd, "--http", "0.0.0.0:0", "-p", h.projectFile]);
        expect(r.code).toBe(1);
        expect(r.stderr.trim().split("\n")).toHaveLength(1);
        expect(r.stderr).toContain("access token");
      }
    } finally {
      if (saved !== undefined) process.env.MUSICSYNC_HTTP_TOKEN = saved;
    }
  });

  it("with a token, every request needs it: 401 without or wrong; bearer or the login cookie pass", async () => {
    h = await startHarness();
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    const token = "page-token-0123456789abcdef";
    w = await startWebOn(h.dir, h.project, h.projectFile, h.env(), { token });
    expect((await w.get("/")).status).toBe(401);
    expect((await w.get("/", { headers: { authorization: "Bearer wrong-token" } })).status).toBe(401);
    expect((await w.get("/login?token=wrong")).status).toBe(401);
    expect((await w.get("/", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const login = await w.get(`/login?token=${token}`);
    expect(login.status).toBe(303);
    const setCookie = login.headers.get("set-cookie") ?? "";
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).not.toContain(token);
    const session = setCookie.split(";")[0]!;
    expect((await w.get("/", { headers: { cookie: session } })).status).toBe(200);
    expect((await w.get("/", { headers: { cookie: `${session}x` } })).status).toBe(401);
    // A page that names what it was asked for names the token as [redacted].
    for (const path of [`/accounts/${token}`, `/drift/${token}`, `/actions/resume/${token}`]) {
      const page = await w.get(path, { headers: { cookie: session } });
      expect(page.status, path).toBe(404);
      expect(page.text, path).toContain("[redacted]");
      expect(page.text, path).not.toContain(token.slice(0, 12));
    }
  });
});

describe("the access token", () => {
  it("shorter than 16 characters (or holding a space) is refused at start: one line that never quotes it", async () => {
    h = await startHarness();
    const short = "fifteen-chars!!";
    expect(short).toHaveLength(15);
    const spaced = "sixteen or more chars";
    for (const [flags, env, token] of [
      [["--http-token", short], {}, short],
      [[], { MUSICSYNC_HTTP_TOKEN: short }, short],
      [["--http-token", spaced], {}, spaced],
    ] as const) {
      for (const cmd of ["serve", "daemon"]) {
        const r = await musicsync([cmd, "--http", "127.0.0.1:0", ...flags, "-p", h.projectFile], env);
        expect(r.code, `${cmd} ${flags.join(" ")}`).toBe(1);
        expect(r.stderr.trim().split("\n")).toHaveLength(1);
        expect(r.stderr).toContain("access token");
        expect(r.stderr + r.stdout).not.toContain(token.slice(0, 8));
      }
    }
    const badName = await musicsync([
      "serve",
      "--http-hosts",
      "music.example.org,http://x.lan/",
      "-p",
      h.projectFile,
    ]);
    expect(badName.code).toBe(1);
    expect(badName.stderr.trim()).toBe(
      'error: --http-hosts (or MUSICSYNC_HTTP_HOSTS): "http://x.lan/" is not a host name (name or name:port)',
    );
    const { startWeb } = await import("../../../engine/web/server.js");
    await expect(startWeb({} as never, { address: "127.0.0.1:0", token: short })).rejects.toThrow(
      /shorter than 16 characters/,
    );
  });

  it("wrong tokens are limited per client address (429, Retry-After), and overall; a signed-in cookie still works", async () => {
    h = await startHarness();
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    const token = "page-token-0123456789abcdef";
    w = await startWebOn(h.dir, h.project, h.projectFile, h.env(), { token });
    const login = await w.get(`/login?token=${token}`);
    const session = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
    const from = (localAddress: string, path: string, headers: Record<string, string> = {}) =>
      w!.raw(path, { localAddress, headers });
    // Ten wrong tokens from one address, at /login or as a bearer, are answered 401.
    for (let i = 0; i < 10; i++) {
      const r =
        i % 2
          ? await from("127.0.0.1", `/login?token=guess-${i}`)
          : await from("127.0.0.1", "/", { authorization: `Bearer guess-${i}` });
      expect(r.status, `try ${i}`).toBe(401);
    }
    // The eleventh, even the right one, waits.
    for (const r of [
      await from("127.0.0.1", "/login?token=guess-x"),
      await from("127.0.0.1", `/login?token=${token}`),
    ]) {
      expect(r.status).toBe(429);
      const wait = Number(r.headers["retry-after"]);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      expect(r.text).not.toContain(token);
    }
    expect((await from("127.0.0.1", "/", { authorization: `Bearer ${token}` })).status).toBe(429);
    // The cookie of a person signed in before is no guess: it still opens the page.
    expect((await from("127.0.0.1", "/", { cookie: session })).status).toBe(200);
    // Another address has its own ten; thirty in all, then every address waits.
    expect((await from("127.0.0.2", `/login?token=${token}`)).status).toBe(303);
    for (const address of ["127.0.0.2", "127.0.0.3"])
      for (let i = 0; i < 10; i++) expect((await from(address, `/login?token=guess-${i}`)).status).toBe(401);
    expect((await from("127.0.0.4", `/login?token=${token}`)).status).toBe(429);
  });
});

describe("credentials", () => {
  it("no page shows a piece of a credential the service echoed back", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 4);
    echo = await startEchoServer({ upstream: h.emulator.url });
    const file = join(h.dir, "echo.yaml");
    await writeFile(
      file,
      `apiVersion: musicsync/v1\nkind: Project\naccounts:\n  default: { auth: "\${MUSICSYNC_AUTH}", base_url: "${echo.url}" }\npacing: { min_interval_ms: 0 }\nrecipes: [echo-recipes]\nstate: echo-state.db\n`,
    );
    await mkdir(join(h.dir, "echo-recipes"), { recursive: true });
    await writeFile(
      join(h.dir, "echo-recipes", "echo.yaml"),
      [
        recipe("echo-fixed", `{ id: list, type: static, videoIds: [${songs.join(", ")}] }`),
        recipe("echo-search", "{ id: found, type: search, query: Canyon, filter: songs }"),
      ].join("---\n"),
    );
    const auth = JSON.stringify(h.headers);
    process.env.MUSICSYNC_AUTH = auth;
    try {
      await musicsync(["sync", "-p", file]);
      const { project } = await loadProjectFile(file, { ...process.env, MUSICSYNC_AUTH: auth });
      const { createEnv } = await import("../../../engine/run/env.js");
      const { createLogger } = await import("../../../engine/run/logger.js");
      const env = createEnv({ project: project!, projectFile: file, logger: createLogger("silent") });
      w = await startWebOn(h.dir, project!, file, env, { recipes: join(h.dir, "echo-recipes") });
      const pages = [await w.get("/"), await w.get("/accounts/default")];
      for (const id of [1, 2, 3]) pages.push(await w.get(`/runs/${id}`));
      pages.push(
        await w.act("plan", "echo-search"),
        await w.act("run", "echo-fixed"),
        await w.get("/drift/echo-search"),
      );
      await env.close();
      const secrets = [...credentialSecrets(h.headers)];
      for (const r of echo.requests) secrets.push(...credentialSecrets(r.headers as Record<string, string>));
      expect(findCredentialPieces(echo.sent.join("\n"), secrets).length).toBeGreaterThan(0);
      expect(pages.some((p) => p.text.includes("[redacted]"))).toBe(true);
      for (const p of pages) {
        const found = findCredentialPieces(p.text + [...p.headers.entries()].join("\n"), secrets);
        expect(found, describePieces(found)).toEqual([]);
      }
    } finally {
      delete process.env.MUSICSYNC_AUTH;
    }
  });
});
