/** Plain HTTP helpers for the emulator tests (undici, loopback only). */
import { gzipSync } from "node:zlib";
import { request } from "undici";
import type { RunningEmulator } from "../../emulator/index.js";

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: unknown;
  text: string;
}

export type Json = Record<string, unknown>;

export async function call(
  emu: RunningEmulator,
  path: string,
  options: {
    method?: "GET" | "POST" | "DELETE";
    body?: string | Buffer;
    headers?: Record<string, string>;
  } = {},
): Promise<Reply> {
  const r = await request(emu.url + path, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    body: options.body,
    headers: options.headers,
  });
  const text = await r.body.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: r.statusCode, headers: r.headers, json, text };
}

/** POST /youtubei/v1/<endpoint> with a WEB_REMIX context, as clients send it. */
export function api(
  emu: RunningEmulator,
  endpoint: string,
  body: Json,
  headers: Record<string, string> = {},
  options: { query?: string; gzip?: boolean; user?: string; language?: string } = {},
): Promise<Reply> {
  const context: Json = {
    client: { clientName: "WEB_REMIX", clientVersion: "1.20260101.01.00", hl: options.language ?? "en" },
    user: {},
  };
  if (options.user) (context.user as Json).onBehalfOfUser = options.user;
  const text = JSON.stringify({ context, ...body });
  return call(emu, `/youtubei/v1/${endpoint}?alt=json${options.query ?? ""}`, {
    body: options.gzip ? gzipSync(text) : text,
    headers: {
      "content-type": "application/json",
      ...(options.gzip ? { "content-encoding": "gzip" } : {}),
      ...headers,
    },
  });
}

/** Ready-made browser headers for a seeded account, from the control endpoint. */
export async function headersFor(emu: RunningEmulator, accountId = 1): Promise<Record<string, string>> {
  const r = await call(emu, `/_emulator/accounts/${accountId}/headers`);
  return r.json as Record<string, string>;
}

/** Walks a path of keys / indexes (negative = from the end); undefined when absent. */
/** Where a single-column browse page keeps its section list (the tests read many such pages). */
export const SECTION_LIST = [
  "contents",
  "singleColumnBrowseResultsRenderer",
  "tabs",
  0,
  "tabRenderer",
  "content",
  "sectionListRenderer",
] as const;

export function at(value: unknown, ...path: (string | number)[]): unknown {
  let v: unknown = value;
  for (const k of path) {
    if (v === null || v === undefined) return undefined;
    if (typeof k === "number") {
      if (!Array.isArray(v)) return undefined;
      v = v[k < 0 ? v.length + k : k];
    } else {
      if (typeof v !== "object" || Array.isArray(v)) return undefined;
      v = (v as Json)[k];
    }
  }
  return v;
}

/** Every object anywhere in `value` that has key `name` (its value). */
export function findAll(value: unknown, name: string): unknown[] {
  const out: unknown[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k === name) out.push(x);
        walk(x);
      }
    }
  };
  walk(value);
  return out;
}

/** The set of renderer paths in a response, array positions folded (`contents[]`). */
export function rendererPaths(value: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, p: string) => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x, p + "[]");
    } else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        const np = p ? `${p}.${k}` : k;
        if (/(Renderer|ViewModel)$/.test(k)) out.add(np);
        walk(x, np);
      }
    }
  };
  walk(value, "");
  return out;
}

export const PLAYLIST_ROWS = [
  "contents",
  "twoColumnBrowseResultsRenderer",
  "secondaryContents",
  "sectionListRenderer",
  "contents",
  0,
  "musicPlaylistShelfRenderer",
  "contents",
] as const;
