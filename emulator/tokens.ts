/**
 * Opaque tokens the emulator hands out and later reads back: continuation tokens (they carry the
 * query and the offset, so paging needs no server memory) and feedback tokens (they carry the
 * library action they perform). Both are URL-safe, as the service's are, since clients append
 * continuation tokens to the URL unencoded.
 */

const CONTINUATION_PREFIX = "4qmFsgEMU";
const FEEDBACK_PREFIX = "AB9zfpEMU";

function encode(prefix: string, value: unknown): string {
  return prefix + Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

function decode(prefix: string, token: string): unknown {
  // Tokens may arrive percent-encoded (`%3D`) or not: normalise first.
  let t = token;
  try {
    t = decodeURIComponent(token);
  } catch {
    return null;
  }
  if (!t.startsWith(prefix)) return null;
  try {
    return JSON.parse(Buffer.from(t.slice(prefix.length), "base64url").toString("utf8"));
  } catch {
    return null;
  }
}

/** What a continuation resumes: which list (`k`), its arguments, and where the next page starts. */
export interface Continuation {
  k: string;
  o: number;
  [key: string]: string | number | boolean | null;
}

export const continuationToken = (c: Continuation): string => encode(CONTINUATION_PREFIX, c);

export function readContinuation(token: string): Continuation | null {
  const v = decode(CONTINUATION_PREFIX, token);
  if (!v || typeof v !== "object") return null;
  const c = v as Continuation;
  return typeof c.k === "string" && typeof c.o === "number" ? c : null;
}

/** A library or history action: `add`/`remove` a song, album or podcast; `history` removes a play. */
export interface FeedbackAction {
  a: "add" | "remove" | "pin" | "unpin" | "history" | "suggestion";
  kind: string;
  id: string;
}

export const feedbackToken = (f: FeedbackAction): string => encode(FEEDBACK_PREFIX, f);

export function readFeedback(token: unknown): FeedbackAction | null {
  if (typeof token !== "string") return null;
  const v = decode(FEEDBACK_PREFIX, token) as FeedbackAction | null;
  return v && typeof v.a === "string" && typeof v.id === "string" ? v : null;
}
