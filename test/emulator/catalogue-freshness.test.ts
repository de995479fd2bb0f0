/**
 * The demo shows every recipe doing something. Chart playlists hold different videos,
 * and episode dates follow the emulator's clock (stored as days back from its today), so a recipe
 * asking for the last days' episodes finds some on whatever day it runs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CHART_COUNTRIES, generateCatalogue } from "../../emulator/catalogue.js";
import { startEmulator } from "../../emulator/index.js";
import { openDb } from "../../emulator/store/db.js";
import { parseServiceDate } from "../../engine/pipeline/dates.js";
import { MusicClient } from "../../src/index.js";

const DAY = 86_400_000;

interface ChartList {
  country: string;
  title: string;
  videos: string[];
}

/** Every playlist some country's charts point at, with its rows in order. */
function chartPlaylists(size: number): ChartList[] {
  const db = openDb(":memory:");
  try {
    generateCatalogue(db, { seed: 1, size });
    const targets = db.$client
      .prepare(
        `SELECT DISTINCT c.country, p.playlist_id AS id, p.title FROM charts c
         JOIN playlists p ON p.playlist_id = c.target_id ORDER BY c.country, p.title`,
      )
      .all() as { country: string; id: string; title: string }[];
    const rows = db.$client.prepare(
      "SELECT video_id FROM playlist_items WHERE playlist_id = ? ORDER BY position",
    );
    return targets.map((t) => ({
      country: t.country,
      title: t.title,
      videos: (rows.all(t.id) as { video_id: string }[]).map((r) => r.video_id),
    }));
  } finally {
    db.$client.close();
  }
}

describe("chart playlists", () => {
  it("hold different videos in every chart of every country; the daily top music videos are 100", () => {
    // 400 is the demo's catalogue: 146 music videos, whose stride used to share a factor (73 different).
    const lists = chartPlaylists(400);
    expect(new Set(lists.map((l) => l.country))).toEqual(new Set(CHART_COUNTRIES));
    for (const l of lists) expect(new Set(l.videos).size, `${l.country} ${l.title}`).toBe(l.videos.length);
    const daily = lists.filter((l) => l.title.startsWith("Daily Top Music Videos"));
    expect(daily).toHaveLength(CHART_COUNTRIES.length);
    for (const l of daily) expect(l.videos, l.title).toHaveLength(100);
  });

  it("hold the whole pool once when the catalogue has fewer videos than places", () => {
    // 40 songs make 17 music videos: the Top 100 cannot be filled without repeats.
    for (const l of chartPlaylists(40)) {
      expect(new Set(l.videos).size, `${l.country} ${l.title}`).toBe(l.videos.length);
      if (l.title.startsWith("Daily Top Music Videos")) expect(l.videos.length).toBe(17);
    }
  });
});

describe("episode dates", () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  /** The newest episodes' dates as a signed-out client reads them, on an emulator whose clock says `now`. */
  async function newestDates(db: string, now: number): Promise<number[]> {
    const emu = await startEmulator({ db, catalogueSize: 60, seed: 3, now: () => now });
    try {
      const podcast = emu.state.store.charts.podcasts(1)[0]!.playlistId;
      const page = await new MusicClient({ baseUrl: emu.url, retry: false }).getPodcast(podcast);
      return page.episodes.slice(0, 3).map((e) => parseServiceDate(e.date, new Date(now))!);
    } finally {
      await emu.stop();
    }
  }

  it("are counted back from the emulator's clock, so one database shows new episodes on any day", async () => {
    dir = mkdtempSync(join(tmpdir(), "emulator-dates-"));
    const db = join(dir, "emulator.db");
    const first = Date.UTC(2031, 5, 15, 12);
    const later = first + 200 * DAY;
    const then = await newestDates(db, first);
    // The newest episode is at most six days old, whatever the date.
    expect(first - then[0]!).toBeLessThan(7 * DAY);
    expect(then[0]!).toBeLessThanOrEqual(first);
    // The same file, read 200 days later: every episode has moved on with the clock.
    const now = await newestDates(db, later);
    expect(now).toEqual(then.map((d) => d + 200 * DAY));
  });
});
