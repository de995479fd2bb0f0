/**
 * Credential pieces in text the engine produced (stdout, stderr, logs, plans, the state database):
 * any 12-character piece of a secret, raw, URL-encoded (once or twice) or inside base64 at any
 * offset. soak.ts runs it beside the shared checker (test/support/credential-leaks.ts), which
 * spells each secret out in every encoding; this one decodes the text instead, so the two miss
 * different things.
 */

import { WindowFilter } from "../support/window-filter.js";

const PIECE = 12;

/** The secret values of browser headers: every cookie value and the authorization hash. */
export function secretsOfHeaders(headers: Record<string, string>): string[] {
  const out = new Set<string>();
  for (const part of (headers.cookie ?? headers.Cookie ?? "").split(";")) {
    const value = part.slice(part.indexOf("=") + 1).trim();
    if (value.length >= PIECE) out.add(value);
  }
  const auth = headers.authorization ?? headers.Authorization ?? "";
  const hash = auth.split(/\s+/).pop() ?? "";
  if (hash.length >= PIECE) out.add(hash);
  return [...out];
}

function pieces(secrets: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const s of secrets) for (let i = 0; i + PIECE <= s.length; i++) out.add(s.slice(i, i + PIECE));
  return out;
}

/** The pieces of the latest secret list and their filter: the soak scans many texts with one list. */
let latest: { key: string; wanted: Set<string>; filter: WindowFilter } | null = null;

function wantedOf(secrets: readonly string[]) {
  const key = JSON.stringify(secrets);
  if (latest?.key !== key) {
    const wanted = pieces(secrets);
    latest = { key, wanted, filter: new WindowFilter(PIECE, wanted) };
  }
  return latest;
}

function urlDecoded(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

/** Every run that could be base64 (standard or URL alphabet), decoded from each of its 4 offsets. */
function base64Decoded(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[A-Za-z0-9+/_-]{16,}={0,2}/g)) {
    const run = m[0].replace(/-/g, "+").replace(/_/g, "/");
    for (let o = 0; o < 4; o++) out.push(Buffer.from(run.slice(o), "base64").toString("latin1"));
  }
  return out;
}

/** The variants of a text a secret could hide in. */
function variants(text: string): { encoding: string; text: string }[] {
  const once = urlDecoded(text);
  return [
    { encoding: "raw", text },
    { encoding: "url-encoded", text: once },
    { encoding: "url-encoded twice", text: urlDecoded(once) },
    ...base64Decoded(text).map((t) => ({ encoding: "base64", text: t })),
  ];
}

export interface Leak {
  encoding: string;
  /** The piece found, masked: its first 3 characters only, so reports never leak it again. */
  piece: string;
  at: number;
}

/** Where secret pieces occur in `text` (at most one finding per encoding). */
export function findLeaks(text: string, secrets: readonly string[]): Leak[] {
  const { wanted, filter } = wantedOf(secrets);
  if (wanted.size === 0) return [];
  const found: Leak[] = [];
  for (const v of variants(text)) {
    filter.scan(v.text, (i) => {
      const piece = v.text.slice(i, i + PIECE);
      if (!wanted.has(piece)) return false;
      found.push({ encoding: v.encoding, piece: `${piece.slice(0, 3)}…`, at: i });
      return true;
    });
  }
  return found;
}
