/**
 * The JSON Schema of a saved plan document (`plan -o plan.json`), written from the Plan type
 * (engine/plan/types.ts) and the document around it (engine/render/json.ts). `apply` sends what a
 * plan file says, so the whole file is checked before anything is sent: a hand-edited or damaged
 * plan is refused with the JSON path of the first bad field. Every object is closed
 * (`additionalProperties: false`); test/engine/render/plan-schema.test.ts validates real plans of every
 * target type and mode against it, so a field added to Plan without adding it here fails there.
 */
import { createRequire } from "node:module";
import type { Ajv as AjvClass, ErrorObject, ValidateFunction } from "ajv";
import { LIBRARY_TARGET_KINDS, MODES, PRIVACY } from "../recipe/types.js";

type Schema = Record<string, unknown>;

const str: Schema = { type: "string" };
const id: Schema = { type: "string", minLength: 1 };
const nullableStr: Schema = { type: ["string", "null"] };
const count: Schema = { type: "integer", minimum: 0 };
const ids: Schema = { type: "array", items: id };
const privacy: Schema = { enum: [...PRIVACY] };

/** A closed object: every property listed is required unless named in `optional`. */
function object(properties: Record<string, Schema>, optional: readonly string[] = []): Schema {
  return {
    type: "object",
    additionalProperties: false,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    properties,
  };
}

/** One of several closed objects told apart by `tag` (ajv's discriminator: clear errors). */
function tagged(
  tag: string,
  branches: Record<string, Record<string, Schema>>,
  optional: Record<string, string[]> = {},
) {
  return {
    type: "object",
    discriminator: { propertyName: tag },
    required: [tag],
    oneOf: Object.entries(branches).map(([name, props]) =>
      object({ [tag]: { const: name }, ...props }, optional[name] ?? []),
    ),
  };
}

const targetSpec = tagged("type", {
  playlist: {
    playlist: object({
      id: nullableStr,
      title: nullableStr,
      description: nullableStr,
      privacy: { enum: [...PRIVACY, null] },
    }),
    allow_delete: { type: "boolean" },
  },
  likes: { rating: { enum: ["LIKE", "DISLIKE"] } },
  library: { kind: { enum: [...LIBRARY_TARGET_KINDS] } },
  subscriptions: {},
  saved_episodes: {},
});

const rowRef = object({ videoId: id, setVideoId: nullableStr });

const action = tagged(
  "kind",
  {
    create_playlist: { title: str, description: str, privacy, videoIds: ids },
    edit_playlist: { playlistId: id, title: str, description: str, privacy },
    add_playlist_items: { playlistId: { type: ["string", "null"], minLength: 1 }, videoIds: ids },
    remove_playlist_items: { playlistId: id, videos: { type: "array", items: rowRef } },
    move_playlist_items: {
      playlistId: { type: ["string", "null"], minLength: 1 },
      moves: { type: "array", items: object({ row: rowRef, before: { anyOf: [rowRef, { type: "null" }] } }) },
    },
    rate_song: { videoId: id, rating: { enum: ["LIKE", "DISLIKE", "INDIFFERENT"] } },
    rate_playlist: { playlistId: id, rating: { enum: ["LIKE", "INDIFFERENT"] } },
    edit_song_library_status: { feedbackTokens: ids, videoIds: ids, direction: { enum: ["add", "remove"] } },
    subscribe_artists: { channelIds: ids },
    unsubscribe_artists: { channelIds: ids },
    // Only in undo plans (`musicsync undo --delete-created`).
    delete_playlist: { playlistId: id },
  },
  {
    edit_playlist: ["title", "description", "privacy"],
    // Plans saved before a library edit named its songs and direction still load.
    edit_song_library_status: ["videoIds", "direction"],
  },
);

const line = object({
  op: { enum: ["add", "keep", "move", "remove", "rate", "skip"] },
  key: nullableStr,
  label: str,
  videoId: nullableStr,
  source: nullableStr,
  rank: { type: ["integer", "null"] },
  reason: nullableStr,
});

const summary = object(
  Object.fromEntries(
    ["add", "remove", "move", "rate", "keep", "skip", "create", "edit", "requests"].map((k) => [k, count]),
  ),
);

const source = object({
  id: str,
  key: str,
  items: count,
  counted: { type: "boolean" },
  truncated: { type: "boolean" },
  last: { type: ["integer", "null"], minimum: 0 },
  record: { type: "boolean" },
});

const plan = object(
  {
    version: { const: 1 },
    recipe: object({ id, hash: str }),
    account: id,
    mode: { enum: [...MODES] },
    target: object({
      spec: targetSpec,
      playlistId: nullableStr,
      exists: { type: "boolean" },
      fingerprint: id,
      rows: count,
    }),
    actions: { type: "array", items: action },
    lines: { type: "array", items: line },
    // Guard names grow with the guards; what apply needs is that each is a named note.
    guards: {
      type: "array",
      items: object({ guard: id, message: str, blocks: { enum: ["removals", "all", "adds", "none"] } }),
    },
    errors: { type: "array", items: str },
    tombstones: { type: "array", items: str },
    summary,
    sources: { type: "array", items: source },
    notes: {
      type: "array",
      items: object({ source: id, kind: { enum: ["unmatched", "unreadable"] }, text: str }),
    },
    part: object({ index: { type: "integer", minimum: 1 }, of: { type: "integer", minimum: 1 } }),
    heldForApproval: str,
  },
  ["sources", "notes", "part", "heldForApproval"],
);

export const planDocumentSchema: Schema = object(
  {
    format: { const: "musicsync-plan" },
    version: { const: 1 },
    plans: { type: "array", items: plan },
    failed: {
      type: "array",
      items: object({
        recipe: str,
        target: { anyOf: [targetSpec, { type: "null" }] },
        mode: { enum: [...MODES, null] },
        error: str,
      }),
    },
  },
  ["failed"],
);

let compiled: ValidateFunction | null = null;

/**
 * The compiled schema. ajv (some 60 files) is loaded here, by the first plan file read, not by every
 * command that imports this module on the way to writing plans: required, since reading a plan is
 * synchronous.
 */
function validator(): ValidateFunction {
  if (compiled) return compiled;
  const { Ajv } = createRequire(import.meta.url)("ajv") as { Ajv: typeof AjvClass };
  compiled = new Ajv({
    discriminator: true,
    strict: true,
    strictRequired: false,
    allErrors: false,
  }).compile(planDocumentSchema);
  return compiled;
}

/** `plans[0].actions[2].videoIds[1]` from ajv's `/plans/0/actions/2/videoIds/1`. */
export function jsonPath(pointer: string): string {
  let out = "";
  for (const raw of pointer.split("/").slice(1)) {
    const seg = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg.length > 40 ? `${seg.slice(0, 40)}…` : seg)}]`;
  }
  return out || "the document";
}

function describe(err: ErrorObject): string {
  const at = (extra?: string) =>
    jsonPath(extra === undefined ? err.instancePath : `${err.instancePath}/${extra}`);
  const p = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case "required":
      return `${at(String(p.missingProperty))} is missing`;
    case "additionalProperties":
      return `${at(String(p.additionalProperty))} is not a field of a plan`;
    case "discriminator":
      return p.error === "mapping"
        ? `${at(String(p.tag))}: unknown value ${JSON.stringify(p.tagValue)}`
        : `${at(String(p.tag))} must be a string`;
    case "enum":
      return `${at()} must be one of: ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "const":
      return `${at()} must be ${JSON.stringify(p.allowedValue)}`;
    default:
      return `${at()} ${err.message ?? "is not valid"}`;
  }
}

/** Null when the document is a plan document; else what is wrong and where, as a JSON path. */
export function planDocumentProblem(doc: unknown): string | null {
  const validate = validator();
  if (validate(doc)) return null;
  const err = validate.errors?.[0];
  return err ? describe(err) : "the document is not a plan";
}
