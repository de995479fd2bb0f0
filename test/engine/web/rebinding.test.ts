/**
 * The status page against DNS rebinding and cross-site posts: a web page whose domain
 * is re-pointed at 127.0.0.1 reaches the page with its own name in Host and posts with its own
 * origin. It reads nothing (421 on every path, /healthz too) and writes nothing (403), while the
 * page's own names and a name the person gave work (a wildcard bind's: test/engine/web/guards.test.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseHostList } from "../../../engine/web/host-check.js";
import { musicsync, writeRecipes } from "../../support/daemon-harness.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  playlistsTitled,
  startHarness,
} from "../../support/sync-harness.js";
import { type RawRequest, startWebOn, type WebUnderTest } from "./harness.js";

let h: Harness | null = null;
let w: WebUnderTest | null = null;
afterEach(async () => {
  await w?.web.close();
  await h?.stop();
  h = w = null;
});

const FORM = "application/x-www-form-urlencoded";

/** A synced mirror of four songs, its run's id, and the page on 127.0.0.1. */
async function synced(options: Parameters<typeof startWebOn>[4] = {}) {
  h = await startHarness();
  const songs = catalogueSongs(h, 4);
  await writeRecipes(h.dir, [{ id: "mix", ids: songs, title: "Mix" }]);
  expect((await musicsync(["sync", "-p", h.projectFile])).code).toBe(0);
  w = await startWebOn(h.dir, h.project, h.projectFile, h.env(), options);
  const [run] = await h.env().state.runs("mix", 1);
  const port = new URL(w.web.url).port;
  const rows = async () => {
    const [pid] = await playlistsTitled(h!, "Mix");
    return (await playlistRows(h!, pid!)).map((r) => r.videoId);
  };
  expect(await rows()).toEqual(songs);
  return { web: w, harness: h, songs, runId: run!.id, port, rows };
}

/** The confirmation page's CSRF token, read the honest way. */
async function csrfOf(web: WebUnderTest, path: string): Promise<string> {
  const page = await web.get(path);
  return /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
}

describe("a rebound name", () => {
  it("reads nothing, on any path: 421 naming the Host header, no form, no token", async () => {
    const { web, port, runId } = await synced();
    const evil = `rebind.attacker.test:${port}`;
    for (const path of [
      "/",
      "/healthz",
      "/readyz",
      "/metrics",
      `/runs/${runId}`,
      `/actions/undo/${runId}`,
      "/login",
    ]) {
      const r = await web.raw(path, { headers: { host: evil } });
      expect(r.status, path).toBe(421);
      expect(r.text, path).toContain("Host header");
      expect(r.text, path).not.toContain("csrf");
      expect(r.text, path).not.toContain("rebind.attacker.test");
    }
    // Nor a near miss: the right name on another port, no port (80), a user part, a trailing dot.
    for (const host of [
      `127.0.0.1:${Number(port) + 1}`,
      "127.0.0.1",
      `evil@127.0.0.1:${port}`,
      `localhost.:${port}`,
    ])
      expect((await web.raw("/", { headers: { host } })).status, host).toBe(421);
    // The page's own names for the loopback address pass, in any case.
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`])
      expect((await web.raw("/", { headers: { host } })).status, host).toBe(200);
  });

  it("cannot undo a run: a post from another site is refused and every row stays", async () => {
    const { web, port, runId, songs, rows } = await synced();
    const path = `/actions/undo/${runId}`;
    const csrf = await csrfOf(web, path);
    expect(csrf).not.toBe("");
    const post = (headers: Record<string, string>): RawRequest => ({
      method: "POST",
      headers: { "content-type": FORM, ...headers },
      body: `csrf=${encodeURIComponent(csrf)}`,
    });
    const evil = `http://rebind.attacker.test:${port}`;
    const refused = [
      // The rebound page posting to its own name.
      { status: 421, o: post({ host: `rebind.attacker.test:${port}`, origin: evil }) },
      // Another site posting to the page's own address.
      { status: 403, o: post({ host: `127.0.0.1:${port}`, origin: evil }) },
      { status: 403, o: post({ host: `127.0.0.1:${port}`, referer: `${evil}/page` }) },
      { status: 403, o: post({ host: `127.0.0.1:${port}`, origin: "null" }) },
      {
        status: 403,
        o: post({ host: `127.0.0.1:${port}`, origin: `https://127.0.0.1.attacker.test:${port}` }),
      },
      // Neither header and no bearer token: not a browser, not let in.
      { status: 403, o: post({ host: `127.0.0.1:${port}` }) },
    ];
    for (const { status, o } of refused) {
      const r = await web.raw(path, o);
      expect(r.status, JSON.stringify(o.headers)).toBe(status);
    }
    expect(await rows()).toEqual(songs);
    // The page's own form, as a browser posts it (Origin, or only a Referer), goes through.
    const own = await web.raw(
      path,
      post({ host: `localhost:${port}`, referer: `http://localhost:${port}${path}` }),
    );
    expect(own.status).toBe(200);
    expect(await rows()).toEqual([]);
  });
});

describe("the names the page answers to", () => {
  it("a name given with --http-hosts (a reverse proxy's, any port, https origin) passes; others do not", async () => {
    const { web, port } = await synced({ hosts: parseHostList("music.example.org, nas.lan:9000") });
    for (const host of ["music.example.org", "music.example.org:443", "nas.lan:9000", `127.0.0.1:${port}`])
      expect((await web.raw("/", { headers: { host } })).status, host).toBe(200);
    for (const host of ["music.example.org.attacker.test", "nas.lan:9001", "nas.lan"])
      expect((await web.raw("/", { headers: { host } })).status, host).toBe(421);
    const path = "/actions/plan/mix";
    const csrf = await csrfOf(web, path);
    const plan = (origin: string) =>
      web.raw(path, {
        method: "POST",
        headers: { host: "music.example.org", origin, "content-type": FORM },
        body: `csrf=${encodeURIComponent(csrf)}`,
      });
    expect((await plan("https://music.example.org")).status).toBe(200);
    expect((await plan("https://attacker.test")).status).toBe(403);
  });

  it("with a token, a program posts with the bearer and no Origin; the login cookie alone does not", async () => {
    const token = "program-token-0123456789";
    const { web, port } = await synced({ token });
    const bearer = { authorization: `Bearer ${token}` };
    const host = `127.0.0.1:${port}`;
    const path = "/actions/plan/mix";
    const page = await web.raw(path, { headers: { ...bearer, host } });
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
    const post = (headers: Record<string, string>) =>
      web.raw(path, {
        method: "POST",
        headers: { host, "content-type": FORM, ...headers },
        body: `csrf=${encodeURIComponent(csrf)}`,
      });
    expect((await post(bearer)).status).toBe(200);
    const login = await web.raw(`/login?token=${token}`, { headers: { host } });
    const session = String(login.headers["set-cookie"]).split(";")[0]!;
    // Every browser sends Origin with a POST: a cookie without one is not a browser's.
    expect((await post({ cookie: session })).status).toBe(403);
    expect((await post({ cookie: session, origin: `http://${host}` })).status).toBe(200);
    expect((await post({ ...bearer, origin: "http://attacker.test" })).status).toBe(403);
  });
});
