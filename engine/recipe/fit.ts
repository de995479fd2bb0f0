/**
 * Whether a recipe's items can go into its target at all, told before any read: a playlist gives
 * tracks, and a subscriptions target holds artists, so without `expand: artists` every track would
 * be skipped at plan time ("a track cannot go in subscriptions") and the recipe would do nothing.
 * `validate` says so as a warning, not an error: the recipe is still well-formed, and a source
 * of mixed kinds (a search of all kinds) may hold some that fit.
 *
 * The kinds each source gives are what its reader normalises its rows to (sources/read.ts); the
 * kinds each target holds are those plan/plan.ts `targetKey` gives a key to.
 */
import type { RecipeInput, SourceInput, TargetInput } from "./input.js";
import type { ExpandKind } from "./types.js";
import type { PathIssue } from "./yaml-source.js";

/**
 * What an item stands for: targets accept only some kinds (a playlist holds tracks and episodes).
 * Said here, with the recipe's words, since which kinds a recipe's sources give is checked before
 * any source is read; the items the readers make (engine/sources/item.ts) carry it.
 */
export type ItemKind = "track" | "episode" | "album" | "playlist" | "podcast" | "artist";

const SEARCH_KINDS: Record<string, ItemKind[]> = {
  songs: ["track"],
  videos: ["track"],
  albums: ["album"],
  artists: ["artist"],
  playlists: ["playlist"],
  community_playlists: ["playlist"],
  featured_playlists: ["playlist"],
  profiles: [],
  podcasts: ["podcast"],
  episodes: ["episode"],
};

const LIBRARY_KINDS: Record<string, ItemKind[]> = {
  songs: ["track"],
  albums: ["album"],
  artists: ["artist"],
  subscriptions: ["artist"],
  playlists: ["playlist"],
  podcasts: ["podcast"],
};

/** The kinds of item a source gives; null when it depends on the target (`self`). */
function sourceKinds(s: SourceInput): ItemKind[] | null {
  switch (s.type) {
    case "artist":
      return s.section === "albums" || s.section === "singles" ? ["album"] : ["track"];
    case "search":
      return SEARCH_KINDS[s.filter ?? "songs"] ?? [];
    case "chart":
      return s.section === "artists" ? ["artist"] : ["track"];
    case "library":
      return LIBRARY_KINDS[s.kind ?? "songs"] ?? [];
    case "podcast":
    case "new_episodes":
    case "saved_episodes":
      return ["episode"];
    case "self":
      return null;
    // A Spotify library's saved albums are albums and its followed artists artists; the rest, songs.
    case "spotify":
      return s.library === "albums" ? ["album"] : s.library === "artists" ? ["artist"] : ["track"];
    default:
      return ["track"];
  }
}

const LIBRARY_TARGET_KINDS: Record<string, ItemKind> = {
  songs: "track",
  albums: "album",
  playlists: "playlist",
  podcasts: "podcast",
};

function targetKinds(t: TargetInput): ItemKind[] {
  if (t.type === "subscriptions") return ["artist"];
  if (t.type === "library") return [LIBRARY_TARGET_KINDS[t.kind ?? "songs"] ?? "track"];
  return ["track", "episode"];
}

/** What each kind becomes under `expand` (pipeline/expand.ts); kinds that name nothing drop out. */
const EXPANDS_TO: Record<ExpandKind, { from: readonly ItemKind[]; to: ItemKind }> = {
  artists: { from: ["track", "album", "artist"], to: "artist" },
  albums: { from: ["track", "album"], to: "album" },
};

function expanded(kinds: readonly ItemKind[], step: ExpandKind): ItemKind[] {
  const { from, to } = EXPANDS_TO[step];
  return kinds.some((k) => from.includes(k)) ? [to] : [];
}

function targetText(t: TargetInput): string {
  return t.type === "library" ? `library ${t.kind ?? ""}`.trim() : t.type.replace("_", " ");
}

/** The expand step that would turn `kinds` into what the target holds, if one would. */
function fix(kinds: readonly ItemKind[], target: readonly ItemKind[]): ExpandKind | null {
  for (const step of ["artists", "albums"] as const) {
    const to = expanded(kinds, step);
    if (to.length > 0 && target.includes(to[0]!)) return step;
  }
  return null;
}

/** The sources whose items make the stream: a first `combine` names them, else all but exclude-only ones. */
function streamSources(recipe: RecipeInput): number[] {
  const steps = recipe.pipeline ?? [];
  const named = steps[0]?.combine?.sources;
  const excludeOnly = new Set(steps.flatMap((s) => s.exclude?.sources ?? []));
  return recipe.sources
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => (named ? named.includes(s.id) : !excludeOnly.has(s.id)))
    .map(({ i }) => i);
}

const plural = (kinds: readonly ItemKind[]) => kinds.map((k) => `${k}s`).join(", ");

/** Why a source's items cannot go in the target, given the expand steps they pass through. */
function misfit(given: readonly ItemKind[], steps: readonly ExpandKind[], target: TargetInput): string {
  const kinds = steps.reduce<ItemKind[]>((k, step) => expanded(k, step), [...given]);
  const into = targetText(target);
  if (kinds.length === 0)
    return `gives ${plural(given)}, which "expand: ${steps.at(-1)}" drops: nothing would go in ${into}`;
  const changed = kinds.join() !== given.join() ? `, expanded to ${plural(kinds)}` : "";
  const hint = steps.length === 0 ? fix(given, targetKinds(target)) : null;
  const add = hint ? ` (add the pipeline step "expand: ${hint}")` : "";
  return `gives ${plural(given)}${changed}, which cannot go in ${into}${add}`;
}

export function fitWarnings(recipe: RecipeInput): PathIssue[] {
  // `clean` runs over the target's own rows, which fit it by definition.
  if (recipe.mode === "clean") return [];
  const target = targetKinds(recipe.target);
  const steps = (recipe.pipeline ?? []).flatMap((s) => (s.expand ? [s.expand] : []));
  const issues: PathIssue[] = [];
  for (const i of streamSources(recipe)) {
    const source = recipe.sources[i]!;
    const given = sourceKinds(source);
    if (given === null || given.length === 0) continue;
    const kinds = steps.reduce<ItemKind[]>((k, step) => expanded(k, step), given);
    if (kinds.some((k) => target.includes(k))) continue;
    issues.push({
      path: ["sources", i],
      message: `source "${source.id}" ${misfit(given, steps, recipe.target)}`,
    });
  }
  return issues;
}
