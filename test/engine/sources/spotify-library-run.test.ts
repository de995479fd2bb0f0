/**
 * A Spotify library's saved albums and followed artists end to end, on the emulator's stand-in,
 * signed in as `musicsync auth spotify` leaves a person: the albums saved to the library and the
 * artists subscribed to are those the stand-in says its entries are (its ground truth, never the
 * matcher's), the ones the catalogue lacks are notes; a re-plan sends no search; one album saved
 * (one artist followed) on Spotify later costs one search and one write; undo takes it back.
 * `musicsync match spotify:<albums|artists> --write-overrides` drafts them into matches.yaml as it
 * drafts songs, and what a person makes of the draft is taken with no search.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../cli/musicsync/main.js";
import {
  type SpotifyLibraryTruth,
  spotifyAlbumTruth,
  spotifyArtistTruth,
} from "../../../emulator/services/spotify/index.js";
import { parseOverrides } from "../../../engine/files/overrides.js";
import type { EngineEnv } from "../../../engine/run/run-types.js";
import { planRecipe } from "../../../engine/run/runner.js";
import { applyUndo, prepareUndo } from "../../../engine/undo/index.js";
import { screen } from "../../support/cli-process.js";
import { harnessJson } from "../../support/harness-fetch.js";
import { servicesProject } from "../../support/services-project.js";
import { converge, type Harness, startHarness } from "../../support/sync-harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

const recipe = (id: string, library: string, target: string) => `apiVersion: musicsync/v1
kind: Recipe
id: ${id}
sources:
  - { id: mine, type: spotify, library: ${library} }
target: ${target}
mode: append
`;

const searches = (hh: Harness) => hh.emulator.counts().search ?? 0;
const answers = (truth: readonly SpotifyLibraryTruth[]) => truth.flatMap((t) => (t.answer ? [t.answer] : []));

interface Case {
  id: string;
  library: "albums" | "artists";
  target: string;
  truth: (hh: Harness) => SpotifyLibraryTruth[];
  /** The ids the target holds: albums' browseIds, subscriptions' channels. */
  held: (hh: Harness) => Promise<Set<string | null>>;
  /** The controls that save (follow) one more on Spotify, and that unsave (unfollow) one. */
  more: string;
  less: (id: string) => string;
}

const CASES: Case[] = [
  {
    id: "saved-albums",
    library: "albums",
    target: "{ type: library, kind: albums }",
    truth: (hh) => spotifyAlbumTruth(hh.emulator.state),
    held: async (hh) => new Set((await hh.person.getLibraryAlbums({ limit: null })).map((a) => a.browseId)),
    more: "albums/save?count=1",
    less: (id) => `albums/${id}/unsave`,
  },
  {
    id: "followed-artists",
    library: "artists",
    target: "{ type: subscriptions }",
    truth: (hh) => spotifyArtistTruth(hh.emulator.state),
    held: async (hh) =>
      new Set((await hh.person.getLibrarySubscriptions({ limit: null })).map((a) => a.browseId)),
    more: "artists/follow?count=1",
    less: (id) => `artists/${id}/unfollow`,
  },
];

async function runMatch(projectFile: string, env: Record<string, string>, args: string[]) {
  const out = screen(false);
  const err = screen(false);
  const json = args[0] === "--json" ? ["--json"] : [];
  const rest = json.length > 0 ? args.slice(1) : args;
  const code = await main(["-p", projectFile, ...json, "match", ...rest], {
    stdout: out.stream,
    stderr: err.stream,
    env,
  });
  return { code, stdout: out.text(), stderr: err.text() };
}

async function lastRunUndone(e: EngineEnv, recipeId: string) {
  const runId = (await e.state.recentRuns({ recipeId, limit: 1 }))[0]!.id;
  return applyUndo(await prepareUndo(runId, e), e);
}

describe("a Spotify library's albums and artists in runs", () => {
  for (const c of CASES) {
    it(`${c.library}: validated, planned and synced as the stand-in's truth says; a re-plan searches nothing; one more costs one search; undo`, async () => {
      h = await startHarness();
      const { loaded, env, warnings, projectFile, environment } = await servicesProject(
        h,
        recipe(c.id, c.library, c.target),
        {
          signedIn: true,
        },
      );
      expect(warnings).toEqual([]);
      const control = (path: string) =>
        harnessJson<Record<string, SpotifyLibraryTruth[]>>(
          `${h!.emulator.url}/_emulator/services/spotify/${path}`,
          {
            method: "POST",
          },
        );
      const e = env();
      try {
        const before = await c.held(h);
        // One the catalogue has and the library lacks, taken off Spotify for now: saved again later.
        const later = c.truth(h).find((t) => t.answer !== null && !before.has(t.answer))!;
        await control(c.less(later.serviceId.split(":")[2]!));
        const { run } = await converge(h, e, loaded);
        const truth = c.truth(h);
        const wanted = answers(truth);
        expect(wanted.length).toBeGreaterThan(5);
        const after = await c.held(h);
        for (const id of wanted) expect(after.has(id)).toBe(true);
        // Nothing else was added: every new one is one the truth names.
        expect([...after].filter((id) => !before.has(id) && !wanted.includes(id!))).toEqual([]);
        // What the catalogue lacks is told, one note each, never guessed.
        const lacking = truth.filter((t) => t.answer === null);
        expect(lacking.length).toBeGreaterThan(0);
        const unmatched = run.plan?.notes?.filter((n) => n.kind === "unmatched") ?? [];
        expect(unmatched).toHaveLength(lacking.length);
        for (const t of lacking) expect(unmatched.some((n) => n.text.includes(`${t.name}"`))).toBe(true);

        const sent = searches(h);
        expect((await planRecipe(loaded, e)).plan.actions).toEqual([]);
        expect(searches(h)).toBe(sent);

        // `musicsync match spotify:<albums|artists>` shows each one's match from the cache.
        const listed = await runMatch(projectFile, environment, [`spotify:${c.library}`]);
        expect(listed.code, listed.stderr).toBe(0);
        for (const id of wanted) expect(listed.stdout).toContain(`-> ${id} `);
        expect(listed.stdout).toMatch(
          new RegExp(`Matched ${wanted.length} of ${truth.length} \\(${wanted.length} from the cache`),
        );
        const json = await runMatch(projectFile, environment, ["--json", `spotify:${c.library}`]);
        expect((JSON.parse(json.stdout) as { videoId: string | null }[]).map((r) => r.videoId)).toEqual(
          truth.map((t) => t.answer),
        );
        const matched = searches(h);

        const [added] = Object.values(await control(c.more))[0]!;
        expect(added).toEqual(later);
        const again = await converge(h, e, loaded);
        expect(searches(h) - matched).toBe(1);
        expect(again.writes).toBe(1);
        expect((await c.held(h)).has(later.answer)).toBe(true);

        const undone = await lastRunUndone(e, c.id);
        expect(undone.outcome, undone.error ?? "").toBe("converged");
        expect(await c.held(h)).toEqual(after);
      } finally {
        await e.close();
      }
    });
  }
});

/**
 * A second catalogue artist of `channelId`'s name (a namesake, with a channel of its own), ahead
 * of it in search: nothing a search gives tells the two apart.
 */
function addNamesake(hh: Harness, channelId: string, namesake: string): void {
  const db = hh.emulator.state.store.sqlite;
  const id = (db.prepare("SELECT max(id) + 1 AS id FROM artists").get() as { id: number }).id;
  const columns = (db.prepare("PRAGMA table_info(artists)").all() as { name: string }[])
    .map((c) => c.name)
    .filter((c) => !["id", "channel_id", "subscribers"].includes(c));
  db.prepare(
    `INSERT INTO artists (id, channel_id, subscribers, ${columns.join(", ")})
     SELECT ?, ?, subscribers + 1, ${columns.join(", ")} FROM artists WHERE channel_id = ?`,
  ).run(id, namesake, channelId);
}

/** A drafted line a person has not taken: `# "<key>": <id>  # why`. */
const COMMENTED = /^# ("spotify:[a-z]+:[^"]+"): (\S+) {2}# /;

/**
 * What a person makes of a draft: of a tie, the line of the one the stand-in's truth says
 * uncommented; for one the catalogue lacks, `skip`; the rest left as drafted.
 */
function reviewed(draft: string, truth: readonly SpotifyLibraryTruth[]): string {
  const answer = new Map(truth.map((t) => [t.serviceId, t.answer]));
  const decided = new Set<string>();
  return draft
    .split("\n")
    .map((line) => {
      const m = COMMENTED.exec(line);
      const key = m ? (JSON.parse(m[1]!) as string) : null;
      if (!m || key === null || decided.has(key)) return line;
      const wanted = answer.get(key);
      if (wanted === undefined) throw new Error(`drafted ${key}, which the library does not hold`);
      if (wanted !== null && m[2] !== wanted) return line;
      decided.add(key);
      return wanted === null ? `${m[1]}: skip` : line.slice(2);
    })
    .join("\n");
}

describe("a Spotify library's albums and artists drafted into matches.yaml", () => {
  for (const c of CASES) {
    it(`${c.library}: matched ones pinned, a miss (and for artists a tie) commented with its candidates; the person's choices are taken with no search`, async () => {
      h = await startHarness();
      const { projectFile, environment } = await servicesProject(h, recipe(c.id, c.library, c.target), {
        signedIn: true,
      });
      // Every one is searched here, not a few as in a run: unpaced, as the harness's runs are.
      const text = await readFile(projectFile, "utf8");
      await writeFile(
        projectFile,
        text.replace(
          "pacing: { min_interval_ms: 0 }",
          "pacing: { min_interval_ms: 0, max_writes_per_minute: 100000 }",
        ),
      );
      const truth = c.truth(h);
      // Artists: a namesake of one the catalogue has, so that its search ties.
      const tied = c.library === "artists" ? truth.find((t) => t.answer !== null)! : null;
      const namesake = "UCnamesakeOfAnArtist0001";
      if (tied) addNamesake(h, tied.answer!, namesake);

      const drafted = await runMatch(projectFile, environment, [`spotify:${c.library}`, "--write-overrides"]);
      expect(drafted.code, drafted.stderr).toBe(0);
      expect(drafted.stderr).toMatch(/matches\.yaml: drafted; review it/);
      const file = join(h.dir, "recipes", "matches.yaml");
      const draft = await readFile(file, "utf8");
      // The drafted lines parse back: every one matched is pinned to what the truth says, no other.
      const pinned = new Map(
        truth.flatMap((t) => (t.answer !== null && t !== tied ? [[t.serviceId, t.answer] as const] : [])),
      );
      expect(parseOverrides(file, draft)).toEqual(pinned);
      const lacking = truth.filter((t) => t.answer === null);
      expect(lacking.length).toBeGreaterThan(0);
      const commented = draft.split("\n").filter((l) => COMMENTED.test(l));
      for (const t of lacking)
        expect(commented.some((l) => l.startsWith(`# ${JSON.stringify(t.serviceId)}: `))).toBe(true);
      if (tied) {
        const key = JSON.stringify(tied.serviceId);
        expect(draft).toContain(`# tie for ${tied.name}: two candidates equally good`);
        expect(commented.filter((l) => l.startsWith(`# ${key}: `)).map((l) => COMMENTED.exec(l)![2])).toEqual(
          expect.arrayContaining([tied.answer, namesake]),
        );
      }
      // Drafted once: a second draft adds nothing.
      const again = await runMatch(projectFile, environment, [`spotify:${c.library}`, "--write-overrides"]);
      expect(again.stderr).toMatch(/nothing to draft/);
      expect(await readFile(file, "utf8")).toBe(draft);

      await writeFile(file, reviewed(draft, truth));
      const sent = searches(h);
      const taken = await runMatch(projectFile, environment, ["--json", `spotify:${c.library}`]);
      expect(taken.code, taken.stderr).toBe(0);
      const rows = JSON.parse(taken.stdout) as { videoId: string | null; by: string }[];
      expect(rows.map((r) => r.videoId)).toEqual(truth.map((t) => t.answer));
      expect(rows.every((r) => r.by === "override")).toBe(true);
      expect(searches(h)).toBe(sent);
    });
  }
});
