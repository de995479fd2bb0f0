/**
 * `musicsync match spotify:albums` and `spotify:artists`: a Spotify library's saved albums or
 * followed artists matched as their source matches them (the same cache and matches.yaml, keyed
 * by Spotify's id). They are listed, drafted into matches.yaml and asked about by the same code as
 * songs (match-render.ts, engine/files/overrides.ts, match-interactive.ts), as their kind reads.
 */

import { ALBUMS } from "../../engine/match/album.js";
import { ARTISTS } from "../../engine/match/artist.js";
import { shownOf } from "../../engine/match/choices.js";
import { type MatchKind, type ResolveDeps, resolveWith } from "../../engine/match/resolve.js";
import type { SpotifySource } from "../../engine/recipe/types.js";
import type { EngineEnv } from "../../engine/run/run-types.js";
import { CliError } from "./io.js";
import { type SomeMatched, someMatched } from "./match-render.js";

/** Whether a `match` argument named a Spotify library's albums or artists. */
export function isLibraryList(spec: { type: string; library?: string | null }): spec is SpotifySource {
  return spec.type === "spotify" && (spec.library === "albums" || spec.library === "artists");
}

async function matched<E, C>(
  kind: MatchKind<E, C>,
  entries: readonly E[],
  deps: ResolveDeps,
): Promise<SomeMatched> {
  const { resolutions, searches } = await resolveWith(kind, entries, deps);
  return someMatched({ resolutions, searches, shown: shownOf(kind) });
}

/** The library's albums or artists, matched; `deps` as a run's source would have them. */
export async function matchLibrary(
  env: EngineEnv,
  spec: SpotifySource,
  deps: ResolveDeps,
): Promise<SomeMatched> {
  if (!env.services) throw new CliError("reading spotify needs the project's services settings");
  if (spec.library === "albums") return matched(ALBUMS, (await env.services.albums(spec)).entries, deps);
  return matched(ARTISTS, (await env.services.artists(spec)).entries, deps);
}
