/**
 * Credentials sealed for the state database: AES-256-GCM under a key that only the
 * environment holds (MUSICSYNC_ACCOUNTS_KEY), so that a copy of the database, a backup or a shared
 * PostgreSQL server never holds a credential in the clear, and any machine given the key can serve
 * any account.
 *
 * A sealed text reads `sealed:v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url parts). The key id is
 * the first 8 hex digits of the key's SHA-256: enough to tell two keys apart in a message, far too
 * little to learn anything about the key. The header and the account's name are authenticated with
 * the ciphertext, so neither an edited header nor a sealed text moved to another account's row
 * unseals. No message here ever holds the key, the sealed text or what it seals.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { engineScrubber } from "../output/scrub.js";
import type { Environment } from "../recipe/env.js";

export const ACCOUNTS_KEY_VARIABLE = "MUSICSYNC_ACCOUNTS_KEY";

const PREFIX = "sealed";
const VERSION = "v1";
const KEY_BYTES = 32;
/** GCM's recommended nonce length: random per seal, so one key may seal many texts. */
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const BASE64_KEY = /^[A-Za-z0-9+/]{43}=?$/;
const BASE64URL_KEY = /^[A-Za-z0-9_-]{43}=?$/;
const PART = /^[A-Za-z0-9_-]*$/;

/** A key, a sealed text or an account's credentials that cannot be used; the message says why. */
export class SealError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SealError";
  }
}

export interface AccountsKey {
  readonly bytes: Buffer;
  /** First 8 hex digits of the key's SHA-256: named in messages, stored in each sealed text. */
  readonly id: string;
}

export function keyIdOf(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex").slice(0, 8);
}

/** The remedy for a missing or bad key where nothing is sealed yet: a new key will do. */
export const HOW_TO_MAKE = "`musicsync accounts key` prints a new one";

/**
 * The remedy where stored accounts need the key that sealed them: a new key cannot open them, so
 * the message names the key by id and says what works when it is lost.
 */
export function sealedWithRemedy(keyIds: readonly string[]): string {
  const ids = [...new Set(keyIds)];
  const which =
    ids.length === 0
      ? ""
      : ` (key ${ids.join(", key ")}; \`musicsync accounts key --id\` prints the id of the one set)`;
  return (
    `set it to the key that sealed them${which}; a new key cannot open them: if that key is lost, ` +
    "store the accounts again with `musicsync accounts add` under a new key"
  );
}

/** The bytes a key text stands for, or null when it is not 32 bytes as hex or base64. */
function keyBytes(text: string): Buffer | null {
  if (HEX_KEY.test(text)) return Buffer.from(text, "hex");
  if (BASE64_KEY.test(text)) return Buffer.from(text, "base64");
  if (BASE64URL_KEY.test(text)) return Buffer.from(text, "base64url");
  return null;
}

/**
 * The key a text holds. Refused, without repeating any of it: anything but 32 bytes as hex or
 * base64, and a key of one byte repeated (a placeholder such as 64 zeros, not a random key).
 */
export function parseAccountsKey(text: string, remedy: string = HOW_TO_MAKE): AccountsKey {
  const bytes = keyBytes(text.trim());
  if (bytes === null || bytes.length !== KEY_BYTES) {
    throw new SealError(
      `${ACCOUNTS_KEY_VARIABLE} is not a key: it must be ${KEY_BYTES} random bytes written as base64 ` +
        `(44 characters) or hex (64 characters); ${remedy} (the value given is not shown)`,
    );
  }
  if (bytes.every((b) => b === bytes[0])) {
    throw new SealError(
      `${ACCOUNTS_KEY_VARIABLE} is one byte repeated, not a random key; ${remedy} (the value given is not shown)`,
    );
  }
  return { bytes, id: keyIdOf(bytes) };
}

/**
 * The key of the environment; `why` says what it was needed for when it is missing, `remedy` what
 * to do (a new key only where nothing sealed needs opening: sealedWithRemedy otherwise).
 */
export function accountsKeyFrom(env: Environment, why: string, remedy: string = HOW_TO_MAKE): AccountsKey {
  const text = env[ACCOUNTS_KEY_VARIABLE];
  if (text === undefined || text.trim() === "") {
    throw new SealError(`${ACCOUNTS_KEY_VARIABLE} is not set: ${why}; ${remedy}`);
  }
  const key = parseAccountsKey(text, remedy);
  // The key never belongs in an output either (a debug dump of the environment, an echoed error).
  engineScrubber.addSecrets([text.trim()]);
  return key;
}

/** A fresh random key, as base64 (what `musicsync accounts key` prints). */
export function newAccountsKey(): string {
  return randomBytes(KEY_BYTES).toString("base64");
}

/** What the ciphertext is bound to besides the key: the header and the account's name. */
function additionalData(header: string, account: string): Buffer {
  return Buffer.from(`${header}\naccount:${account}`, "utf8");
}

/** `plain` sealed under `key` for the account `account` (a fresh random IV each time). */
export function seal(plain: string, key: AccountsKey, account: string): string {
  const header = `${PREFIX}:${VERSION}:${key.id}`;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key.bytes, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(header, account));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64url"));
  return [header, ...parts].join(":");
}

interface SealedParts {
  header: string;
  keyId: string;
  iv: Buffer;
  tag: Buffer;
  body: Buffer;
}

function parts(sealed: string, account: string): SealedParts {
  const fields = sealed.split(":");
  const [prefix, version, keyId, iv, tag, body] = fields;
  const unreadable = (why: string) =>
    new SealError(`the stored credentials of account "${account}" cannot be read: ${why}`);
  if (prefix !== PREFIX || fields.length !== 6) throw unreadable("they are not a sealed text");
  if (version !== VERSION) {
    const shown = /^v[0-9]{1,4}$/.test(version ?? "") ? ` ${version}` : "";
    throw unreadable(`they were sealed in a form${shown} this musicsync does not know (it reads ${VERSION})`);
  }
  if (!/^[0-9a-f]{8}$/.test(keyId ?? "") || ![iv, tag, body].every((p) => PART.test(p ?? ""))) {
    throw unreadable("the sealed text is damaged");
  }
  return {
    header: `${prefix}:${version}:${keyId}`,
    keyId: keyId!,
    iv: Buffer.from(iv!, "base64url"),
    tag: Buffer.from(tag!, "base64url"),
    body: Buffer.from(body!, "base64url"),
  };
}

/** The id of the key a sealed text was sealed with (checks the form, decrypts nothing). */
export function sealedKeyId(sealed: string, account: string): string {
  return parts(sealed, account).keyId;
}

/**
 * What `sealed` seals, when `key` sealed it for `account`. A text sealed with another key is named
 * as such (both key ids); one that fails its authentication was altered (or moved from another
 * account's row). The caller makes the secrets in what comes out known to the engine's scrubber
 * (accounts.ts: the credentials, not the settings sealed beside them — a base_url taken for a
 * secret would hide its host in every connection error).
 */
export function unseal(sealed: string, key: AccountsKey, account: string): string {
  const p = parts(sealed, account);
  if (p.keyId !== key.id) {
    throw new SealError(
      `the stored credentials of account "${account}" were sealed with key ${p.keyId}, but ` +
        `${ACCOUNTS_KEY_VARIABLE} is key ${key.id}: set the key they were sealed with, or add the account again`,
    );
  }
  let plain: string;
  try {
    if (p.iv.length !== IV_BYTES || p.tag.length !== TAG_BYTES) throw new Error("lengths");
    const decipher = createDecipheriv("aes-256-gcm", key.bytes, p.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(additionalData(p.header, account));
    decipher.setAuthTag(p.tag);
    plain = Buffer.concat([decipher.update(p.body), decipher.final()]).toString("utf8");
  } catch {
    throw new SealError(
      `the stored credentials of account "${account}" fail their check under key ${key.id}: the sealed ` +
        "text was altered (or copied from another account); add the account again",
    );
  }
  return plain;
}
