/**
 * The shape of recipe files and of `musicsync.yaml`, said once. From it come the JSON Schema ajv
 * checks (validators-code.ts makes the validators, export-schema.ts writes
 * `recipes/recipe.schema.json` for editors; a test keeps both in step) and, through `Static`, the
 * TypeScript types of a file as written (input.ts).
 *
 * Written with TypeBox rather than types generated from a JSON Schema: one definition in TypeScript
 * gives both, with no generated file of types to keep in step and nothing to run after a change.
 * Its builders make plain JSON Schema; where this schema must say something TypeBox's builders
 * would say otherwise (`const` without a `type`, `enum` rather than a union of literals, a `type`
 * discriminator, named keys), the helpers below write that JSON Schema and give its type, so ajv
 * sees, and reports errors against, the same schema as before.
 *
 * TypeBox is loaded only where the schema is made into files (export-schema.ts): the commands check
 * with the validators made from it and take the rules they share from vocabulary.ts, so no start
 * pays for loading it.
 *
 * Sources and targets are `oneOf` branches chosen by their `type` (ajv's `discriminator`), so a
 * mistake inside one branch is reported once, against that branch only.
 */
import { type Static, type TSchema, Type } from "typebox";
import { FILE_FORMATS } from "../files/types.js";
import {
  ACCOUNT_PATTERNS,
  ARTIST_SECTIONS,
  CHART_SECTIONS,
  COMBINE_OPS,
  DEDUPE_KEYS,
  EXPAND_KINDS,
  LASTFM_LISTS,
  LASTFM_PERIODS,
  LIBRARY_KINDS,
  LIBRARY_TARGET_KINDS,
  LISTENBRAINZ_RANGES,
  LISTENBRAINZ_SERIES,
  MBID_PATTERN,
  MODES,
  NAME_RULE,
  NOTIFY_EVENTS,
  PRIVACY,
  PROJECT_SCHEMA_ID,
  RECIPE_SCHEMA_ID,
  SEARCH_FILTERS,
  SHUFFLE_PERIODS,
  SORT_KEYS,
  SPOTIFY_LIBRARY,
} from "./vocabulary.js";

type Options = Record<string, unknown>;

/** Exactly `value`; `{ const }` alone, so a wrong value is one error, not a type error as well. */
function constant<const T extends string>(value: T) {
  return Type.Unsafe<T>({ const: value });
}

/** One of a list of words (`{ enum }`). */
function word<const T extends readonly string[]>(words: T, options: Options = {}) {
  return Type.Unsafe<T[number]>({ enum: [...words], ...options });
}

/** Branches told apart by their `type`: ajv checks only the branch `type` names. */
function byType<const B extends TSchema[]>(required: string[], branches: [...B], options: Options = {}) {
  return Type.Unsafe<Static<ReturnType<typeof Type.Union<B>>>>({
    type: "object",
    ...options,
    required,
    discriminator: { propertyName: "type" },
    oneOf: branches,
  });
}

/** A mapping of names (matching `names`) to values of one shape. */
function named<V extends TSchema>(names: TSchema, value: V, options: Options = {}) {
  return Type.Unsafe<Record<string, Static<V>>>({
    type: "object",
    ...options,
    propertyNames: names,
    additionalProperties: value,
  });
}

const closed = { additionalProperties: false } as const;

const sourceName = () => Type.String({ ...NAME_RULE });
const nonEmpty = (options: Options = {}) => Type.String({ minLength: 1, ...options });
const videoIdPattern = () => Type.String({ pattern: "^[A-Za-z0-9_-]{11}$" });
const stringList = () => Type.Array(nonEmpty());

function source<const T extends string, P extends Record<string, TSchema>>(type: T, properties: P) {
  return Type.Object(
    {
      id: sourceName(),
      type: constant(type),
      limit: Type.Optional(Type.Integer({ minimum: 1, description: "Read at most this many items." })),
      ...properties,
    },
    closed,
  );
}

const requireApproval = Type.Object(
  {
    removals: Type.Optional(
      Type.Integer({ minimum: 0, description: "Most removals applied without approval." }),
    ),
    removals_percent: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 100,
        description: "Most removals, as a percentage of the target's rows, applied without approval.",
      }),
    ),
  },
  {
    description:
      "Hold a plan for `musicsync approve` when its removals pass either threshold (the daemon does not apply it; `sync` needs --approve). A recipe's value replaces the project's; {} holds nothing.",
    ...closed,
  },
);

const policy = Type.Object(
  {
    max_removals: Type.Optional(
      Type.Integer({ minimum: 0, description: "Removals above this number are all blocked." }),
    ),
    min_source_items: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: "A source total below this looks truncated and blocks removals.",
      }),
    ),
    min_source_ratio: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description:
          "A source without an item count that returns less than this share of its last complete read (and at least 5 items fewer) looks cut short and blocks removals; 0 turns the check off.",
      }),
    ),
    allow_empty: Type.Optional(
      Type.Boolean({ description: "Whether an empty desired list may empty the target." }),
    ),
    order: Type.Optional(word(["source", "keep"])),
    on_drift: Type.Optional(word(["adopt", "revert"])),
    overflow: Type.Optional(word(["truncate", "error", "split", "rotate"])),
    batch_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    override_ratings: Type.Optional(
      Type.Boolean({
        description:
          "Likes targets: also rate songs the person rated the other way by hand (default false: they are skipped).",
      }),
    ),
    require_approval: Type.Optional(requireApproval),
  },
  closed,
);

const filterStep = Type.Object(
  {
    available: Type.Optional(Type.Boolean()),
    explicit: Type.Optional(Type.Boolean()),
    videoType: Type.Optional(Type.Array(nonEmpty(), { minItems: 1 })),
    duration: Type.Optional(
      Type.Object(
        {
          min: Type.Optional(Type.Integer({ minimum: 0 })),
          max: Type.Optional(Type.Integer({ minimum: 0 })),
        },
        { minProperties: 1, ...closed },
      ),
    ),
    artists: Type.Optional(
      Type.Object(
        { include: Type.Optional(stringList()), exclude: Type.Optional(stringList()) },
        { minProperties: 1, ...closed },
      ),
    ),
    title: Type.Optional(
      Type.Object(
        { include: Type.Optional(nonEmpty()), exclude: Type.Optional(nonEmpty()) },
        { minProperties: 1, ...closed },
      ),
    ),
  },
  { minProperties: 1, ...closed },
);

const pipelineStep = Type.Object(
  {
    combine: Type.Optional(
      Type.Object({ op: word(COMBINE_OPS), sources: Type.Array(sourceName(), { minItems: 1 }) }, closed),
    ),
    filter: Type.Optional(filterStep),
    since: Type.Optional(Type.Object({ days: Type.Integer({ minimum: 1 }) }, closed)),
    dedupe: Type.Optional(Type.Object({ by: Type.Optional(word(DEDUPE_KEYS)) }, closed)),
    exclude: Type.Optional(
      Type.Object(
        {
          sources: Type.Optional(Type.Array(sourceName(), { minItems: 1 })),
          liked: Type.Optional(Type.Boolean()),
          tombstones: Type.Optional(Type.Boolean()),
        },
        { minProperties: 1, ...closed },
      ),
    ),
    sort: Type.Optional(
      Type.Object({ by: word(SORT_KEYS), order: Type.Optional(word(["asc", "desc"])) }, closed),
    ),
    shuffle: Type.Optional(
      Type.Object(
        { period: Type.Optional(word(SHUFFLE_PERIODS)), seed: Type.Optional(Type.String()) },
        closed,
      ),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1 })),
    expand: Type.Optional(
      word(EXPAND_KINDS, {
        description:
          "Turn each item into the artists credited on it or the album it is on (first appearance kept), for subscriptions and library albums targets.",
      }),
    ),
  },
  {
    description: "One step, written as an object with exactly one key.",
    minProperties: 1,
    maxProperties: 1,
    ...closed,
  },
);

const playlistTitle = () => Type.String({ minLength: 1, maxLength: 150, pattern: "^[^<>]*$" });
// The service takes 5,000 characters; 100 are kept for the ownership marker the engine appends.
const playlistDescription = () =>
  Type.String({
    maxLength: 4900,
    pattern: "^[^<>]*$",
    description: "At most 4,900 characters: the engine appends its ownership marker.",
  });

const target = byType(
  ["type"],
  [
    Type.Object(
      {
        type: constant("playlist"),
        playlist: Type.Object(
          {
            id: Type.Optional(nonEmpty()),
            title: Type.Optional(playlistTitle()),
            description: Type.Optional(playlistDescription()),
            privacy: Type.Optional(word(PRIVACY)),
          },
          { minProperties: 1, ...closed },
        ),
        allow_delete: Type.Optional(Type.Boolean()),
      },
      closed,
    ),
    Type.Object({ type: constant("likes"), rating: Type.Optional(word(["LIKE", "DISLIKE"])) }, closed),
    Type.Object({ type: constant("library"), kind: word(LIBRARY_TARGET_KINDS) }, closed),
    Type.Object({ type: constant("subscriptions") }, closed),
    Type.Object({ type: constant("saved_episodes") }, closed),
  ],
);

const csvColumns = Type.Object(
  {
    title: nonEmpty(),
    artists: Type.Optional(nonEmpty()),
    album: Type.Optional(nonEmpty()),
    duration: Type.Optional(nonEmpty()),
    duration_unit: Type.Optional(word(["ms", "s"])),
    isrc: Type.Optional(nonEmpty()),
    explicit: Type.Optional(nonEmpty()),
    video_id: Type.Optional(nonEmpty()),
  },
  { description: "A generic CSV's columns by header name.", ...closed },
);

const sourceSchema = byType(
  ["id", "type"],
  [
    source("playlist", { playlistId: nonEmpty() }),
    source("album", {
      browseId: Type.Optional(Type.String({ pattern: "^MPRE" })),
      audioPlaylistId: Type.Optional(nonEmpty()),
    }),
    source("artist", { channelId: nonEmpty(), section: Type.Optional(word(ARTIST_SECTIONS)) }),
    source("search", { query: nonEmpty(), filter: Type.Optional(word(SEARCH_FILTERS)) }),
    source("chart", {
      country: Type.Optional(Type.String({ pattern: "^[A-Z]{2}$" })),
      section: Type.Optional(word(CHART_SECTIONS)),
    }),
    source("mood", { category: nonEmpty(), playlist: Type.Optional(nonEmpty()) }),
    source("radio", {
      videoId: Type.Optional(videoIdPattern()),
      playlistId: Type.Optional(nonEmpty()),
      from: Type.Optional(sourceName()),
    }),
    source("liked", {}),
    source("library", { kind: word(LIBRARY_KINDS) }),
    source("history", {}),
    source("podcast", { playlistId: nonEmpty() }),
    source("new_episodes", {}),
    source("saved_episodes", {}),
    source("static", { videoIds: Type.Array(videoIdPattern(), { minItems: 1 }) }),
    source("self", {}),
    source("file", {
      path: nonEmpty({ description: "The file, relative to the recipe file's folder." }),
      format: Type.Optional(
        word(FILE_FORMATS, { description: "Default: from the file's extension, then its content." }),
      ),
      columns: Type.Optional(csvColumns),
      strict: Type.Optional(
        Type.Boolean({ description: "A row that cannot be read refuses the whole file." }),
      ),
    }),
    source("spotify", {
      playlist: Type.Optional(
        nonEmpty({ description: "A playlist's id, open.spotify.com link or spotify:playlist: URI." }),
      ),
      library: Type.Optional(
        word(SPOTIFY_LIBRARY, { description: "The person's liked songs, saved albums or followed artists." }),
      ),
    }),
    source("listenbrainz", {
      user: Type.Optional(
        nonEmpty({ description: "The ListenBrainz user whose playlists or statistics are read." }),
      ),
      series: Type.Optional(
        word(LISTENBRAINZ_SERIES, {
          description: "A playlist ListenBrainz makes for the user: the newest one.",
        }),
      ),
      archived: Type.Optional(
        Type.Boolean({
          description: "With `series`: every playlist of the series ListenBrainz keeps, newest first.",
        }),
      ),
      playlist: Type.Optional(Type.String({ pattern: MBID_PATTERN, description: "A playlist's MBID." })),
      title: Type.Optional(nonEmpty({ description: "The user's own playlist of this title." })),
      top: Type.Optional(
        word(LISTENBRAINZ_RANGES, { description: "The user's most listened recordings over this period." }),
      ),
    }),
    source("lastfm", {
      user: nonEmpty(),
      list: word(LASTFM_LISTS),
      period: Type.Optional(word(LASTFM_PERIODS, { description: "For `list: top` (default overall)." })),
    }),
  ],
);

const schedule = Type.Object(
  {
    cron: Type.String({ pattern: "^\\S+( +\\S+){4,5}$" }),
    timezone: Type.Optional(nonEmpty()),
    jitter: Type.Optional(
      Type.String({
        pattern: "^[0-9]+(s|m|h)$",
        description: "Start each run up to this long after its time (e.g. `90s`, `10m`), spreading load.",
      }),
    ),
  },
  closed,
);

/** The schema of one recipe document. */
export const recipeSchema = Type.Object(
  {
    apiVersion: constant("musicsync/v1"),
    kind: constant("Recipe"),
    id: Type.String({
      pattern: "^[a-z0-9][a-z0-9-]*$",
      maxLength: 64,
      description: "Stable id; the engine's state is keyed on it.",
    }),
    description: Type.Optional(Type.String()),
    account: Type.Optional(nonEmpty({ description: "An account of musicsync.yaml (default: `default`)." })),
    schedule: Type.Optional(schedule),
    sources: Type.Array(sourceSchema, { minItems: 1 }),
    pipeline: Type.Optional(Type.Array(pipelineStep)),
    target,
    mode: Type.Optional(word(MODES)),
    policy: Type.Optional(policy),
  },
  { $id: RECIPE_SCHEMA_ID, title: "musicsync recipe", ...closed },
);

const httpUrl = (options: Options = {}) => Type.String({ pattern: "^https?://\\S+$", ...options });

/** The keys every notify target has, besides its type. */
const notifyCommon = () => ({
  name: Type.Optional(
    Type.String({
      ...NAME_RULE,
      description: "Names the target in logs and metrics (default: type-position).",
    }),
  ),
  events: Type.Optional(
    Type.Array(word(NOTIFY_EVENTS), {
      minItems: 1,
      uniqueItems: true,
      description: "The events sent to this target (default: all but `applied`).",
    }),
  ),
});

const httpHeaders = () =>
  named(Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" }), Type.String(), {
    description: "Sent with each notification (e.g. an Authorization for the receiver); never logged.",
  });

const notifyTarget = byType(
  ["type"],
  [
    Type.Object(
      {
        type: constant("webhook"),
        ...notifyCommon(),
        url: httpUrl(),
        headers: Type.Optional(httpHeaders()),
      },
      { description: "A JSON POST of the event.", ...closed },
    ),
    Type.Object(
      {
        type: constant("ntfy"),
        ...notifyCommon(),
        url: httpUrl({ description: "The topic's URL, e.g. https://ntfy.sh/my-musicsync." }),
        headers: Type.Optional(httpHeaders()),
        priority: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: "Default: by event." })),
        tags: Type.Optional(Type.Array(nonEmpty())),
      },
      {
        description: "An ntfy topic: the message as text, with Title, Priority and Tags headers.",
        ...closed,
      },
    ),
    Type.Object(
      {
        type: constant("command"),
        ...notifyCommon(),
        command: Type.Array(nonEmpty(), {
          minItems: 1,
          description: "The program and its arguments.",
        }),
      },
      {
        description:
          "A program run without a shell, the event as JSON on stdin and in MUSICSYNC_* variables.",
        ...closed,
      },
    ),
  ],
);

const emulatorAccount = Type.Object(
  {
    db: Type.Optional(
      nonEmpty({ description: "Its database, relative to the project file (default emulator.db)." }),
    ),
    seed: Type.Optional(Type.Integer({ minimum: 0 })),
    catalogue: Type.Optional(Type.Integer({ minimum: 1, description: "Songs in the generated catalogue." })),
    account: Type.Optional(Type.Integer({ minimum: 1, description: "The seeded account to sign in as." })),
  },
  {
    description:
      "The embedded emulator instead of real credentials: started for each command, signed in as one of its accounts.",
    ...closed,
  },
);

const account = Type.Object(
  {
    auth: Type.Optional(
      nonEmpty({
        description:
          "Browser-headers file or OAuth token file, or the headers or token themselves (JSON or header text).",
      }),
    ),
    token: Type.Optional(nonEmpty({ description: "OAuth token file, or the token JSON itself." })),
    oauth_client: Type.Optional(Type.Object({ id: nonEmpty(), secret: nonEmpty() }, closed)),
    brand_account: Type.Optional(Type.String({ pattern: ACCOUNT_PATTERNS.brand_account })),
    language: Type.Optional(nonEmpty()),
    location: Type.Optional(Type.String({ pattern: ACCOUNT_PATTERNS.location })),
    base_url: Type.Optional(Type.String({ pattern: ACCOUNT_PATTERNS.base_url })),
    emulator: Type.Optional(emulatorAccount),
  },
  closed,
);

const serviceUrl = (description: string) =>
  Type.Optional(Type.String({ pattern: "^https?://", description }));
const onEmulator = Type.Optional(
  Type.Boolean({
    description:
      "Read this service's stand-in on the project's embedded emulator (an account with `emulator:`).",
  }),
);

/** Where the other services' sources read, and with what keys (each also from the environment). */
const services = Type.Object(
  {
    spotify: Type.Optional(
      Type.Object(
        {
          client_id: Type.Optional(
            nonEmpty({ description: "The app's client id (else SPOTIFY_CLIENT_ID)." }),
          ),
          client_secret: Type.Optional(
            nonEmpty({
              description:
                "For public playlists without signing in (else SPOTIFY_CLIENT_SECRET); from an environment variable, not written here.",
            }),
          ),
          base_url: serviceUrl("The Web API (default https://api.spotify.com/v1)."),
          accounts_url: serviceUrl("Sign-in and tokens (default https://accounts.spotify.com)."),
          token: Type.Optional(
            nonEmpty({
              description:
                "Where `musicsync auth spotify` keeps the person's sign-in (mode 0600), relative to this file (default spotify-token.json).",
            }),
          ),
          emulator: onEmulator,
        },
        closed,
      ),
    ),
    listenbrainz: Type.Optional(
      Type.Object(
        {
          token: Type.Optional(
            nonEmpty({ description: "A user token, for private playlists (else LISTENBRAINZ_TOKEN)." }),
          ),
          base_url: serviceUrl("The API (default https://api.listenbrainz.org)."),
          emulator: onEmulator,
        },
        closed,
      ),
    ),
    lastfm: Type.Optional(
      Type.Object(
        {
          api_key: Type.Optional(
            nonEmpty({
              description:
                "An API key (else LASTFM_API_KEY); from an environment variable, not written here.",
            }),
          ),
          base_url: serviceUrl("The API (default https://ws.audioscrobbler.com/2.0/)."),
          emulator: onEmulator,
        },
        closed,
      ),
    ),
  },
  { description: "The other music services `spotify`, `listenbrainz` and `lastfm` sources read.", ...closed },
);

const pacing = Type.Object(
  {
    min_interval_ms: Type.Optional(Type.Integer({ minimum: 0 })),
    max_writes_per_minute: Type.Optional(Type.Integer({ minimum: 1 })),
    suspend_after_failures: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  closed,
);

/** The schema of `musicsync.yaml`. */
export const projectSchema = Type.Object(
  {
    apiVersion: constant("musicsync/v1"),
    kind: constant("Project"),
    accounts: Type.Optional(
      named(sourceName(), account, {
        description:
          "The accounts recipes run as; may be left out when they are stored in the state (`musicsync accounts add`).",
      }),
    ),
    defaults: Type.Optional(
      Type.Object(
        {
          account: Type.Optional(nonEmpty()),
          mode: Type.Optional(word(MODES)),
          timezone: Type.Optional(nonEmpty()),
          policy: Type.Optional(policy),
        },
        closed,
      ),
    ),
    pacing: Type.Optional(pacing),
    recipes: Type.Optional(Type.Array(nonEmpty())),
    state: Type.Optional(nonEmpty()),
    undo: Type.Optional(
      Type.Object(
        {
          max_age_days: Type.Optional(
            Type.Integer({
              minimum: 0,
              description:
                "Runs older than this many days are not undone (default 90; `undo --max-age-days` overrides it).",
            }),
          ),
        },
        { description: "`musicsync undo` and the undoable marks of `history`.", ...closed },
      ),
    ),
    file_sources: Type.Optional(
      Type.Object(
        {
          allow: Type.Optional(
            Type.Array(nonEmpty(), {
              description:
                "Folders outside the project folder that file sources may read (absolute, or relative to the project file); the project folder is always allowed.",
            }),
          ),
        },
        { description: "What `file` sources may read.", ...closed },
      ),
    ),
    services: Type.Optional(services),
    notify: Type.Optional(
      Type.Array(notifyTarget, {
        description:
          "Where the daemon and `sync` send notifications of failures, suspensions, expiring credentials…",
      }),
    ),
  },
  { $id: PROJECT_SCHEMA_ID, title: "musicsync project", ...closed },
);

/** The parts of the shape the loaded forms (types.ts) take as they are written. */
export const parts = { policy, requireApproval, csvColumns, emulatorAccount, pacing, services };

/** What `recipes/project.schema.json` holds: a project file (`musicsync.yaml`). */
export function exportedProjectSchema(): Record<string, unknown> {
  return { $schema: "http://json-schema.org/draft-07/schema#", ...projectSchema };
}

/** What `recipes/recipe.schema.json` holds: a recipe document (editors match it on recipe files). */
export function exportedRecipeSchema(): Record<string, unknown> {
  return { $schema: "http://json-schema.org/draft-07/schema#", ...recipeSchema };
}
