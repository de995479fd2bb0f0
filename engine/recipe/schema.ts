/**
 * The JSON Schema of recipe files and of `musicsync.yaml`: the single source, from which
 * `recipes/recipe.schema.json` is written (`npx tsx engine/recipe/export-schema.ts`) so editors can
 * complete and check recipes. A test keeps the file in step with this object.
 *
 * Sources and targets are `oneOf` branches chosen by their `type` (ajv's `discriminator`), so a
 * mistake inside one branch is reported once, against that branch only.
 */
import {
  ARTIST_SECTIONS,
  CHART_SECTIONS,
  COMBINE_OPS,
  DEDUPE_KEYS,
  EXPAND_KINDS,
  FILE_FORMATS,
  LIBRARY_KINDS,
  LIBRARY_TARGET_KINDS,
  MODES,
  NOTIFY_EVENTS,
  PRIVACY,
  SEARCH_FILTERS,
  SHUFFLE_PERIODS,
  SORT_KEYS,
} from "./types.js";

const sourceName = { type: "string", pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]*$", maxLength: 64 } as const;
const nonEmpty = { type: "string", minLength: 1 } as const;
const limit = { type: "integer", minimum: 1, description: "Read at most this many items." } as const;
const videoIdPattern = { type: "string", pattern: "^[A-Za-z0-9_-]{11}$" } as const;

function source(type: string, properties: Record<string, unknown>, required: string[] = []) {
  return {
    type: "object",
    properties: { id: sourceName, type: { const: type }, limit, ...properties },
    required: ["id", "type", ...required],
    additionalProperties: false,
  };
}

const policyProperties = {
  max_removals: { type: "integer", minimum: 0, description: "Removals above this number are all blocked." },
  min_source_items: {
    type: "integer",
    minimum: 0,
    description: "A source total below this looks truncated and blocks removals.",
  },
  min_source_ratio: {
    type: "number",
    minimum: 0,
    maximum: 1,
    description:
      "A source without an item count that returns less than this share of its last complete read (and at least 5 items fewer) looks cut short and blocks removals; 0 turns the check off.",
  },
  allow_empty: { type: "boolean", description: "Whether an empty desired list may empty the target." },
  order: { enum: ["source", "keep"] },
  on_drift: { enum: ["adopt", "revert"] },
  overflow: { enum: ["truncate", "error", "split", "rotate"] },
  batch_size: { type: "integer", minimum: 1, maximum: 1000 },
  override_ratings: {
    type: "boolean",
    description:
      "Likes targets: also rate songs the person rated the other way by hand (default false: they are skipped).",
  },
  require_approval: {
    type: "object",
    description:
      "Hold a plan for `musicsync approve` when its removals pass either threshold (the daemon does not apply it; `sync` needs --approve). A recipe's value replaces the project's; {} holds nothing.",
    properties: {
      removals: { type: "integer", minimum: 0, description: "Most removals applied without approval." },
      removals_percent: {
        type: "number",
        minimum: 0,
        maximum: 100,
        description: "Most removals, as a percentage of the target's rows, applied without approval.",
      },
    },
    additionalProperties: false,
  },
} as const;

const policy = { type: "object", properties: policyProperties, additionalProperties: false } as const;

const stringList = { type: "array", items: nonEmpty } as const;

const pipelineStep = {
  type: "object",
  description: "One step, written as an object with exactly one key.",
  minProperties: 1,
  maxProperties: 1,
  additionalProperties: false,
  properties: {
    combine: {
      type: "object",
      properties: {
        op: { enum: [...COMBINE_OPS] },
        sources: { type: "array", items: sourceName, minItems: 1 },
      },
      required: ["op", "sources"],
      additionalProperties: false,
    },
    filter: {
      type: "object",
      minProperties: 1,
      properties: {
        available: { type: "boolean" },
        explicit: { type: "boolean" },
        videoType: { type: "array", items: nonEmpty, minItems: 1 },
        duration: {
          type: "object",
          properties: { min: { type: "integer", minimum: 0 }, max: { type: "integer", minimum: 0 } },
          minProperties: 1,
          additionalProperties: false,
        },
        artists: {
          type: "object",
          properties: { include: stringList, exclude: stringList },
          minProperties: 1,
          additionalProperties: false,
        },
        title: {
          type: "object",
          properties: { include: nonEmpty, exclude: nonEmpty },
          minProperties: 1,
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
    since: {
      type: "object",
      properties: { days: { type: "integer", minimum: 1 } },
      required: ["days"],
      additionalProperties: false,
    },
    dedupe: {
      type: "object",
      properties: { by: { enum: [...DEDUPE_KEYS] } },
      additionalProperties: false,
    },
    exclude: {
      type: "object",
      minProperties: 1,
      properties: {
        sources: { type: "array", items: sourceName, minItems: 1 },
        liked: { type: "boolean" },
        tombstones: { type: "boolean" },
      },
      additionalProperties: false,
    },
    sort: {
      type: "object",
      properties: { by: { enum: [...SORT_KEYS] }, order: { enum: ["asc", "desc"] } },
      required: ["by"],
      additionalProperties: false,
    },
    shuffle: {
      type: "object",
      properties: { period: { enum: [...SHUFFLE_PERIODS] }, seed: { type: "string" } },
      additionalProperties: false,
    },
    limit: { type: "integer", minimum: 1 },
    expand: {
      enum: [...EXPAND_KINDS],
      description:
        "Turn each item into the artists credited on it or the album it is on (first appearance kept), for subscriptions and library albums targets.",
    },
  },
} as const;

const playlistTitle = { type: "string", minLength: 1, maxLength: 150, pattern: "^[^<>]*$" } as const;
// The service takes 5,000 characters; 100 are kept for the ownership marker the engine appends.
const playlistDescription = {
  type: "string",
  maxLength: 4900,
  pattern: "^[^<>]*$",
  description: "At most 4,900 characters: the engine appends its ownership marker.",
} as const;

const target = {
  type: "object",
  required: ["type"],
  discriminator: { propertyName: "type" },
  oneOf: [
    {
      type: "object",
      properties: {
        type: { const: "playlist" },
        playlist: {
          type: "object",
          properties: {
            id: nonEmpty,
            title: playlistTitle,
            description: playlistDescription,
            privacy: { enum: [...PRIVACY] },
          },
          minProperties: 1,
          additionalProperties: false,
        },
        allow_delete: { type: "boolean" },
      },
      required: ["type", "playlist"],
      additionalProperties: false,
    },
    {
      type: "object",
      properties: { type: { const: "likes" }, rating: { enum: ["LIKE", "DISLIKE"] } },
      required: ["type"],
      additionalProperties: false,
    },
    {
      type: "object",
      properties: { type: { const: "library" }, kind: { enum: [...LIBRARY_TARGET_KINDS] } },
      required: ["type", "kind"],
      additionalProperties: false,
    },
    {
      type: "object",
      properties: { type: { const: "subscriptions" } },
      required: ["type"],
      additionalProperties: false,
    },
    {
      type: "object",
      properties: { type: { const: "saved_episodes" } },
      required: ["type"],
      additionalProperties: false,
    },
  ],
} as const;

const sourceSchema = {
  type: "object",
  required: ["id", "type"],
  discriminator: { propertyName: "type" },
  oneOf: [
    source("playlist", { playlistId: nonEmpty }, ["playlistId"]),
    source("album", { browseId: { type: "string", pattern: "^MPRE" }, audioPlaylistId: nonEmpty }),
    source("artist", { channelId: nonEmpty, section: { enum: [...ARTIST_SECTIONS] } }, ["channelId"]),
    source("search", { query: nonEmpty, filter: { enum: [...SEARCH_FILTERS] } }, ["query"]),
    source("chart", {
      country: { type: "string", pattern: "^[A-Z]{2}$" },
      section: { enum: [...CHART_SECTIONS] },
    }),
    source("mood", { category: nonEmpty, playlist: nonEmpty }, ["category"]),
    source("radio", { videoId: videoIdPattern, playlistId: nonEmpty, from: sourceName }),
    source("liked", {}),
    source("library", { kind: { enum: [...LIBRARY_KINDS] } }, ["kind"]),
    source("history", {}),
    source("podcast", { playlistId: nonEmpty }, ["playlistId"]),
    source("new_episodes", {}),
    source("saved_episodes", {}),
    source("static", { videoIds: { type: "array", items: videoIdPattern, minItems: 1 } }, ["videoIds"]),
    source("self", {}),
    source(
      "file",
      {
        path: { ...nonEmpty, description: "The file, relative to the recipe file's folder." },
        format: {
          enum: [...FILE_FORMATS],
          description: "Default: from the file's extension, then its content.",
        },
        columns: {
          type: "object",
          description: "A generic CSV's columns by header name.",
          properties: {
            title: nonEmpty,
            artists: nonEmpty,
            album: nonEmpty,
            duration: nonEmpty,
            duration_unit: { enum: ["ms", "s"] },
            isrc: nonEmpty,
            explicit: nonEmpty,
            video_id: nonEmpty,
          },
          required: ["title"],
          additionalProperties: false,
        },
        strict: { type: "boolean", description: "A row that cannot be read refuses the whole file." },
      },
      ["path"],
    ),
  ],
} as const;

/** The schema of one recipe document. */
export const recipeSchema = {
  $id: "https://musicapi.dev/schemas/recipe.schema.json",
  title: "musicsync recipe",
  type: "object",
  properties: {
    apiVersion: { const: "musicsync/v1" },
    kind: { const: "Recipe" },
    id: {
      type: "string",
      pattern: "^[a-z0-9][a-z0-9-]*$",
      maxLength: 64,
      description: "Stable id; the engine's state is keyed on it.",
    },
    description: { type: "string" },
    account: { ...nonEmpty, description: "An account of musicsync.yaml (default: `default`)." },
    schedule: {
      type: "object",
      properties: {
        cron: { type: "string", pattern: "^\\S+( +\\S+){4,5}$" },
        timezone: nonEmpty,
        jitter: {
          type: "string",
          pattern: "^[0-9]+(s|m|h)$",
          description: "Start each run up to this long after its time (e.g. `90s`, `10m`), spreading load.",
        },
      },
      required: ["cron"],
      additionalProperties: false,
    },
    sources: { type: "array", items: sourceSchema, minItems: 1 },
    pipeline: { type: "array", items: pipelineStep },
    target,
    mode: { enum: [...MODES] },
    policy,
  },
  required: ["apiVersion", "kind", "id", "sources", "target"],
  additionalProperties: false,
} as const;

const httpUrl = { type: "string", pattern: "^https?://\\S+$" } as const;

const notifyCommon = {
  name: { ...sourceName, description: "Names the target in logs and metrics (default: type-position)." },
  events: {
    type: "array",
    items: { enum: [...NOTIFY_EVENTS] },
    minItems: 1,
    uniqueItems: true,
    description: "The events sent to this target (default: all but `applied`).",
  },
} as const;

const httpHeaders = {
  type: "object",
  description: "Sent with each notification (e.g. an Authorization for the receiver); never logged.",
  propertyNames: { type: "string", pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" },
  additionalProperties: { type: "string" },
} as const;

const notifyTarget = {
  type: "object",
  required: ["type"],
  discriminator: { propertyName: "type" },
  oneOf: [
    {
      type: "object",
      description: "A JSON POST of the event.",
      properties: { type: { const: "webhook" }, ...notifyCommon, url: httpUrl, headers: httpHeaders },
      required: ["type", "url"],
      additionalProperties: false,
    },
    {
      type: "object",
      description: "An ntfy topic: the message as text, with Title, Priority and Tags headers.",
      properties: {
        type: { const: "ntfy" },
        ...notifyCommon,
        url: { ...httpUrl, description: "The topic's URL, e.g. https://ntfy.sh/my-musicsync." },
        headers: httpHeaders,
        priority: { type: "integer", minimum: 1, maximum: 5, description: "Default: by event." },
        tags: { type: "array", items: nonEmpty },
      },
      required: ["type", "url"],
      additionalProperties: false,
    },
    {
      type: "object",
      description: "A program run without a shell, the event as JSON on stdin and in MUSICSYNC_* variables.",
      properties: {
        type: { const: "command" },
        ...notifyCommon,
        command: {
          type: "array",
          items: nonEmpty,
          minItems: 1,
          description: "The program and its arguments.",
        },
      },
      required: ["type", "command"],
      additionalProperties: false,
    },
  ],
} as const;

/** The schema of `musicsync.yaml`. */
export const projectSchema = {
  $id: "https://musicapi.dev/schemas/project.schema.json",
  title: "musicsync project",
  type: "object",
  properties: {
    apiVersion: { const: "musicsync/v1" },
    kind: { const: "Project" },
    accounts: {
      type: "object",
      description:
        "The accounts recipes run as; may be left out when they are stored in the state (`musicsync accounts add`).",
      propertyNames: sourceName,
      additionalProperties: {
        type: "object",
        properties: {
          auth: {
            ...nonEmpty,
            description:
              "Browser-headers file or OAuth token file, or the headers or token themselves (JSON or header text).",
          },
          token: { ...nonEmpty, description: "OAuth token file, or the token JSON itself." },
          oauth_client: {
            type: "object",
            properties: { id: nonEmpty, secret: nonEmpty },
            required: ["id", "secret"],
            additionalProperties: false,
          },
          brand_account: { type: "string", pattern: "^[0-9]{21}$" },
          language: nonEmpty,
          location: { type: "string", pattern: "^[A-Z]{2}$" },
          base_url: { type: "string", pattern: "^https?://" },
          emulator: {
            type: "object",
            description:
              "The embedded emulator instead of real credentials: started for each command, signed in as one of its accounts.",
            properties: {
              db: {
                ...nonEmpty,
                description: "Its database, relative to the project file (default emulator.db).",
              },
              seed: { type: "integer", minimum: 0 },
              catalogue: { type: "integer", minimum: 1, description: "Songs in the generated catalogue." },
              account: { type: "integer", minimum: 1, description: "The seeded account to sign in as." },
            },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    },
    defaults: {
      type: "object",
      properties: {
        account: nonEmpty,
        mode: { enum: [...MODES] },
        timezone: nonEmpty,
        policy,
      },
      additionalProperties: false,
    },
    pacing: {
      type: "object",
      properties: {
        min_interval_ms: { type: "integer", minimum: 0 },
        max_writes_per_minute: { type: "integer", minimum: 1 },
        suspend_after_failures: { type: "integer", minimum: 1 },
      },
      additionalProperties: false,
    },
    recipes: { type: "array", items: nonEmpty },
    state: nonEmpty,
    undo: {
      type: "object",
      description: "`musicsync undo` and the undoable marks of `history`.",
      properties: {
        max_age_days: {
          type: "integer",
          minimum: 0,
          description:
            "Runs older than this many days are not undone (default 90; `undo --max-age-days` overrides it).",
        },
      },
      additionalProperties: false,
    },
    file_sources: {
      type: "object",
      description: "What `file` sources may read.",
      properties: {
        allow: {
          type: "array",
          items: nonEmpty,
          description:
            "Folders outside the project folder that file sources may read (absolute, or relative to the project file); the project folder is always allowed.",
        },
      },
      additionalProperties: false,
    },
    notify: {
      type: "array",
      items: notifyTarget,
      description:
        "Where the daemon and `sync` send notifications of failures, suspensions, expiring credentials…",
    },
  },
  required: ["apiVersion", "kind"],
  additionalProperties: false,
} as const;

/** What `recipes/project.schema.json` holds: a project file (`musicsync.yaml`). */
export function exportedProjectSchema(): Record<string, unknown> {
  return { $schema: "http://json-schema.org/draft-07/schema#", ...projectSchema };
}

/** What `recipes/recipe.schema.json` holds: a recipe document (editors match it on recipe files). */
export function exportedRecipeSchema(): Record<string, unknown> {
  return { $schema: "http://json-schema.org/draft-07/schema#", ...recipeSchema };
}
