/**
 * Dates in every language the client supports (docs/ENGINE.md#pipeline): the service writes an episode's
 * date in the account's display language, and `since` / `sort: date` must read every one of them.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { episodeDate } from "../../../emulator/render/format.js";
import { parseServiceDate } from "../../../engine/pipeline/dates.js";
import { planRecipe } from "../../../engine/run/runner.js";
import { LANGUAGES } from "../../../shared/wire/constants.js";
import { DATE_UNITS, RELATIVE_DATES, relativeDateText } from "../../../shared/wire/relative-dates.js";
import { MusicClient } from "../../../src/client.js";
import { type Harness, recipe, startHarness } from "../../support/sync-harness.js";

const DAY = 86_400_000;
const now = new Date("2026-11-23T12:00:00Z");
const UNIT_MS = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: DAY,
  week: 7 * DAY,
  month: 30 * DAY,
  year: 365 * DAY,
};

describe("the date tables", () => {
  it("are made by the first date read that needs them, not at import (a command that reads none pays nothing)", async () => {
    const Original = Intl.DateTimeFormat;
    let made = 0;
    Intl.DateTimeFormat = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        made++;
      }
    } as typeof Intl.DateTimeFormat;
    try {
      vi.resetModules();
      const fresh = await import("../../../engine/pipeline/dates.js");
      expect(made).toBe(0);
      expect(fresh.parseServiceDate("3 days ago", now)).toBe(now.getTime() - 3 * DAY);
      expect(made).toBe(0);
      expect(fresh.parseServiceDate("30 août 2024", now)).toBe(Date.UTC(2024, 7, 30));
      const once = made;
      expect(once).toBeGreaterThan(0);
      expect(fresh.parseServiceDate("Aug 30, 2024", now)).toBe(Date.UTC(2024, 7, 30));
      expect(made).toBe(once);
    } finally {
      Intl.DateTimeFormat = Original;
    }
  });
});

describe("parseServiceDate in every language", () => {
  // docs/ENGINE.md#pipeline
  it("has a table for every language of the client", () => {
    for (const language of LANGUAGES) expect(RELATIVE_DATES[language], language).toBeDefined();
  });

  // docs/ENGINE.md#pipeline: written by hand from the service, not from the table, so a wrong table fails.
  it.each([
    ["en", "3 days ago", 3 * DAY],
    ["en", "2d ago", 2 * DAY],
    ["de", "vor 3 Tagen", 3 * DAY],
    ["de", "vor 1 Woche", 7 * DAY],
    ["fr", "il y a 3 jours", 3 * DAY],
    ["fr", "il y a 2 semaines", 14 * DAY],
    ["es", "hace 3 días", 3 * DAY],
    ["it", "3 giorni fa", 3 * DAY],
    ["pt", "há 3 dias", 3 * DAY],
    ["nl", "3 dagen geleden", 3 * DAY],
    ["ru", "3 дня назад", 3 * DAY],
    ["ru", "5 дней назад", 5 * DAY],
    ["ru", "1 неделю назад", 7 * DAY],
    ["cs", "před 3 dny", 3 * DAY],
    ["cs", "před 1 dnem", DAY],
    ["tr", "3 gün önce", 3 * DAY],
    ["ja", "3日前", 3 * DAY],
    ["ja", "3 日前", 3 * DAY],
    ["ja", "２週間前", 14 * DAY],
    ["ko", "3일 전", 3 * DAY],
    ["zh_CN", "3天前", 3 * DAY],
    ["zh_TW", "3 天前", 3 * DAY],
    ["hi", "3 दिन पहले", 3 * DAY],
    ["ur", "3 دن پہلے", 3 * DAY],
    ["ar", "قبل 3 أيام", 3 * DAY],
    ["ar", "قبل ٣ أيام", 3 * DAY],
    ["ar", "قبل يومين", 2 * DAY],
    ["ar", "قبل يوم واحد", DAY],
    ["ar", "قبل 11 يومًا", 11 * DAY],
  ])("%s: %s", (_language, text, ago) => {
    expect(parseServiceDate(text, now)).toBe(now.getTime() - ago);
  });

  // docs/ENGINE.md#pipeline
  it.each(LANGUAGES)("%s: every unit and plural form of the table reads back", (language) => {
    for (const unit of DATE_UNITS) {
      for (const n of [1, 2, 3, 4, 5, 11, 21, 22, 25, 100, 101]) {
        const text = relativeDateText(language, unit, n);
        expect(parseServiceDate(text, now), text).toBe(now.getTime() - n * UNIT_MS[unit]);
      }
    }
    const words = RELATIVE_DATES[language]!;
    expect(parseServiceDate(words.today, now)).toBe(now.getTime());
    expect(parseServiceDate(words.yesterday, now)).toBe(now.getTime() - DAY);
  });

  // docs/ENGINE.md#pipeline
  it.each(LANGUAGES)("%s: an older date as the language writes it reads back", (language) => {
    const at = Date.UTC(2024, 7, 30);
    const text = episodeDate(at, { language, now: now.getTime() });
    expect(parseServiceDate(text, now), text).toBe(at);
  });

  // docs/ENGINE.md#pipeline
  it("reads absolute dates in the forms of other languages, and nothing from a sentence", () => {
    const at = Date.UTC(2024, 7, 30);
    for (const text of [
      "30 août 2024",
      "30.08.2024",
      "2024年8月30日",
      "2024. 8. 30.",
      "30 de ago. de 2024",
      "30 авг. 2024 г.",
    ]) {
      expect(parseServiceDate(text, now), text).toBe(at);
    }
    expect(parseServiceDate("Aug 30, 2024", now)).toBe(at);
    expect(parseServiceDate("Streamed 2 days ago", now)).toBeNull();
    expect(parseServiceDate("sometime", now)).toBeNull();
  });
});

describe("since against the emulator in another language", () => {
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.stop();
    h = null;
  });

  // docs/ENGINE.md#pipeline
  it("an account with language: de reads the emulator's German dates; since keeps the recent episodes", async () => {
    // The real clock, on both sides: the emulator's episode days are counted back from its today
    //, so its newest episodes are recent on whatever day this runs.
    h = await startHarness({ language: "de" });
    const podcast = h.emulator.state.store.charts.podcasts(1)[0]!.playlistId;
    // The service (here the emulator) writes German dates for `hl=de`.
    const german = new MusicClient({ auth: h.headers, baseUrl: h.emulator.url, language: "de" });
    const episodes = (await german.getPodcast(podcast)).episodes;
    expect(episodes[0]!.date).toMatch(/^(vor \d+ (Tag|Tagen|Woche|Wochen)|Heute|Gestern)$/);

    const env = h.env();
    const loaded = recipe(
      h.project,
      `apiVersion: musicsync/v1
kind: Recipe
id: fresh
sources:
  - { id: p, type: podcast, playlistId: ${podcast} }
pipeline:
  - since: { days: 30 }
target:
  type: playlist
  playlist: { title: Fresh, privacy: PRIVATE }
mode: mirror
`,
    );
    const { plan } = await planRecipe(loaded, env);
    const skipped = plan.lines.filter((l) => l.op === "skip");
    expect(skipped.filter((l) => l.reason === "no date")).toEqual([]);
    expect(plan.summary.add).toBeGreaterThan(0);
    // Older episodes are dropped by `since`, not for want of a date.
    expect(plan.summary.add).toBeLessThan(episodes.length);
  });
});
