/**
 * docs/PROTOCOL.md#explore — the chart recipes against a premium account. The shipped chart recipes run
 * against the emulator's premium login as shipped and as the songs chart a premium person would
 * ask for (`section: songs`), which only a premium account's charts page carries: each mirrors its
 * chart into a playlist holding the chart's songs in rank order, and converges. Without premium the
 * songs chart is not there, and the recipe fails without touching the playlist.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { shippedRecipesFolder } from "../../../engine/demo/demo.js";
import { syncRecipe } from "../../../engine/run/runner.js";
import { chartPlaylist } from "../../../engine/sources/read.js";
import {
  converge,
  type Harness,
  playlistRows,
  playlistsTitled,
  recipe,
  startHarness,
} from "../../support/sync-harness.js";

const PREMIUM = 5;
let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

/** The shipped recipes with a chart source, as files. */
function shippedChartRecipes(): { file: string; text: string }[] {
  const folder = shippedRecipesFolder();
  return readdirSync(folder)
    .filter((f) => f.endsWith(".yaml"))
    .map((file) => ({ file, text: readFileSync(join(folder, file), "utf8") }))
    .filter((r) => /type:\s*chart\b/.test(r.text));
}

/** The same recipe asking for the songs chart, with an id and a playlist title of its own. */
function songsVariant(text: string): string {
  return text
    .replace(/(type:\s*chart\b[^}\n]*section:\s*)\w+/, "$1songs")
    .replace(/^id:\s*(\S+)/m, "id: $1-songs")
    .replace(/title:\s*"([^"]+)"/, 'title: "$1 (songs)"');
}

const field = (text: string, re: RegExp) => re.exec(text)?.[1] ?? "";

/** What the chart holds, read as the person sees it: available songs, each once, in chart order. */
async function chartRows(harness: Harness, country: string, section: "songs" | "videos", limit: number) {
  const charts = await harness.person.getCharts({ country });
  const id = chartPlaylist(charts, section);
  if (id === null) throw new Error(`no ${section} chart for ${country}`);
  const tracks = (await harness.person.getPlaylist(id, { limit: null })).tracks;
  const seen = new Set<string>();
  const ids = tracks.filter((t) => t.isAvailable && t.videoId && !seen.has(t.videoId) && seen.add(t.videoId));
  return { charts, ids: ids.map((t) => t.videoId!).slice(0, limit) };
}

describe("the shipped chart recipes against the premium account", () => {
  it("mirror the songs chart, and the chart as shipped, into playlists in rank order", async () => {
    h = await startHarness({ catalogueSize: 300, seed: 3, account: PREMIUM });
    const env = h.env();
    const shipped = shippedChartRecipes();
    expect(shipped.map((r) => r.file)).toContain("chart-mirror.yaml");
    const ran: string[] = [];
    for (const { file, text } of shipped) {
      for (const variant of [songsVariant(text), text]) {
        const loaded = recipe(h.project, variant);
        const source = loaded.recipe.sources.find((s) => s.type === "chart");
        if (source?.type !== "chart" || source.section === "artists" || source.section === "trending")
          continue;
        const limit = Number(field(variant, /-\s*limit:\s*(\d+)/) || 1000);
        const { charts, ids } = await chartRows(h, source.country, source.section, limit);
        if (source.section === "songs") {
          // The ranked rows the charts page shows are the chart playlist's first rows.
          expect(charts.songs?.items.map((s) => s.rank)).toEqual(
            charts.songs?.items.map((_, i) => String(i + 1)),
          );
          expect(ids.slice(0, charts.songs!.items.length)).toEqual(charts.songs!.items.map((s) => s.videoId));
        }
        ran.push(source.section);
        const { run } = await converge(h, env, loaded);
        expect(run.outcome, `${file} ${source.section}`).toBe("converged");
        const title = field(variant, /title:\s*"([^"]+)"/);
        const [target] = await playlistsTitled(h, title);
        expect(target, title).toBeTruthy();
        expect(
          (await playlistRows(h, target!)).map((r) => r.videoId),
          `${file} ${source.section}`,
        ).toEqual(ids);
      }
    }
    expect(ran).toContain("songs");
  });

  it("cannot read the songs chart once the account is no longer premium, and leaves the playlist as it was", async () => {
    h = await startHarness({ catalogueSize: 300, seed: 3, account: PREMIUM });
    const env = h.env();
    const [chart] = shippedChartRecipes();
    const loaded = recipe(h.project, songsVariant(chart!.text));
    await converge(h, env, loaded);
    const title = field(songsVariant(chart!.text), /title:\s*"([^"]+)"/);
    const [target] = await playlistsTitled(h, title);
    const before = await playlistRows(h, target!);
    const off = await fetch(`${h.emulator.url}/_emulator/accounts/${PREMIUM}/premium`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ premium: false }),
    });
    expect(off.status).toBe(200);
    const writes = await h.writes();
    // The source is refused before anything is planned (SourceError), so nothing is written.
    await expect(syncRecipe(loaded, env)).rejects.toThrow(/the US charts have no songs chart/);
    expect(await h.writes()).toBe(writes);
    expect(await playlistRows(h, target!)).toEqual(before);
  });
});
