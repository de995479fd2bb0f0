/**
 * The soak's random choices, all drawn from one seeded generator so that a seed replays exactly:
 * recipes (every mode and target), the person's edits between runs, the faults of each run and
 * where the real process is killed. Pure: no I/O; the catalogue comes in as plain lists.
 */

import { FAULT_KINDS, type FaultKind } from "../../emulator/faults.js";
import type { Mode } from "../../engine/recipe/types.js";
import type { ApprovalRule, FileFormat } from "./surfaces.js";

export type Random = () => number;

/** xorshift32: small, seedable, the same sequence on every machine. */
export function rng(seed: number): Random {
  let s = (seed * 2654435761) >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

export const int = (r: Random, min: number, max: number) => min + Math.floor(r() * (max - min + 1));
export const chance = (r: Random, p: number) => r() < p;
export function pick<T>(r: Random, list: readonly T[]): T {
  if (list.length === 0) throw new Error("pick from an empty list");
  return list[Math.floor(r() * list.length)]!;
}
export function shuffled<T>(r: Random, list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export type { FaultKind };
export { FAULT_KINDS };

export interface FaultPlan {
  rate: number;
  seed: number;
  kinds: FaultKind[];
  /** Seconds; 0 keeps the soak fast while still sending the header. */
  retryAfter: number;
  delayMs: number;
}

/** No faults in a third of the runs; otherwise 1–5 kinds at up to `maxRate`. */
export function faultPlan(r: Random, maxRate: number): FaultPlan | null {
  if (chance(r, 0.33)) return null;
  const kinds = shuffled(r, FAULT_KINDS).slice(0, int(r, 1, 5));
  return {
    rate: Math.round(r() * maxRate * 100) / 100,
    seed: int(r, 1, 1e6),
    kinds,
    retryAfter: 0,
    delayMs: 15,
  };
}

/** What the soak needs of the catalogue, read once from the emulator. */
export interface Catalogue {
  /** Available songs with an album, in a stable order. */
  songs: readonly string[];
  /** Songs the account has liked or disliked before any recipe ran. */
  rated: ReadonlySet<string>;
  episodes: readonly string[];
  artists: readonly string[];
  albums: readonly string[];
  podcasts: readonly string[];
  words: readonly string[];
}

/** A target the soak can read back by itself, and the source shapes it knows desired for. */
export type TargetShape =
  | { type: "playlist"; title: string }
  | { type: "adopted"; playlistId: string | null }
  | { type: "likes"; rating: "LIKE" | "DISLIKE" }
  | { type: "saved_episodes" }
  | { type: "library"; kind: "songs" | "albums" | "playlists" | "podcasts" }
  | { type: "subscriptions" };

export type SourceShape =
  | { type: "static"; ids: string[] }
  /** A playlist the person owns and edits; desired is its rows, read back without faults. */
  | { type: "playlist"; playlistId: string | null }
  | { type: "self" }
  /** Sources whose content the soak cannot compute by itself (search, chart…): weaker checks. */
  | { type: "other"; yaml: string };

export interface RecipeSpec {
  id: string;
  mode: Mode;
  target: TargetShape;
  source: SourceShape;
  dedupe: boolean;
  limit: number | null;
  policy: {
    order: "source" | "keep";
    on_drift: "adopt" | "revert";
    batch_size: number;
    max_removals: number;
    /** Set by the seed's third generator (surfaces.ts), never by this file's draws. */
    require_approval?: ApprovalRule;
  };
  /**
   * A static list read from a file the soak writes (source-files.ts) instead of from the recipe:
   * `path` relative to the recipe file. Set by surfaces.ts; desired stays the list's.
   */
  file?: { path: string; format: FileFormat };
}

/** Titles a person might type, surrounding whitespace and non-ASCII included (docs/ENGINE.md#titles). */
function title(r: Random, seed: number, n: number): string {
  const base = pick(r, ["Soak", "Road trip", "Morgen Früh", "夜の歌", "Mix & Match", "Café 'Noir'"]);
  const name = `${base} ${seed}-${n}`;
  return pick(r, [name, name, name, `${name} `, ` ${name}`, `${name}  `]);
}

function policy(r: Random): RecipeSpec["policy"] {
  return {
    order: chance(r, 0.8) ? "source" : "keep",
    on_drift: chance(r, 0.6) ? "adopt" : "revert",
    batch_size: pick(r, [1, 2, 3, 5, 10, 100]),
    // Small limits make the max_removals guard fire now and then.
    max_removals: chance(r, 0.2) ? int(r, 0, 3) : 100,
  };
}

/** A static list from the recipe pool, with a duplicate now and then. */
export function staticIds(r: Random, pool: readonly string[], min = 3, max = 14): string[] {
  const ids = shuffled(r, pool).slice(0, int(r, min, max));
  if (ids.length > 2 && chance(r, 0.2)) ids.push(pick(r, ids));
  return ids;
}

function otherPlaylistSource(r: Random, c: Catalogue): string {
  const limit = int(r, 5, 25);
  return pick(r, [
    `{ id: s, type: search, query: "${pick(r, c.words)}", filter: songs, limit: ${limit} }`,
    `{ id: s, type: chart, country: US, section: videos, limit: ${limit} }`,
    `{ id: s, type: artist, channelId: ${pick(r, c.artists)}, section: songs }`,
    `{ id: s, type: album, browseId: ${pick(r, c.albums)} }`,
    `{ id: s, type: radio, videoId: ${pick(r, c.songs)}, limit: ${limit} }`,
    `{ id: s, type: liked, limit: ${limit} }`,
    `{ id: s, type: history, limit: ${limit} }`,
    `{ id: s, type: library, kind: songs, limit: ${limit} }`,
  ]);
}

/** One recipe: the kinds the soak can check exactly come most often. */
export function recipeSpec(
  r: Random,
  seed: number,
  n: number,
  c: Catalogue,
  recipePool: string[],
): RecipeSpec {
  const id = `soak-${seed}-${n}`;
  const base = {
    id,
    dedupe: chance(r, 0.5),
    limit: chance(r, 0.2) ? int(r, 2, 10) : null,
    policy: policy(r),
  };
  const mode = () => pick(r, ["mirror", "sync", "append"] as const);
  const roll = r();
  if (roll < 0.35)
    return {
      ...base,
      mode: mode(),
      target: { type: "playlist", title: title(r, seed, n) },
      source: { type: "static", ids: staticIds(r, recipePool) },
    };
  if (roll < 0.5)
    return {
      ...base,
      mode: mode(),
      target: { type: "playlist", title: title(r, seed, n) },
      source: { type: "playlist", playlistId: null },
    };
  if (roll < 0.62)
    return {
      ...base,
      mode: mode(),
      target: { type: "likes", rating: chance(r, 0.7) ? "LIKE" : "DISLIKE" },
      source: { type: "static", ids: staticIds(r, recipePool) },
    };
  if (roll < 0.7)
    return {
      ...base,
      mode: mode(),
      target: { type: "saved_episodes" },
      source: { type: "static", ids: staticIds(r, c.episodes, 2, 6) },
    };
  if (roll < 0.8)
    return {
      ...base,
      dedupe: true,
      limit: null,
      mode: "clean",
      target: { type: "adopted", playlistId: null },
      source: { type: "self" },
    };
  if (roll < 0.9)
    return {
      ...base,
      mode: mode(),
      target: { type: "playlist", title: title(r, seed, n) },
      source: { type: "other", yaml: otherPlaylistSource(r, c) },
    };
  return { ...base, mode: chance(r, 0.5) ? "sync" : "append", ...otherTarget(r, c) };
}

function otherTarget(r: Random, c: Catalogue): Pick<RecipeSpec, "target" | "source"> {
  const limit = int(r, 2, 6);
  return pick(r, [
    {
      target: { type: "subscriptions" },
      source: {
        type: "other",
        yaml: `{ id: s, type: chart, country: US, section: artists, limit: ${limit} }`,
      },
    },
    {
      target: { type: "library", kind: "albums" },
      source: {
        type: "other",
        yaml: `{ id: s, type: artist, channelId: ${pick(r, c.artists)}, section: albums }`,
      },
    },
    {
      target: { type: "library", kind: "playlists" },
      source: {
        type: "other",
        yaml: `{ id: s, type: search, query: "${pick(r, c.words)}", filter: playlists, limit: ${limit} }`,
      },
    },
    {
      target: { type: "library", kind: "podcasts" },
      source: {
        type: "other",
        yaml: `{ id: s, type: search, query: Podcast, filter: podcasts, limit: ${limit} }`,
      },
    },
    {
      target: { type: "library", kind: "songs" },
      source: { type: "other", yaml: `{ id: s, type: history, limit: ${limit} }` },
    },
  ] as Pick<RecipeSpec, "target" | "source">[]);
}

/** Whether the soak computes desired by itself for this recipe (else only the weaker checks run). */
export function exact(spec: RecipeSpec): boolean {
  return spec.source.type !== "other";
}

/** The YAML the recipe file holds. */
export function recipeYaml(spec: RecipeSpec): string {
  const source = spec.file
    ? `{ id: s, type: file, path: ${JSON.stringify(spec.file.path)}, format: ${spec.file.format} }`
    : spec.source.type === "static"
      ? `{ id: s, type: static, videoIds: [${spec.source.ids.join(", ")}] }`
      : spec.source.type === "playlist"
        ? `{ id: s, type: playlist, playlistId: ${spec.source.playlistId} }`
        : spec.source.type === "self"
          ? "{ id: s, type: self }"
          : spec.source.yaml;
  const steps = [
    ...(spec.dedupe ? ["  - dedupe: { by: videoId }"] : []),
    ...(spec.limit !== null ? [`  - limit: ${spec.limit}`] : []),
  ];
  const t = spec.target;
  const target =
    t.type === "playlist"
      ? `{ type: playlist, playlist: { title: ${JSON.stringify(t.title)}, privacy: PRIVATE } }`
      : t.type === "adopted"
        ? `{ type: playlist, playlist: { id: ${t.playlistId} } }`
        : t.type === "likes"
          ? `{ type: likes, rating: ${t.rating} }`
          : t.type === "library"
            ? `{ type: library, kind: ${t.kind} }`
            : `{ type: ${t.type} }`;
  const p = spec.policy;
  const order = t.type === "playlist" || t.type === "adopted" ? `order: ${p.order}, ` : "";
  const rule = p.require_approval;
  const approval = rule
    ? `, require_approval: { ${Object.entries(rule)
        .map(([k, v]) => `${k}: ${v}`)
        .join(", ")} }`
    : "";
  return [
    "apiVersion: musicsync/v1",
    "kind: Recipe",
    `id: ${spec.id}`,
    "sources:",
    `  - ${source}`,
    ...(steps.length > 0 ? ["pipeline:", ...steps] : []),
    `target: ${target}`,
    `mode: ${spec.mode}`,
    `policy: { ${order}on_drift: ${p.on_drift}, batch_size: ${p.batch_size}, max_removals: ${p.max_removals}${approval} }`,
    "",
  ].join("\n");
}

/** Desired from the source's own items: first copies only (the engine never adds a second), then the limit. */
export function desiredOf(spec: RecipeSpec, items: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of items) {
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return spec.limit === null ? out : out.slice(0, spec.limit);
}

export type EditKind =
  | "add"
  | "remove"
  | "move"
  | "rename"
  | "delete-playlist"
  | "like"
  | "unlike"
  | "dislike"
  | "source-add"
  | "source-remove"
  | "source-move"
  | "change-recipe"
  | "lose-state";

/** The person's edits before one run (0–3 of them); which apply depends on the target. */
export function edits(r: Random, spec: RecipeSpec): EditKind[] {
  const t = spec.target.type;
  const kinds: EditKind[] =
    t === "playlist"
      ? ["add", "add", "remove", "remove", "move", "move", "rename"]
      : t === "adopted"
        ? ["add", "remove", "move"]
        : t === "likes"
          ? ["like", "unlike", "dislike"]
          : t === "saved_episodes"
            ? ["add", "remove"]
            : ["remove"];
  if (spec.source.type === "playlist") kinds.push("source-add", "source-remove", "source-move");
  if (spec.source.type === "static") kinds.push("change-recipe", "change-recipe");
  const out: EditKind[] = [];
  for (let i = int(r, 0, 3); i > 0; i--) out.push(pick(r, kinds));
  // The rare, drastic ones: a playlist deleted by hand, the state database lost.
  if (t === "playlist" && chance(r, 0.06)) out.push("delete-playlist");
  if (chance(r, 0.1)) out.push("lose-state");
  return out;
}
