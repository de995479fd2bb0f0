/**
 * The leak check of docs/ENGINE.md#credentials, shared by the client, engine and soak suites: does a text (or
 * the bytes of a file, such as the state database) hold a credential, or any piece of one at least
 * `minLen` characters long, in any encoding a service, a log or a serializer could have put it in?
 *
 * Written apart from the client's scrubber (shared/secret-forms.ts) on purpose: it spells
 * the secrets out by its own means, so a spelling the scrubber forgets is found here.
 */

import { WindowFilter } from "./window-filter.js";

/** One run of text that holds a credential. `piece` is masked: a report must not leak it again. */
export interface CredentialPiece {
  /** Index of the secret in the list given. */
  secret: number;
  /** How it was spelled: `raw`, `url`, `url-lower`, `form`, `base64`, `json-unicode`, `html`… */
  encoding: string;
  /** Where the run starts in the text (in UTF-16 units; for bytes, in the latin1 decoding). */
  at: number;
  length: number;
  /** The first 3 characters of the run and its length, e.g. `IVb…(34)`. */
  piece: string;
}

/** Secrets shorter than this are skipped: an authuser index or the consent cookie's `CAI` are none. */
const SHORTEST = 8;

const hex = (c: string, upper: boolean) => {
  const h = c.charCodeAt(0).toString(16).padStart(2, "0");
  return upper ? h.toUpperCase() : h;
};

function percent(secret: string, keep: RegExp, upper: boolean, space = "%20"): string {
  return Array.from(Buffer.from(secret, "utf8"))
    .map((b) => {
      const c = String.fromCharCode(b);
      if (c === " ") return space;
      return b < 0x80 && keep.test(c) ? c : `%${hex(c, upper)}`;
    })
    .join("");
}

/** Every spelling of one secret, by name; base64 spellings at all three byte alignments. */
function spellings(secret: string): [string, string][] {
  const out: [string, string][] = [["raw", secret]];
  const unreserved = /[A-Za-z0-9\-_.!~*'()]/;
  const formSafe = /[A-Za-z0-9\-_.*]/;
  for (const upper of [true, false]) {
    const suffix = upper ? "" : "-lower";
    const url = percent(secret, unreserved, upper);
    out.push([`url${suffix}`, url], [`form${suffix}`, percent(secret, formSafe, upper, "+")]);
    out.push([`url-twice${suffix}`, percent(url, unreserved, upper)]);
    out.push([`json-unicode${suffix}`, secret.replace(/[^A-Za-z0-9]/g, (c) => `\\u00${hex(c, upper)}`)]);
    out.push([`js-hex${suffix}`, secret.replace(/[^A-Za-z0-9]/g, (c) => `\\x${hex(c, upper)}`)]);
  }
  const json = JSON.stringify(secret).slice(1, -1);
  out.push(["json", json], ["json-slash", json.replace(/\//g, "\\/")]);
  out.push(["json-google", json.replace(/[=&<>']/g, (c) => `\\u00${hex(c, false)}`)]);
  const html = secret
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
  out.push(["html", html.replace(/'/g, "&#39;")], ["html-hex", html.replace(/'/g, "&#x27;")]);
  out.push(["html-numeric", secret.replace(/[^A-Za-z0-9]/g, (c) => `&#${c.charCodeAt(0)};`)]);
  const bytes = Buffer.from(secret, "utf8");
  for (let offset = 0; offset < 3; offset++) {
    const part = bytes.subarray(offset);
    out.push(
      [`base64@${offset}`, part.toString("base64")],
      [`base64url@${offset}`, part.toString("base64url")],
    );
  }
  return out;
}

interface Needle {
  secret: number;
  encoding: string;
}

/** minLen-character windows of every spelling of the long secrets; whole spellings of the short. */
function needles(secrets: readonly string[], minLen: number) {
  const windows = new Map<string, Needle>();
  const whole: [string, Needle][] = [];
  secrets.forEach((secret, index) => {
    if (typeof secret !== "string" || secret.length < SHORTEST) return;
    for (const [encoding, text] of spellings(secret)) {
      const needle = { secret: index, encoding };
      if (secret.length < minLen) whole.push([text, needle]);
      else {
        for (let i = 0; i + minLen <= text.length; i++) {
          const w = text.slice(i, i + minLen);
          if (!windows.has(w)) windows.set(w, needle);
        }
      }
    }
  });
  return { windows, filter: new WindowFilter(minLen, windows.keys()), whole };
}

type Needles = ReturnType<typeof needles>;

/**
 * The needles of the latest secret lists: the soak scans every plan, log and answer with the same
 * list (growing by a hash per signed request), and spelling each secret out costs more than a scan.
 */
const recent = new Map<string, Needles>();
const RECENT = 4;

function needlesOf(secrets: readonly string[], minLen: number): Needles {
  const key = JSON.stringify([minLen, secrets]);
  let found = recent.get(key);
  if (found) recent.delete(key);
  else found = needles(secrets, minLen);
  recent.set(key, found);
  if (recent.size > RECENT) recent.delete(recent.keys().next().value!);
  return found;
}

function scan(text: string, secrets: readonly string[], minLen: number): CredentialPiece[] {
  const { windows, filter, whole } = needlesOf(secrets, minLen);
  const hits: { at: number; end: number; needle: Needle }[] = [];
  filter.scan(text, (i) => {
    const needle = windows.get(text.slice(i, i + minLen));
    if (!needle) return;
    const last = hits[hits.length - 1];
    // Consecutive windows of one run are one finding.
    if (last && i <= last.end) last.end = i + minLen;
    else hits.push({ at: i, end: i + minLen, needle });
  });
  for (const [spelled, needle] of whole) {
    for (let at = text.indexOf(spelled); at >= 0; at = text.indexOf(spelled, at + 1)) {
      hits.push({ at, end: at + spelled.length, needle });
    }
  }
  return hits.map(({ at, end, needle }) => ({
    ...needle,
    at,
    length: end - at,
    piece: `${text.slice(at, at + 3)}…(${end - at})`,
  }));
}

/**
 * Every run of `text` that holds one of `secrets`, or a piece of `minLen` or more characters of
 * one, in any spelling: as it is; percent-encoded (encodeURIComponent and form style, upper- and
 * lower-case hex, twice); base64 and base64url at every alignment; JSON-escaped (plain, `\/`,
 * `\u003d` as Google writes it, every symbol as `\u00xx` or `\xxx`); HTML-escaped (named, `&#39;`,
 * `&#x27;`, every symbol numeric). Secrets shorter than `minLen` are looked for whole; shorter than
 * 8 characters, not at all. Bytes (a database file) are read both as UTF-8 and as latin1.
 * An empty result means no leak.
 */
export function findCredentialPieces(
  text: string | Uint8Array,
  secrets: readonly string[],
  minLen = 12,
): CredentialPiece[] {
  if (typeof text === "string") return scan(text, secrets, minLen);
  const bytes = Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  const seen = new Set<string>();
  const found: CredentialPiece[] = [];
  for (const decoded of [bytes.toString("latin1"), bytes.toString("utf8")]) {
    for (const piece of scan(decoded, secrets, minLen)) {
      const key = `${piece.at}:${piece.secret}`;
      if (!seen.has(key)) found.push(piece);
      seen.add(key);
    }
  }
  return found;
}

/**
 * The secrets of a set of browser or OAuth headers: the whole cookie header and each cookie's
 * value (SAPISID, __Secure-3PAPISID…), the authorization header and the part after its scheme
 * (the SAPISIDHASH or bearer token).
 */
export function credentialSecrets(headers: Readonly<Record<string, string>>): string[] {
  const out = new Set<string>();
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const cookie = lower.cookie ?? "";
  if (cookie) out.add(cookie);
  for (const part of cookie.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) out.add(part.slice(eq + 1).trim());
  }
  const authorization = lower.authorization ?? "";
  if (authorization) out.add(authorization);
  const scheme = authorization.indexOf(" ");
  if (scheme > 0) out.add(authorization.slice(scheme + 1).trim());
  return [...out].filter((s) => s.length >= SHORTEST);
}

/** A one-line description of findings for an assertion message (masked, never the secret). */
export function describePieces(found: readonly CredentialPiece[]): string {
  return found.map((p) => `secret #${p.secret} as ${p.encoding} at ${p.at}: ${p.piece}`).join("; ");
}
