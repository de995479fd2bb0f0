/**
 * Every view of the status page rendered from fixed data: once with ordinary values, once with a
 * hostile text in every field a person or the service can set. The pages are kept as files
 * (pages/*.html, written by the code before the page moved onto the html`` template), so a
 * change to how a page is built shows as a byte difference; and no hostile value may come out as
 * markup.
 */
import { describe, expect, it } from "vitest";
import type { AccountData } from "../../../engine/web/account-data.js";
import { accountPage } from "../../../engine/web/account-page.js";
import type { IndexData, RunDetail } from "../../../engine/web/data.js";
import { html, join, raw, seg } from "../../../engine/web/html.js";
import { indexPage } from "../../../engine/web/index-page.js";
import { confirmPage, errorPage, resultPage } from "../../../engine/web/message-pages.js";
import { runPage } from "../../../engine/web/run-page.js";

/** Quotes of both kinds, an ampersand, a tag and an already-escaped entity (must not be unescaped). */
const EVIL = `<script>alert("x")</script>&'&amp;`;
const EVIL_ESCAPED = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;&amp;amp;";

function indexData(t: (s: string) => string): IndexData {
  const at = "2026-03-01T12:00:00.000Z";
  const run = {
    id: 7,
    kind: "sync",
    result: "partial",
    startedAt: "2026-03-01T11:00:00.000Z",
    finishedAt: "2026-03-01T11:00:05.000Z",
    durationMs: 5000,
    counts: { added: 3, removed: 1 },
    error: t("the service said no"),
  };
  return {
    report: {
      at,
      recipes: [
        {
          recipe: t("morning-mix"),
          account: t("default"),
          file: "/recipes/morning.yaml",
          schedule: { cron: t("0 7 * * *"), timezone: t("Europe/Paris"), jitterSeconds: 0 },
          nextRun: { at: "2026-03-02T07:00:00.000Z", reason: "retry", plannedBy: t("worker-1") },
          suspended: null,
          consecutiveFailures: 2,
          lastRun: run,
          lastSuccess: null,
          conditions: [
            { type: "Ready", status: "True", reason: t("Synced"), message: t("all good"), since: null },
            { type: "Degraded", status: "True", reason: t("Failing"), message: t("twice"), since: null },
            { type: "AuthValid", status: "Unknown", reason: t("NotChecked"), message: t("-"), since: null },
          ],
        },
        {
          recipe: t("evening"),
          account: t("other"),
          file: "/recipes/evening.yaml",
          schedule: null,
          nextRun: null,
          suspended: { scope: "account", since: "2026-02-28T10:00:00.000Z", reason: t("expired cookies") },
          consecutiveFailures: 0,
          lastRun: null,
          lastSuccess: null,
          conditions: [],
        },
        {
          recipe: t("paused"),
          account: t("default"),
          file: "/recipes/paused.yaml",
          schedule: { cron: "0 * * * *", timezone: null, jitterSeconds: 0 },
          nextRun: null,
          suspended: { scope: "recipe", since: "2026-02-28T10:00:00.000Z", reason: t("too many failures") },
          consecutiveFailures: 5,
          lastRun: { ...run, id: 8, result: "pending_approval", error: null, counts: null },
          lastSuccess: null,
          conditions: [],
        },
      ],
      approvals: [
        {
          recipe: t("morning-mix"),
          account: t("default"),
          runId: 9,
          reason: t("4 removals"),
          heldAt: "2026-03-01T10:00:00.000Z",
          command: "musicsync approve 9",
        },
      ],
      locks: [
        {
          account: t("default"),
          lockId: "l1",
          holder: t("holder-1"),
          host: t("box"),
          pid: 42,
          acquiredAt: at,
          heartbeatAt: "2026-03-01T11:59:50.000Z",
        },
        {
          account: t("other"),
          lockId: "l2",
          holder: t("holder-2"),
          host: null,
          pid: null,
          acquiredAt: at,
          heartbeatAt: at,
        },
      ],
    },
    titles: { [t("morning-mix")]: t("Morning “mix”") },
    daemon: false,
  };
}

function runDetail(t: (s: string) => string): RunDetail {
  return {
    id: 7,
    kind: t("sync"),
    result: "failed",
    startedAt: "2026-03-01T11:00:00.000Z",
    finishedAt: "2026-03-01T11:00:05.000Z",
    durationMs: 5000,
    counts: { added: 2 },
    error: t("HTTP 500"),
    recipe: t("morning-mix"),
    account: t("default"),
    actions: [
      {
        seq: 1,
        kind: "add_playlist_items",
        status: "confirmed",
        attempts: 1,
        summary: t("add 2 songs to Morning"),
        error: null,
        items: [
          { videoId: t("aaaaaaaaaaa"), title: t("Song A — Artist") },
          { videoId: "bbbbbbbbbbb", title: null },
        ],
      },
      {
        seq: 2,
        kind: "remove_playlist_items",
        status: "unknown",
        attempts: 3,
        summary: t("remove 1 song"),
        error: t("timed out"),
        items: [{ videoId: "ccccccccccc", title: t("Song C") }],
      },
      { seq: 3, kind: "x", status: t("odd"), attempts: 1, summary: t("other"), error: null, items: [] },
    ],
    undoable: false,
    undoRefusal: t("a later run changed the playlist"),
    awaitingApproval: true,
  };
}

function accountData(t: (s: string) => string, suspended: boolean): AccountData {
  return {
    name: t("default"),
    kind: t("OAuth token"),
    verdict: suspended ? "suspended" : "valid",
    reason: t("the last run read the library with them"),
    expiresAt: "2026-03-05T00:00:00.000Z",
    brandAccount: t("123456789012345678901"),
    suspended: suspended ? { since: "2026-02-28T10:00:00.000Z", reason: t("expired") } : null,
    recipes: [t("morning-mix"), t("evening")],
  };
}

/** Each view, with `t` applied to every text that comes from a recipe, the state or the service. */
function pages(t: (s: string) => string): Record<string, string> {
  return {
    index: indexPage(indexData(t)),
    "index-daemon-loading": indexPage({
      ...indexData(t),
      daemon: true,
      loading: true,
      report: { ...indexData(t).report, recipes: [] },
    }),
    "index-daemon": indexPage({ ...indexData(t), daemon: true }),
    run: runPage(runDetail(t)),
    "run-empty": runPage({ ...runDetail(t), actions: [], undoable: true, awaitingApproval: false }),
    account: accountPage(accountData(t, false)),
    "account-suspended": accountPage({
      ...accountData(t, true),
      kind: null,
      expiresAt: null,
      brandAccount: null,
    }),
    confirm: confirmPage({
      kind: "run",
      target: t("morning-mix"),
      what: t("Run it now?"),
      csrf: t("c5rf"),
      button: t("Run"),
    }),
    result: resultPage({ title: t("Ran"), lines: [t("line one"), t("line two")], pre: t("a\n  b") }),
    error: errorPage(404, t("no such run")),
  };
}

describe("status page views", () => {
  for (const [name, html] of Object.entries(pages((s) => s))) {
    it(`${name} renders as it always has`, async () => {
      await expect(html).toMatchFileSnapshot(`pages/${name}.html`);
    });
  }

  for (const [name, html] of Object.entries(pages((s) => `${s} ${EVIL}`))) {
    it(`${name} escapes a hostile text in every field`, async () => {
      await expect(html).toMatchFileSnapshot(`pages/${name}-hostile.html`);
      expect(html).not.toContain("<script");
      expect(html).not.toContain(`"x"`);
      expect(html).toContain(EVIL_ESCAPED);
      // Nothing escaped twice: the entity written in the value shows once as `&amp;amp;`.
      expect(html).not.toContain("&amp;amp;amp;");
      expect(html).not.toContain("&amp;lt;");
    });
  }
});

describe("the html`` template", () => {
  it("escapes every value, and nested markup exactly once", () => {
    const inner = html`<b>${EVIL}</b>`;
    expect(inner.text).toBe(`<b>${EVIL_ESCAPED}</b>`);
    expect(html`<p>${inner}</p>`.text).toBe(`<p><b>${EVIL_ESCAPED}</b></p>`);
    expect(html`<p>${html`<i>${inner}</i>`}</p>`.text).toBe(`<p><i><b>${EVIL_ESCAPED}</b></i></p>`);
    expect(html`${null}|${undefined}|${0}|${false}`.text).toBe("||0|false");
  });

  it("a nested plain template (html`` forgotten) shows its tags as text, never as markup", () => {
    const title = `${EVIL}`;
    const page = html`<p>${`<b>${title}</b>`}</p>`.text;
    expect(page).toBe(`<p>&lt;b&gt;${EVIL_ESCAPED}&lt;/b&gt;</p>`);
    expect(page).not.toContain("<b>");
  });

  it("refuses markup put into a plain template, rather than escaping it twice", () => {
    const inner = html`<b>${EVIL}</b>`;
    expect(() => html`<p>${`<i>${inner}</i>`}</p>`).toThrow("write html`` around it");
    expect(() => String(inner)).toThrow("write html`` around it");
  });

  it("takes lists item by item, and joins markup with an escaped separator", () => {
    expect(html`<ul>${["<a>", html`<li>b</li>`]}</ul>`.text).toBe("<ul>&lt;a&gt;<li>b</li></ul>");
    expect(join([html`<p>1</p>`, html`<p>2</p>`], "\n<&>").text).toBe("<p>1</p>\n&lt;&amp;&gt;<p>2</p>");
    expect(join([], "\n").text).toBe("");
  });

  it("keeps raw() and path segments as they are, and a segment can hold nothing that breaks out", () => {
    expect(html`${raw("<hr>")}`.text).toBe("<hr>");
    const href = html`<a href="/runs/${seg(`x"><script>&'`)}">`.text;
    expect(href).toBe('<a href="/runs/x%22%3E%3Cscript%3E%26\'">');
  });
});
