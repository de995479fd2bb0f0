/**
 * The status page in a real browser (tested for real): the compiled `musicsync daemon
 * --http` over the demo's recipes on the emulator, driven through Debian's Chromium the way a
 * person would — follow a link, read the confirmation, press its button — and then the emulator is
 * asked what changed. Saves the page and a phone-sized view in a temporary folder
 * (`UPDATE_SCREENSHOT=1` writes the desktop one to docs/status-page.png, the picture in docs/daemon.md).
 */
import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, ROOT } from "../support/cli-process.js";
import { type ChildDaemon, spawnDaemon, waitUntil } from "../support/daemon-harness.js";
import { playlistRows, playlistsTitled } from "../support/sync-harness.js";
import { type Browser, browserSkipReason, REBOUND_NAME, startChromium } from "./chromium.js";
import { type DemoProject, FRESH, HELD, SUSPENDED, startDemoProject } from "./demo-project.js";

const skip = browserSkipReason();
if (skip) console.warn(`Skipping the status page's browser tests: ${skip}`);

const FRESH_TITLE = "US Daily Top 100";

let demo: DemoProject;
let daemon: ChildDaemon;
let browser: Browser;
let url = "";
let page: Page;

beforeAll(async () => {
  if (skip) return;
  // The browser first: in CI, a missing Chromium fails here, before anything else is started.
  browser = await startChromium();
  page = await browser.context.newPage();
  await ensureBuilt();
  demo = await startDemoProject();
  daemon = spawnDaemon(demo.h.projectFile, ["--http", "127.0.0.1:0"]);
  const line = await daemon.waitForLog((l) => l.msg === "status page listening", "the page's start");
  url = String(line.url);
  // The page listens before the daemon has loaded its recipes: until then the index lists none.
  await waitUntil(async () => (await fetch(`${url}/readyz`)).status === 200 || undefined, "readyz never 200");
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (daemon && daemon.child.exitCode === null) {
    daemon.child.kill("SIGTERM");
    await daemon.exited;
  }
  await demo?.h.stop();
});

/** A recipe's section of the index (a region named by its heading). */
const section = (id: string) => page.getByRole("region", { name: new RegExp(`^${id}\\b`) });

/** Follows an action's link to its confirmation page and presses the button there. */
async function confirmAndSubmit(link: Locator, button: string): Promise<number> {
  await link.click();
  expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Confirm");
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    page.getByRole("button", { name: button }).click(),
  ]);
  await page.waitForLoadState();
  // The page's own form carries its origin (its Referrer-Policy must not make that "null").
  expect((await answer.request().allHeaders()).origin).toBe(url);
  return answer.status();
}

/** The text as rendered (blocks on their own lines), waiting (bounded) for the element. */
const textOf = async (l: Locator) => (await l.innerText()).trim();

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

async function freshRows(): Promise<string[]> {
  const [pid] = await playlistsTitled(demo.h, FRESH_TITLE);
  return pid ? (await playlistRows(demo.h, pid)).map((r) => r.videoId) : [];
}

describe.skipIf(skip !== null)("the status page in Chromium, over the demo's recipes", () => {
  it("lists every recipe with its state", async () => {
    await page.goto(`${url}/`);
    expect(await textOf(page.getByRole("heading", { level: 1 }))).toBe("Recipes");
    for (const r of demo.recipes) {
      const s = section(r.recipe.id);
      expect(await s.count(), r.recipe.id).toBe(1);
      expect(await s.getByRole("table", { name: "Conditions" }).isVisible()).toBe(true);
    }
    expect(await textOf(section(FRESH))).toMatch(/Last run\s+never/);
    expect(await textOf(section("artist-mix"))).toMatch(/Last run\s+run #\d+ \w+: converged/);
    expect(await textOf(section(SUSPENDED))).toMatch(/Next run\s+suspended/);
    expect(await textOf(section(HELD))).toContain("pending approval");
    expect(await textOf(page.getByRole("region", { name: "Waiting for approval" }))).toContain(HELD);
    // docs/daemon.md's picture: a held plan, a suspension and a recipe never run, before the actions.
    // Written over docs/status-page.png only when asked (UPDATE_SCREENSHOT=1): the page shows the
    // time, so every run would change the committed file.
    const folder =
      process.env.UPDATE_SCREENSHOT === "1"
        ? join(ROOT, "docs")
        : await mkdtemp(join(tmpdir(), "musicsync-page-"));
    await mkdir(folder, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 1100 });
    await page.screenshot({ path: join(folder, "status-page.png") });
  });

  it("plan (dry run) shows the plan and writes nothing", async () => {
    const writes = await demo.h.writes();
    await page.goto(`${url}/`);
    expect(await confirmAndSubmit(section(FRESH).getByRole("link", { name: "Plan (dry run)" }), "Plan")).toBe(
      200,
    );
    expect(await textOf(page.getByRole("status"))).toContain("Nothing was written.");
    const plan = await textOf(page.locator("pre"));
    expect(plan).toContain(`create playlist "${FRESH_TITLE}"`);
    expect(plan).toMatch(/Plan: \d+ to add/);
    expect(await demo.h.writes()).toBe(writes);
    expect(await playlistsTitled(demo.h, FRESH_TITLE)).toEqual([]);
  });

  it("run now fills the playlist; its run's page names the songs; undo takes it back", async () => {
    await page.goto(`${url}/`);
    const link = section(FRESH).getByRole("link", { name: "Run now" });
    expect(await confirmAndSubmit(link, "Run now")).toBe(202);
    expect(await textOf(page.getByRole("status"))).toContain("queued");
    const rows = await waitUntil(async () => {
      const r = await freshRows();
      return r.length > 0 ? r : null;
    }, `the daemon's run of ${FRESH} to fill "${FRESH_TITLE}"`);
    expect(new Set(rows).size).toBe(rows.length);

    // The index shows the run once the daemon has recorded it.
    const runLink = section(FRESH).getByRole("link", { name: /^run #\d+$/ });
    await waitUntil(async () => {
      await page.goto(`${url}/`);
      return (await section(FRESH).textContent())?.includes("converged");
    }, `the index to show ${FRESH}'s run`);
    await runLink.click();
    expect(await textOf(page.getByRole("heading", { level: 1 }))).toMatch(/^Run #\d+$/);
    expect(await textOf(page.getByRole("region", { name: "Outcome" }))).toContain("converged");
    const [pid] = await playlistsTitled(demo.h, FRESH_TITLE);
    const first = (await demo.h.person.getPlaylist(pid!, { limit: 1 })).tracks[0]!;
    await page
      .getByText(/\d+ songs/)
      .first()
      .click();
    // Each song by its title (and artists), its id beside it.
    const writes = (await textOf(page.getByRole("region", { name: "Writes" }))).split("\n");
    expect(writes.find((l) => l.endsWith(`(${first.videoId})`))).toMatch(
      new RegExp(`^${escapeRe(first.title ?? "")} — `),
    );

    expect(await confirmAndSubmit(page.getByRole("link", { name: "Undo this run" }), "Undo")).toBe(200);
    expect(await textOf(page.getByRole("status"))).toContain("converged");
    // Undo keeps a playlist the run created (only `undo --delete-created` deletes it): its songs go.
    expect(await freshRows()).toEqual([]);
  });

  it("approve applies the held plan to the emulator", async () => {
    const before = (await playlistRows(demo.h, demo.heldPlaylist)).map((r) => r.videoId);
    await page.goto(`${url}/`);
    const approvals = page.getByRole("region", { name: "Waiting for approval" });
    expect(
      await confirmAndSubmit(approvals.getByRole("link", { name: "Approve" }), "Approve and apply"),
    ).toBe(200);
    const status = await textOf(page.getByRole("status"));
    expect(status).toContain(`${HELD}: converged`);
    const removed = Number(/(\d+) to remove/.exec(status)?.[1]);
    expect(removed).toBeGreaterThan(0);
    const after = (await playlistRows(demo.h, demo.heldPlaylist)).map((r) => r.videoId);
    expect(after.length).toBe(before.length - removed);
    await page.goto(`${url}/`);
    expect(await page.getByRole("region", { name: "Waiting for approval" }).count()).toBe(0);
  });

  it("resume lifts the suspension", async () => {
    await page.goto(`${url}/`);
    expect(await textOf(section(SUSPENDED))).toContain("suspended");
    expect(await confirmAndSubmit(section(SUSPENDED).getByRole("link", { name: "Resume" }), "Resume")).toBe(
      200,
    );
    expect(await textOf(page.getByRole("status"))).toContain(`Recipe ${SUSPENDED} resumed.`);
    await page.goto(`${url}/`);
    expect(await textOf(section(SUSPENDED))).not.toContain("suspended");
  });

  it("refuses a rebound name and another site's form, as Chromium sends them", async () => {
    const port = new URL(url).port;
    const rebound = await page.goto(`http://${REBOUND_NAME}:${port}/actions/plan/${FRESH}`);
    expect(rebound?.status()).toBe(421);
    expect(await textOf(page.getByRole("alert"))).toContain("Host header");
    expect(await page.locator("form").count()).toBe(0);
    // Another site's page with a form to the page, even holding a CSRF token read the honest way.
    const action = `${url}/actions/plan/${FRESH}`;
    const csrf = /name="csrf" value="([^"]+)"/.exec(await (await fetch(action)).text())?.[1] ?? "";
    expect(csrf).not.toBe("");
    await page.route("http://attacker.test/", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<form method="post" action="${action}"><input type="hidden" name="csrf" value="${csrf}"><button>Go</button></form>`,
      }),
    );
    await page.goto("http://attacker.test/");
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Go" }).click(),
    ]);
    expect((await answer.request().allHeaders()).origin).toBe("http://attacker.test");
    expect(answer.status()).toBe(403);
    await page.unroute("http://attacker.test/");
  });

  it("has landmarks and labelled controls, and fits a phone", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${url}/`);
    for (const landmark of ["main", "banner", "navigation", "contentinfo"] as const)
      expect(await page.getByRole(landmark).count(), landmark).toBe(1);
    await expectLabelledControls(`/actions/run/${FRESH}`);

    const phoneDir = await mkdtemp(join(tmpdir(), "musicsync-phone-"));
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ["/", "/actions/undo/1", "/runs/1", "/accounts/default", "/drift/artist-mix"]) {
      await page.goto(`${url}${path}`);
      // A string, since the tests compile without the DOM's types.
      const fits = await page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth");
      expect(fits, `${path} overflows a 390-pixel screen`).toBe(true);
    }
    await page.goto(`${url}/`);
    await page.screenshot({ path: join(phoneDir, "status-page-phone.png") });
    console.info(`phone view saved in ${phoneDir}`);
  });
});

/** Every form control in the accessibility tree has a name (its label, or a button's text). */
async function expectLabelledControls(path: string): Promise<void> {
  await page.goto(`${url}${path}`);
  for (const role of ["button", "textbox", "combobox", "checkbox", "radio", "spinbutton"] as const) {
    const all = await page.getByRole(role).count();
    const named = await page.getByRole(role, { name: /\S/ }).count();
    expect(named, `${role}s without an accessible name on ${path}`).toBe(all);
  }
  expect(await page.getByRole("button").count()).toBeGreaterThan(0);
}
