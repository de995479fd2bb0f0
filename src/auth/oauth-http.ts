import { type Dispatcher, request } from "undici";
import { Redactor } from "../../shared/redact.js";
import { USER_AGENT } from "../../shared/wire/constants.js";
import { ArgumentError } from "../errors.js";
import { decodeBody, toTransportError } from "../http.js";

/** Google's OAuth endpoints for limited-input devices (docs/PROTOCOL.md#oauth). */
export const DEVICE_CODE_URL = "https://www.youtube.com/o/oauth2/device/code";
export const TOKEN_URL = "https://oauth2.googleapis.com/token";
export const OAUTH_SCOPE = "https://www.googleapis.com/auth/youtube";
/** The grant type of the device flow's token request (Google's legacy spelling, as the service expects). */
export const DEVICE_GRANT = "http://oauth.net/grant_type/device/1.0";
/** The OAuth requests identify as a TV client: the default user agent plus this suffix. */
export const OAUTH_USER_AGENT = `${USER_AGENT} Cobalt/Version`;

/** Checks an endpoint override before anything is sent. */
export function endpointUrl(argument: string, value: string | undefined, fallback: string): string {
  const url = value ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ArgumentError(argument, `"${url}" is not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ArgumentError(argument, "must be an http or https URL");
  }
  return url;
}

export interface FormPost {
  /** For error messages, e.g. `oauth_refresh`. */
  operation: string;
  url: string;
  form: Record<string, string>;
  dispatcher: Dispatcher | undefined;
  timeoutMs: number;
  /** Scrubbed from any transport error's message (client secret, tokens, device code). */
  secrets: () => readonly string[];
}

export interface FormReply {
  status: number;
  /** The JSON object the endpoint answered with; null when the body was not a JSON object. */
  body: Record<string, unknown> | null;
}

/** One form-encoded POST to an OAuth endpoint; OAuth errors come back as data for the caller to map. */
export async function postForm(post: FormPost): Promise<FormReply> {
  let status: number;
  let bytes: Buffer;
  let encoding: string | string[] | undefined;
  try {
    const response = await request(post.url, {
      method: "POST",
      headers: {
        "user-agent": OAUTH_USER_AGENT,
        accept: "application/json",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams(post.form).toString(),
      dispatcher: post.dispatcher,
      headersTimeout: post.timeoutMs,
      bodyTimeout: post.timeoutMs,
    });
    status = response.statusCode;
    encoding = response.headers["content-encoding"];
    bytes = Buffer.from(await response.body.arrayBuffer());
  } catch (error) {
    throw toTransportError(error, post.operation, post.timeoutMs, new Redactor(post.secrets));
  }
  let body: Record<string, unknown> | null = null;
  try {
    const text = decodeBody(bytes, Array.isArray(encoding) ? encoding[0] : encoding).toString("utf8");
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      body = parsed as Record<string, unknown>;
    }
  } catch {
    // Not JSON (a proxy's error page, say): the status is all the caller gets.
  }
  return { status, body };
}

/** The OAuth error word of a reply (`authorization_pending`, `invalid_grant`…), if any. */
export function oauthError(reply: FormReply): string | undefined {
  const error = reply.body?.error;
  return typeof error === "string" && error !== "" ? error : undefined;
}
