/**
 * The status page's safety: an open address needs a token (one line, exit 1 without), a token is
 * checked on every request (bearer or the login cookie, which is not the token), and no page shows
 * a piece of a credential even when the service echoes them back.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadProjectFile } from "../../engine/recipe/load.js";
import { credentialSecrets, describePieces, findCredentialPieces } from "../support/credential-leaks.js";
import { type EchoServer, startEchoServer } from "../support/echo-server.js";
import { musicsync } from "./daemon-harness.js";
import { catalogueSongs, type Harness, startHarness } from "./sync-harness.js";
import { startWebOn, type WebUnderTest } from "./web-harness.js";

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
  }, 60_000);

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
  }, 60_000);
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
      const { createEnv } = await import("../../engine/run/env.js");
      const { createLogger } = await import("../../engine/run/logger.js");
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
  }, 90_000);
});
