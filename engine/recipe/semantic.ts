/**
 * Rules a schema cannot say: names that must refer to something, combinations that make no sense,
 * and the service's limits. Each issue carries the path of the node to point at.
 */
import type { RecipeInput, SourceInput, StepInput } from "./input.js";
import { type AccountScope, accountFinding } from "./recipe-account.js";
import { scheduleProblems } from "./schedule.js";
import { serviceSourceIssues } from "./service-sources.js";
import { descriptionProblem, serviceTitle, titleProblem } from "./service-text.js";
import { PLAYLIST_CAP } from "./types.js";
import type { Path, PathIssue } from "./yaml-source.js";

export type { PathIssue };

/** Modes each target accepts: `clean` rewrites a list of rows, which only playlists have. */
const CLEAN_TARGETS = new Set(["playlist", "saved_episodes"]);

function validRegex(pattern: string): string | null {
  try {
    new RegExp(pattern, "iu");
    return null;
  } catch (err) {
    return (err as Error).message.replace(/^Invalid regular expression: (\/.*\/[a-z]*: )?/, "");
  }
}

function exactlyOne<S extends SourceInput>(source: S, keys: readonly (keyof S)[]): number {
  return keys.filter((k) => source[k] !== undefined).length;
}

export interface SemanticContext {
  /** Accounts of the project file; unknown accounts are only reported when this is given. */
  accounts?: ReadonlySet<string>;
  /**
   * The state was not read and may hold accounts (validate): a name `accounts` lacks is a warning
   * when a stored account could carry it (engine/recipe/recipe-account.ts).
   */
  accountsMayBeStored?: boolean;
  /** The project's default account, used when the recipe names none. */
  defaultAccount?: string;
  /** Schedules of seconds, for the test suite only (see engine/recipe/schedule.ts). */
  allowSecondSchedules?: boolean;
}

/** The recipe's source ids (each with its first index), and those a radio or a step names. */
interface SourceNames {
  ids: ReadonlyMap<string, number>;
  used: Set<string>;
}

function indexSources(sources: readonly SourceInput[]): { names: SourceNames; issues: PathIssue[] } {
  const issues: PathIssue[] = [];
  const ids = new Map<string, number>();
  sources.forEach((s, i) => {
    if (ids.has(s.id)) {
      issues.push({ path: ["sources", i, "id"], message: `duplicate source id "${s.id}"` });
    } else ids.set(s.id, i);
  });
  return { names: { ids, used: new Set() }, issues };
}

/** Marks `name` as used; an issue when no source has that id. */
function refer(names: SourceNames, name: string, path: Path): PathIssue[] {
  names.used.add(name);
  if (names.ids.has(name)) return [];
  return [{ path, message: `unknown source "${name}" (sources: ${[...names.ids.keys()].join(", ")})` }];
}

function sourceIssues(s: SourceInput, i: number, mode: RecipeInput["mode"], names: SourceNames): PathIssue[] {
  const issues: PathIssue[] = [];
  if (s.type === "album" && exactlyOne(s, ["browseId", "audioPlaylistId"]) !== 1) {
    issues.push({
      path: ["sources", i],
      message: "an album source needs exactly one of browseId, audioPlaylistId",
    });
  }
  if (s.type === "radio") {
    if (exactlyOne(s, ["videoId", "playlistId", "from"]) !== 1) {
      issues.push({
        path: ["sources", i],
        message: "a radio source needs exactly one of videoId, playlistId, from",
      });
    }
    if (s.from !== undefined) {
      if (s.from === s.id)
        issues.push({ path: ["sources", i, "from"], message: "a radio cannot start from itself" });
      else issues.push(...refer(names, s.from, ["sources", i, "from"]));
    }
  }
  if (s.type === "self" && mode !== "clean") {
    issues.push({
      path: ["sources", i, "type"],
      message: 'a "self" source is only meaningful with mode: clean',
    });
  }
  issues.push(...serviceSourceIssues(s, i));
  return issues;
}

/** Radios seeded from other radios must not loop. */
function radioLoops(sources: readonly SourceInput[]): PathIssue[] {
  const issues: PathIssue[] = [];
  const radioFrom = new Map<string, string>();
  for (const s of sources) if (s.type === "radio" && s.from && s.from !== s.id) radioFrom.set(s.id, s.from);
  for (const start of radioFrom.keys()) {
    const seen = new Set<string>([start]);
    let cur = radioFrom.get(start);
    while (cur !== undefined && !seen.has(cur)) {
      seen.add(cur);
      cur = radioFrom.get(cur);
    }
    if (cur === start) {
      const i = sources.findIndex((s) => s.id === start);
      issues.push({ path: ["sources", i, "from"], message: `radio sources form a loop through "${start}"` });
    }
  }
  return issues;
}

function combineIssues(
  combine: NonNullable<StepInput["combine"]>,
  i: number,
  names: SourceNames,
): PathIssue[] {
  const issues: PathIssue[] = [];
  if (i !== 0)
    issues.push({
      path: ["pipeline", i],
      key: false,
      message: "combine must be the first pipeline step",
    });
  combine.sources.forEach((name, j) => {
    issues.push(...refer(names, name, ["pipeline", i, "combine", "sources", j]));
  });
  if ((combine.op === "intersect" || combine.op === "difference") && combine.sources.length < 2) {
    issues.push({
      path: ["pipeline", i, "combine", "sources"],
      message: `combine "${combine.op}" needs at least two sources`,
    });
  }
  return issues;
}

/** Title patterns must compile; a duration range must not be upside down. */
function filterIssues(filter: StepInput["filter"], i: number): PathIssue[] {
  const issues: PathIssue[] = [];
  const title = filter?.title;
  for (const which of ["include", "exclude"] as const) {
    const pattern = title?.[which];
    if (pattern === undefined) continue;
    const problem = validRegex(pattern);
    if (problem) {
      issues.push({
        path: ["pipeline", i, "filter", "title", which],
        message: `invalid regular expression: ${problem}`,
      });
    }
  }
  const d = filter?.duration;
  if (d?.min !== undefined && d.max !== undefined && d.min > d.max) {
    issues.push({
      path: ["pipeline", i, "filter", "duration"],
      message: `duration min ${d.min} is above max ${d.max}`,
    });
  }
  return issues;
}

function stepIssues(step: StepInput, i: number, names: SourceNames): PathIssue[] {
  const issues: PathIssue[] = [];
  if (step.combine) issues.push(...combineIssues(step.combine, i, names));
  if (step.exclude?.sources) {
    step.exclude.sources.forEach((name, j) => {
      issues.push(...refer(names, name, ["pipeline", i, "exclude", "sources", j]));
    });
  }
  if (step.limit !== undefined && step.limit > PLAYLIST_CAP) {
    issues.push({
      path: ["pipeline", i, "limit"],
      message: `limit ${step.limit} is above the 5,000 items a playlist can hold`,
    });
  }
  issues.push(...filterIssues(step.filter, i));
  return issues;
}

/** With a combine the stream is what it names; a source nothing refers to is most likely a typo. */
function unusedSources(sources: readonly SourceInput[], used: ReadonlySet<string>): PathIssue[] {
  return sources.flatMap((s, i) =>
    used.has(s.id) ? [] : [{ path: ["sources", i, "id"], message: `source "${s.id}" is never used` }],
  );
}

function cleanModeIssues(recipe: RecipeInput): PathIssue[] {
  if (recipe.mode !== "clean") return [];
  const issues: PathIssue[] = [];
  const target = recipe.target;
  if (!CLEAN_TARGETS.has(target.type)) {
    issues.push({
      path: ["mode"],
      message: `"clean" does not fit target type "${target.type}" (use it with playlist or saved_episodes)`,
    });
  }
  if (!recipe.sources.some((s) => s.type === "self")) {
    issues.push({ path: ["sources"], message: 'mode "clean" needs a source of type "self"' });
  }
  return issues;
}

function playlistTargetIssues(recipe: RecipeInput): PathIssue[] {
  const issues: PathIssue[] = [];
  const p = (recipe.target.type === "playlist" ? recipe.target.playlist : undefined) ?? {};
  if (p.id === undefined && p.title === undefined) {
    issues.push({
      path: ["target", "playlist"],
      message: "needs an id (to adopt a playlist) or a title (to create one)",
    });
  }
  // The schema knows lengths and `<>`; what the service would trim to nothing is checked here.
  const titleIssue = p.title === undefined ? null : titleProblem(p.title);
  if (titleIssue) issues.push({ path: ["target", "playlist", "title"], message: titleIssue });
  const descriptionIssue = p.description === undefined ? null : descriptionProblem(p.description);
  if (descriptionIssue)
    issues.push({ path: ["target", "playlist", "description"], message: descriptionIssue });
  if (recipe.mode === "clean" && p.id === undefined) {
    issues.push({
      path: ["target", "playlist"],
      message: 'mode "clean" needs an existing playlist: give its id',
    });
  }
  return issues;
}

function targetIssues(recipe: RecipeInput): PathIssue[] {
  const target = recipe.target;
  if (target.type === "playlist") return playlistTargetIssues(recipe);
  if (target.type !== "saved_episodes" && recipe.policy?.order !== undefined) {
    return [
      {
        path: ["policy", "order"],
        key: true,
        message: `has no meaning for target type "${target.type}" (it has no order)`,
      },
    ];
  }
  return [];
}

/** The daemon checks a schedule with this same function before it runs it. */
function scheduleIssues(recipe: RecipeInput, ctx: SemanticContext): PathIssue[] {
  if (!recipe.schedule) return [];
  const allowSecondSchedules = ctx.allowSecondSchedules === true;
  return scheduleProblems(recipe.schedule, { allowSecondSchedules }).map((p) => ({
    path: ["schedule", p.field],
    message: p.message,
  }));
}

function accountScope(ctx: SemanticContext, accounts: ReadonlySet<string>): AccountScope {
  return {
    known: accounts,
    ...(ctx.defaultAccount !== undefined ? { defaultAccount: ctx.defaultAccount } : {}),
    mayBeStored: ctx.accountsMayBeStored === true,
  };
}

function accountIssues(recipe: RecipeInput, ctx: SemanticContext): PathIssue[] {
  if (!ctx.accounts) return [];
  const found = accountFinding(recipe, accountScope(ctx, ctx.accounts));
  return found && "error" in found ? [found.error] : [];
}

/** A recipe's account that only a stored account can carry, where the state is not read (validate). */
export function accountWarnings(recipe: RecipeInput, ctx: SemanticContext): PathIssue[] {
  if (!ctx.accounts) return [];
  const found = accountFinding(recipe, accountScope(ctx, ctx.accounts));
  return found && "warning" in found ? [found.warning] : [];
}

export function checkRecipe(recipe: RecipeInput, ctx: SemanticContext = {}): PathIssue[] {
  const { names, issues } = indexSources(recipe.sources);
  issues.push(...recipe.sources.flatMap((s, i) => sourceIssues(s, i, recipe.mode, names)));
  issues.push(...radioLoops(recipe.sources));
  const steps = recipe.pipeline ?? [];
  issues.push(...steps.flatMap((step, i) => stepIssues(step, i, names)));
  // Only after every step has named its sources.
  if (steps.some((step) => step.combine)) issues.push(...unusedSources(recipe.sources, names.used));
  issues.push(...cleanModeIssues(recipe), ...targetIssues(recipe));
  issues.push(...scheduleIssues(recipe, ctx), ...accountIssues(recipe, ctx));
  return issues;
}

/** Two recipes writing one target would undo each other's work on every run. */
export function recipeTargetKey(account: string, recipe: RecipeInput): string {
  const t = recipe.target;
  switch (t.type) {
    case "playlist":
      return t.playlist?.id !== undefined
        ? `${account}/playlist/${t.playlist.id.replace(/^VL/, "")}`
        : `${account}/playlist-title/${serviceTitle(t.playlist?.title ?? "")}`;
    case "library":
      return `${account}/library/${t.kind}`;
    case "likes":
      // Liked and disliked songs are two lists: a LIKE and a DISLIKE recipe write different targets.
      return `${account}/likes/${t.rating ?? "LIKE"}`;
    default:
      return `${account}/${t.type}`;
  }
}
