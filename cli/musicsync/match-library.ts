/**
 * `musicsync match spotify:albums` and `spotify:artists`: a Spotify library's saved albums or
 * followed artists matched as their source matches them (the same cache and matches.yaml, keyed
 * by Spotify's id), each listed with what it matched, its score and reasons, or why nothing.
 * Their corrections are written by hand (docs/services.md#spotify-albums-and-artists): the drafts
 * and the questions of `--write-overrides` and `--interactive` are songs'.
 */

import { ALBUMS } from "../../engine/match/album.js";
import { ARTISTS } from "../../engine/match/artist.js";
import { oneLine } from "../../engine/match/choices.js";
import { type MatchKind, type ResolveDeps, resolveWith } from "../../engine/match/resolve.js";
import type { SpotifySource } from "../../engine/recipe/types.js";
import type { EngineEnv } from "../../engine/run/run-types.js";
import { CliError, type CommandRun } from "./io.js";
import { entryJson, entryLines, matchSummary, type Shown } from "./match-render.js";

/** Whether a `match` argument named a Spotify library's albums or artists. */
export function isLibraryList(spec: { type: string; library?: string | null }): spec is SpotifySource {
  return spec.type === "spotify" && (spec.library === "albums" || spec.library === "artists");
}

function shownOf<E, C>(kind: MatchKind<E, C>): Shown<E, C> {
  return {
    label: kind.label,
    idOf: kind.idOf,
    text: (s) =>
      oneLine(`${s.score.toFixed(2)} ${kind.candidateLabel(s.candidate)}: ${s.reasons.join(", ")}`),
    name: (c) => oneLine(kind.candidateLabel(c)),
  };
}

async function listed<E, C>(
  run: CommandRun,
  kind: MatchKind<E, C>,
  entries: readonly E[],
  deps: ResolveDeps,
): Promise<void> {
  const { resolutions, searches } = await resolveWith(kind, entries, deps);
  const shown = shownOf(kind);
  if (run.g.json) {
    run.io.stdout.write(
      `${JSON.stringify(
        resolutions.map((r) => entryJson(r, kind.idOf)),
        null,
        2,
      )}\n`,
    );
    return;
  }
  const lines = resolutions.flatMap((r, i) => entryLines(r, i + 1, shown));
  const tied = resolutions.some((r) => r.tied.length > 1)
    ? `Choose a tie in matches.yaml: "<its spotify: id>": the ${kind.noun}'s id, or skip.\n`
    : "";
  run.io.stdout.write(
    `${lines.map((l) => `${l}\n`).join("")}${matchSummary(resolutions, searches, null)}${tied}`,
  );
}

/** Lists the library's albums or artists as matched; `deps` as a run's source would have them. */
export async function matchLibrary(
  run: CommandRun,
  env: EngineEnv,
  spec: SpotifySource,
  deps: ResolveDeps,
): Promise<void> {
  if (!env.services) throw new CliError("reading spotify needs the project's services settings");
  if (spec.library === "albums") return listed(run, ALBUMS, (await env.services.albums(spec)).entries, deps);
  return listed(run, ARTISTS, (await env.services.artists(spec)).entries, deps);
}
