/**
 * The spellings in which a secret can come back from a service, a page or a proxy: as it is,
 * percent-encoded (component and form style, upper- and lower-case hex, twice), JSON-escaped (the
 * service's own `\u003d` style too), HTML-escaped, and in base64 or base64url. Every spelling is
 * scrubbed, and so is every piece of one (see redact.ts). Pure.
 */

/** Percent-escapes with lower-case hex digits (`%2f`), as some servers write them. */
function lowerHex(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (code) => code.toLowerCase());
}

function urlForms(secret: string): string[] {
  let component: string;
  try {
    component = encodeURIComponent(secret);
  } catch {
    // A lone surrogate cannot be percent-encoded, so it cannot come back percent-encoded either.
    return [];
  }
  const form = new URLSearchParams({ v: secret }).toString().slice(2);
  const twice = encodeURIComponent(component);
  return [component, lowerHex(component), form, lowerHex(form), twice, lowerHex(twice)];
}

/** `\u` escapes of the characters Google's JSON and JavaScript escape (`=`, `&`, `<`, `>`, `'`). */
function unicodeEscaped(text: string): string {
  return text.replace(/[=&<>'\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Every character but letters and digits as an escape (`\u002f`, `\x2F`), in both cases of hex. */
function everySymbol(secret: string, spell: (code: string) => string): string[] {
  const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, "0");
  const lower = secret.replace(/[^A-Za-z0-9]/g, (c) => spell(hex(c)));
  const upper = secret.replace(/[^A-Za-z0-9]/g, (c) => spell(hex(c).toUpperCase()));
  return [lower, upper];
}

function jsonForms(secret: string): string[] {
  const plain = JSON.stringify(secret).slice(1, -1);
  return [
    plain,
    plain.replaceAll("/", "\\/"),
    unicodeEscaped(plain),
    ...everySymbol(secret, (h) => `\\u${h.padStart(4, "0")}`),
    ...everySymbol(secret, (h) => `\\x${h}`),
  ];
}

function htmlForms(secret: string): string[] {
  const base = secret
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
  const numeric = secret.replace(/[^A-Za-z0-9]/g, (c) => `&#${c.charCodeAt(0)};`);
  return [base.replaceAll("'", "&#39;"), base.replaceAll("'", "&#x27;"), numeric];
}

/**
 * Base64 and base64url of the secret, and of its tails at byte offsets 1 and 2 cut to whole
 * 3-byte groups: a piece of the secret encoded inside longer text is aligned on one of the three,
 * so its encoding is a substring of one of these.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms: string[] = [];
  const add = (part: Buffer) => {
    const b64 = part.toString("base64");
    forms.push(b64, b64.replace(/=+$/, ""), part.toString("base64url"));
  };
  add(bytes);
  for (const offset of [1, 2]) {
    const whole = Math.floor((bytes.length - offset) / 3) * 3;
    if (whole > 0) add(bytes.subarray(offset, offset + whole));
  }
  return forms;
}

/**
 * A spelling as it stands inside a JSON string of the raw body: the transport scrubs the body's
 * text before parsing it, so a value that the parsed string would hold as `…\u003d…` (an escape
 * the service sent as text) stands in the raw text once more escaped (`…\\u003d…`), and the
 * service may write its symbols as `\u003d` or `\/` at that level too.
 */
function insideJson(form: string): string[] {
  const plain = JSON.stringify(form).slice(1, -1);
  return [plain, plain.replaceAll("/", "\\/"), unicodeEscaped(plain)];
}

/** Every spelling of `secret` to look for, without duplicates; the secret itself first. */
export function secretForms(secret: string): string[] {
  const once = [
    secret,
    ...urlForms(secret),
    ...jsonForms(secret),
    ...htmlForms(secret),
    ...base64Forms(secret),
  ];
  const forms = new Set<string>(once);
  for (const form of once) for (const raw of insideJson(form)) forms.add(raw);
  forms.delete("");
  return [...forms];
}
