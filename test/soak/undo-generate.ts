/**
 * The undo soak's random recipes: playlists (mirror, sync, append; title, description and privacy
 * of their own) and ratings (likes or dislikes) from static lists, and the changes the person makes
 * to them between runs. Pure: built on the soak's generator (generate.ts), seeded the same way.
 */
import type { Privacy } from "../../engine/recipe/types.js";
import {
  chance,
  int,
  pick,
  type Random,
  type RecipeSpec,
  recipeYaml,
  shuffled,
  staticIds,
} from "./generate.js";

/** A recipe of the undo soak: the soak's spec, plus the playlist fields it does not write. */
export interface UndoRecipe {
  spec: RecipeSpec;
  description: string | null;
  privacy: Privacy;
}

const PRIVACIES: readonly Privacy[] = ["PRIVATE", "UNLISTED", "PUBLIC"];

function policy(r: Random): RecipeSpec["policy"] {
  return {
    order: chance(r, 0.8) ? "source" : "keep",
    on_drift: chance(r, 0.6) ? "adopt" : "revert",
    batch_size: pick(r, [1, 2, 5, 100]),
    max_removals: chance(r, 0.15) ? int(r, 0, 3) : 100,
  };
}

/** Titles as a person types them, surrounding spaces now and then (the service may trim them). */
function title(r: Random, seed: number, n: number): string {
  const name = `${pick(r, ["Undo", "Road trip", "Morgen Früh", "夜の歌", "Mix & Match"])} ${seed}-${n}`;
  return pick(r, [name, name, name, ` ${name}`, `${name}  `]);
}

function description(r: Random, seed: number): string | null {
  return chance(r, 0.3) ? null : pick(r, [`Made for seed ${seed}`, "Songs for the road", "Für später"]);
}

function base(r: Random, seed: number, n: number, pool: readonly string[]) {
  return {
    id: `undo-${seed}-${n}`,
    mode: pick(r, ["mirror", "sync", "append"] as const),
    source: { type: "static" as const, ids: staticIds(r, pool) },
    dedupe: chance(r, 0.5),
    limit: chance(r, 0.15) ? int(r, 2, 10) : null,
    policy: policy(r),
  };
}

function playlistRecipe(r: Random, seed: number, n: number, pool: readonly string[]): UndoRecipe {
  const spec: RecipeSpec = {
    ...base(r, seed, n, pool),
    target: { type: "playlist", title: title(r, seed, n) },
  };
  return { spec, description: description(r, seed), privacy: pick(r, PRIVACIES) };
}

function ratingsRecipe(r: Random, seed: number, n: number, pool: readonly string[]): UndoRecipe {
  const rating = chance(r, 0.8) ? "LIKE" : "DISLIKE";
  return {
    spec: { ...base(r, seed, n, pool), target: { type: "likes", rating } },
    description: null,
    privacy: "PRIVATE",
  };
}

/** One or two recipes: a playlist most of the time, a ratings recipe some of the time, never none. */
export function undoRecipes(r: Random, seed: number, pool: readonly string[]): UndoRecipe[] {
  const playlist = chance(r, 0.85);
  const ratings = !playlist || chance(r, 0.4);
  return [
    ...(playlist ? [playlistRecipe(r, seed, 1, pool)] : []),
    ...(ratings ? [ratingsRecipe(r, seed, 2, pool)] : []),
  ];
}

/** The recipe file: the soak's YAML with the playlist's description and privacy put in. */
export function undoYaml(u: UndoRecipe): string {
  const yaml = recipeYaml(u.spec);
  if (u.spec.target.type !== "playlist") return yaml;
  const fields = `${u.description !== null ? `description: ${JSON.stringify(u.description)}, ` : ""}privacy: ${u.privacy} }`;
  return yaml.replace("privacy: PRIVATE }", fields);
}

/** The person edits the recipe between runs: other songs, another order, other playlist fields. */
export function changeRecipe(r: Random, u: UndoRecipe, pool: readonly string[], n: number): string {
  const src = u.spec.source;
  if (src.type !== "static") return "nothing";
  const done: string[] = [];
  const roll = r();
  if (roll < 0.35) {
    src.ids = staticIds(r, pool, 2, 14);
    done.push(`wants ${src.ids.length} ids`);
  } else if (roll < 0.6) {
    src.ids = shuffled(r, src.ids);
    done.push("reordered");
  } else if (roll < 0.8) {
    const extra = shuffled(
      r,
      pool.filter((v) => !src.ids.includes(v)),
    ).slice(0, int(r, 1, 3));
    src.ids = [...src.ids.slice(int(r, 0, 2)), ...extra];
    done.push(`drops some, adds ${extra.join(", ")}`);
  }
  const t = u.spec.target;
  if (t.type === "playlist") {
    if (chance(r, 0.3)) {
      t.title = `Retitled ${n} ${t.title}`;
      done.push(`title ${JSON.stringify(t.title)}`);
    }
    if (chance(r, 0.3)) {
      u.description = `Changed in step ${n}`;
      done.push(`description ${JSON.stringify(u.description)}`);
    }
    if (chance(r, 0.3)) {
      u.privacy = pick(r, PRIVACIES);
      done.push(`privacy ${u.privacy}`);
    }
  }
  return done.join("; ") || "nothing";
}
