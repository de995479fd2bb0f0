/** Recipe as written → Recipe with every default filled in (then frozen by the loader). */

import { parseDuration } from "../../shared/duration.js";
import { spotifyPlaylistId } from "../services/spotify/ids.js";
import {
  DEFAULT_POLICY,
  DEFAULT_RADIO_LIMIT,
  DEFAULT_UNDO_MAX_AGE_DAYS,
  OVERRIDES_FILE,
} from "./defaults.js";
import type { NotifyTargetInput, ProjectInput, RecipeInput, SourceInput, StepInput } from "./input.js";
import { serviceDescription, serviceTitle } from "./service-text.js";
import {
  type Account,
  DEFAULT_NOTIFY_EVENTS,
  type EmulatorAccount,
  type Mode,
  type NotifyTarget,
  type PipelineStep,
  type Policy,
  type Project,
  type Recipe,
  type SourceSpec,
  type TargetSpec,
} from "./types.js";

/** What a project contributes to each recipe. */
export interface RecipeDefaults {
  account: string;
  mode: Mode;
  timezone: string | null;
  policy: Policy;
}

export const BUILT_IN_DEFAULTS: RecipeDefaults = Object.freeze({
  account: "default",
  mode: "sync",
  timezone: null,
  policy: DEFAULT_POLICY,
});

function normaliseSource(s: SourceInput): SourceSpec {
  const base = { id: s.id, limit: s.limit ?? null };
  switch (s.type) {
    case "playlist":
      return { ...base, type: "playlist", playlistId: s.playlistId.replace(/^VL/, "") };
    case "album":
      return {
        ...base,
        type: "album",
        browseId: s.browseId ?? null,
        audioPlaylistId: s.audioPlaylistId ?? null,
      };
    case "artist":
      return {
        ...base,
        type: "artist",
        channelId: s.channelId,
        section: s.section ?? "songs",
      };
    case "search":
      return { ...base, type: "search", query: s.query, filter: s.filter ?? "songs" };
    case "chart":
      return {
        ...base,
        type: "chart",
        country: s.country ?? "ZZ",
        section: s.section ?? "songs",
      };
    case "mood":
      return { ...base, type: "mood", category: s.category, playlist: s.playlist ?? "first" };
    case "radio":
      return {
        ...base,
        limit: s.limit ?? DEFAULT_RADIO_LIMIT,
        type: "radio",
        videoId: s.videoId ?? null,
        playlistId: s.playlistId ?? null,
        from: s.from ?? null,
      };
    case "library":
      return { ...base, type: "library", kind: s.kind };
    case "podcast":
      return { ...base, type: "podcast", playlistId: s.playlistId.replace(/^MPSP/, "") };
    case "static":
      return { ...base, type: "static", videoIds: [...s.videoIds] };
    case "file":
      // The loader makes `path` and `overrides` absolute against the recipe file's folder.
      return {
        ...base,
        type: "file",
        path: s.path,
        format: s.format ?? null,
        columns: s.columns ? { ...s.columns } : null,
        strict: s.strict ?? false,
        overrides: OVERRIDES_FILE,
        // The loader fills it; a recipe that bypasses the loader reads nothing.
        within: [],
      };
    case "spotify":
      return {
        ...base,
        type: "spotify",
        // The semantic checks refused a playlist that names none.
        playlist: s.playlist === undefined ? null : spotifyPlaylistId(s.playlist),
        library: s.library ?? null,
        overrides: OVERRIDES_FILE,
      };
    case "listenbrainz":
      return {
        ...base,
        type: "listenbrainz",
        user: s.user ?? null,
        series: s.series ?? null,
        archived: s.archived ?? false,
        playlist: s.playlist?.toLowerCase() ?? null,
        title: s.title ?? null,
        top: s.top ?? null,
        overrides: OVERRIDES_FILE,
      };
    case "lastfm":
      return {
        ...base,
        type: "lastfm",
        user: s.user,
        list: s.list,
        period: s.period ?? "overall",
        overrides: OVERRIDES_FILE,
      };
    case "liked":
    case "history":
    case "new_episodes":
    case "saved_episodes":
    case "self":
      return { ...base, type: s.type };
  }
}

function normaliseStep(step: StepInput): PipelineStep {
  if (step.combine) return { combine: { op: step.combine.op, sources: [...step.combine.sources] } };
  if (step.filter) {
    const f = step.filter;
    return {
      filter: {
        available: f.available ?? null,
        explicit: f.explicit ?? null,
        videoType: f.videoType ? [...f.videoType] : null,
        duration: f.duration ? { min: f.duration.min ?? null, max: f.duration.max ?? null } : null,
        artists: f.artists
          ? { include: f.artists.include ?? null, exclude: f.artists.exclude ?? null }
          : null,
        title: f.title ? { include: f.title.include ?? null, exclude: f.title.exclude ?? null } : null,
      },
    };
  }
  if (step.since) return { since: { days: step.since.days } };
  if (step.dedupe) return { dedupe: { by: step.dedupe.by ?? "videoId" } };
  if (step.exclude) {
    return {
      exclude: {
        sources: step.exclude.sources ? [...step.exclude.sources] : [],
        liked: step.exclude.liked ?? false,
        tombstones: step.exclude.tombstones ?? false,
      },
    };
  }
  if (step.sort) return { sort: { by: step.sort.by, order: step.sort.order ?? "asc" } };
  if (step.shuffle)
    return { shuffle: { period: step.shuffle.period ?? "week", seed: step.shuffle.seed ?? "" } };
  if (step.expand) return { expand: step.expand };
  return { limit: step.limit! };
}

function normaliseTarget(t: RecipeInput["target"]): TargetSpec {
  switch (t.type) {
    case "playlist":
      return {
        type: "playlist",
        playlist: {
          id: t.playlist?.id?.replace(/^VL/, "") ?? null,
          // Kept as the service stores them, so plans compare and create exactly that.
          title: t.playlist?.title !== undefined ? serviceTitle(t.playlist.title) : null,
          description: t.playlist?.description ? serviceDescription(t.playlist.description) || null : null,
          privacy: t.playlist?.privacy ?? null,
        },
        allow_delete: t.allow_delete ?? false,
      };
    case "likes":
      return { type: "likes", rating: t.rating ?? "LIKE" };
    case "library":
      return { type: "library", kind: t.kind };
    case "subscriptions":
      return { type: "subscriptions" };
    case "saved_episodes":
      return { type: "saved_episodes" };
  }
}

export function normaliseRecipe(input: RecipeInput, defaults: RecipeDefaults = BUILT_IN_DEFAULTS): Recipe {
  return {
    apiVersion: input.apiVersion,
    kind: "Recipe",
    id: input.id,
    description: input.description ?? null,
    account: input.account ?? defaults.account,
    schedule: input.schedule
      ? {
          cron: input.schedule.cron,
          timezone: input.schedule.timezone ?? defaults.timezone,
          // Only when given, so recipes without jitter keep the hash they had before it existed.
          ...(input.schedule.jitter !== undefined
            ? { jitter_seconds: parseDuration(input.schedule.jitter, "schedule.jitter") / 1000 }
            : {}),
        }
      : null,
    sources: input.sources.map(normaliseSource),
    pipeline: (input.pipeline ?? []).map(normaliseStep),
    target: normaliseTarget(input.target),
    mode: input.mode ?? defaults.mode,
    policy: { ...defaults.policy, ...(input.policy ?? {}) },
  };
}

/** What an `emulator:` account leaves out. */
export const EMULATOR_DEFAULTS: EmulatorAccount = { db: "emulator.db", seed: 1, catalogue: 2000, account: 1 };

export function normaliseProject(input: ProjectInput): Project {
  const accounts: Record<string, Account> = {};
  for (const [name, a] of Object.entries(input.accounts ?? {})) {
    accounts[name] = {
      auth: a.auth ?? null,
      token: a.token ?? null,
      oauth_client: a.oauth_client ? { id: a.oauth_client.id, secret: a.oauth_client.secret } : null,
      brand_account: a.brand_account ?? null,
      language: a.language ?? "en",
      location: a.location ?? null,
      base_url: a.base_url ?? null,
      emulator: a.emulator ? { ...EMULATOR_DEFAULTS, ...a.emulator } : null,
    };
  }
  const d = input.defaults ?? {};
  return {
    apiVersion: input.apiVersion,
    kind: "Project",
    accounts,
    defaults: {
      account: d.account ?? BUILT_IN_DEFAULTS.account,
      mode: d.mode ?? BUILT_IN_DEFAULTS.mode,
      timezone: d.timezone ?? null,
      policy: { ...DEFAULT_POLICY, ...(d.policy ?? {}) },
    },
    pacing: {
      min_interval_ms: input.pacing?.min_interval_ms ?? 1000,
      max_writes_per_minute: input.pacing?.max_writes_per_minute ?? 30,
      suspend_after_failures: input.pacing?.suspend_after_failures ?? 5,
    },
    recipes: input.recipes ?? ["recipes"],
    state: input.state ?? "musicsync.db",
    undo: { max_age_days: input.undo?.max_age_days ?? DEFAULT_UNDO_MAX_AGE_DAYS },
    notify: (input.notify ?? []).map(normaliseNotifyTarget),
    file_sources: { allow: [...(input.file_sources?.allow ?? [])] },
    services: structuredClone(input.services ?? {}),
  };
}

function normaliseNotifyTarget(t: NotifyTargetInput, index: number): NotifyTarget {
  const base = {
    name: t.name ?? `${t.type}-${index + 1}`,
    events: t.events ? [...new Set(t.events)] : [...DEFAULT_NOTIFY_EVENTS],
  };
  switch (t.type) {
    case "webhook":
      return { ...base, type: "webhook", url: t.url!, headers: { ...(t.headers ?? {}) } };
    case "ntfy":
      return {
        ...base,
        type: "ntfy",
        url: t.url!,
        headers: { ...(t.headers ?? {}) },
        priority: t.priority ?? null,
        tags: [...(t.tags ?? [])],
      };
    case "command":
      return { ...base, type: "command", command: [...t.command!] };
  }
}

export function projectDefaults(project: Project): RecipeDefaults {
  return project.defaults;
}
