import { setTimeout as delay } from "node:timers/promises";
import { type Dispatcher, ProxyAgent } from "undici";
import { Redactor } from "../../shared/redact.js";
import { ArgumentError, OAuthFlowError, ParseError } from "../errors.js";
import type { OAuthToken } from "../options.js";
import {
  DEVICE_CODE_URL,
  DEVICE_GRANT,
  endpointUrl,
  type FormReply,
  OAUTH_SCOPE,
  oauthError,
  postForm,
  TOKEN_URL,
} from "./oauth-http.js";
import { writeToken } from "./token-file.js";

export interface SetupOAuthOptions {
  /** The OAuth client ("TVs and Limited Input devices") of your Google Cloud project. */
  clientId: string;
  clientSecret: string;
  /** Where to save the token (JSON, mode 0600). Not saved when omitted. */
  filepath?: string;
  /** Open the verification link in the default browser. Default false. */
  openBrowser?: boolean;
  /** An undici dispatcher for the two endpoints. */
  dispatcher?: Dispatcher;
  /** An HTTP(S) proxy URL (ignored when `dispatcher` is given). */
  proxy?: string;
  /** Device-code endpoint; default Google's. */
  deviceCodeUrl?: string;
  /** Token endpoint; default Google's. */
  tokenUrl?: string;
  /** Where the code and link are printed; default standard output. */
  output?: NodeJS.WritableStream;
  /** Per-request time-out in milliseconds; default 30000. */
  timeoutMs?: number;
  /**
   * Milliseconds per second of the durations the service states (`interval`, `expires_in`); default
   * 1000. Tests shrink it so that a 5-second poll interval takes a few milliseconds.
   */
  intervalScaleMs?: number;
  /** How to wait between polls; default a timer. */
  sleep?: (ms: number) => Promise<void>;
}

const OPERATION = "setup_oauth";
/** RFC 8628 §3.5: on `slow_down` the interval grows by 5 seconds for this and later polls. */
const SLOW_DOWN_STEP_SECONDS = 5;
/** When the device-code answer states no interval (RFC 8628 §3.2). */
const DEFAULT_INTERVAL_SECONDS = 5;

interface DeviceCode {
  deviceCode: string;
  userCode: string;
  verificationUrl: string;
  expiresIn: number;
  interval: number;
}

function requiredString(options: SetupOAuthOptions, key: "clientId" | "clientSecret"): string {
  const value = options[key];
  if (typeof value !== "string" || value.trim() === "") {
    const other = key === "clientId" ? "clientSecret" : "clientId";
    throw new ArgumentError(
      key,
      `is required together with \`${other}\`: both come from the same OAuth client ("TVs and Limited Input devices")`,
    );
  }
  return value;
}

function readDeviceCode(reply: FormReply): DeviceCode {
  const body = reply.body;
  if (body === null)
    throw new ParseError("(body)", "the device-code answer is not JSON", { operation: OPERATION });
  const text = (key: string): string => {
    const v = body[key];
    if (typeof v !== "string" || v === "") {
      throw new ParseError(key, "missing from the device-code answer", { operation: OPERATION });
    }
    return v;
  };
  const seconds = (key: string, fallback?: number): number => {
    const v = body[key];
    const n = typeof v === "string" ? Number(v) : v;
    if (typeof n === "number" && Number.isFinite(n) && n > 0) return n;
    if (fallback !== undefined && v === undefined) return fallback;
    throw new ParseError(key, "missing from the device-code answer", { operation: OPERATION });
  };
  return {
    deviceCode: text("device_code"),
    userCode: text("user_code"),
    // RFC 8628 names it `verification_uri`; Google's older endpoint says `verification_url`.
    verificationUrl:
      typeof body.verification_url === "string" ? text("verification_url") : text("verification_uri"),
    expiresIn: seconds("expires_in"),
    interval: seconds("interval", DEFAULT_INTERVAL_SECONDS),
  };
}

/** The error of a failed step as an OAuthFlowError carrying the OAuth error word as `reason`. */
function flowFailure(step: string, reply: FormReply, redactor: Redactor): OAuthFlowError {
  const reason = oauthError(reply) ?? `http_${reply.status}`;
  const described = reply.body?.error_description;
  const detail = typeof described === "string" && described !== "" ? `: ${redactor.text(described)}` : "";
  const hints: Record<string, string> = {
    access_denied: "access was denied at the consent screen",
    expired_token: "the code expired before it was approved; run the set-up again",
    invalid_client: "the OAuth client was refused; check the client id and secret",
    unauthorized_client:
      "the OAuth client may not use the device flow; create one of type TVs and Limited Input devices",
  };
  const hint = hints[reason] ?? `the ${step} step failed`;
  return new OAuthFlowError(reason, `${hint} (${redactor.text(reason)}, HTTP ${reply.status})${detail}`, {
    operation: OPERATION,
  });
}

/** Opens a URL with the platform's opener, detached; failure only means the user opens it by hand. */
function openInBrowser(url: string, output: NodeJS.WritableStream): void {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", '""', url]]
        : ["xdg-open", [url]];
  try {
    // Loaded here, not with the module: every command that talks to the service loads this file, and
    // child_process (with the networking it brings) is for this one step of the OAuth set-up.
    const { spawn } = process.getBuiltinModule("node:child_process");
    const child = spawn(command, args as string[], { detached: true, stdio: "ignore" });
    child.on("error", () => output.write("Could not open a browser; open the link above yourself.\n"));
    child.unref();
  } catch {
    output.write("Could not open a browser; open the link above yourself.\n");
  }
}

/**
 * The OAuth device flow (docs/PROTOCOL.md#oauth, RFC 8628): asks for a device code, prints the link and the
 * code for the user to approve, polls the token endpoint every `interval` seconds until approval,
 * and returns the token in the file layout (six keys), saving it when `filepath` is given.
 */
export async function setupOAuth(options: SetupOAuthOptions): Promise<OAuthToken> {
  const clientId = requiredString(options, "clientId");
  const clientSecret = requiredString(options, "clientSecret");
  const deviceCodeUrl = endpointUrl("deviceCodeUrl", options.deviceCodeUrl, DEVICE_CODE_URL);
  const tokenUrl = endpointUrl("tokenUrl", options.tokenUrl, TOKEN_URL);
  const scaleMs = options.intervalScaleMs ?? 1000;
  if (!Number.isFinite(scaleMs) || scaleMs <= 0) {
    throw new ArgumentError("intervalScaleMs", "must be a positive number of milliseconds");
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  const output = options.output ?? process.stdout;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const ownAgent =
    options.dispatcher === undefined && options.proxy ? new ProxyAgent({ uri: options.proxy }) : undefined;
  const dispatcher = options.dispatcher ?? ownAgent;
  const secrets: string[] = [clientSecret];
  const redactor = new Redactor(() => secrets);
  const post = (url: string, form: Record<string, string>) =>
    postForm({ operation: OPERATION, url, form, dispatcher, timeoutMs, secrets: () => secrets });

  try {
    const codeReply = await post(deviceCodeUrl, { client_id: clientId, scope: OAUTH_SCOPE });
    if (codeReply.status >= 400 || oauthError(codeReply) !== undefined) {
      throw flowFailure("device-code", codeReply, redactor);
    }
    const code = readDeviceCode(codeReply);
    secrets.push(code.deviceCode);
    const link = `${code.verificationUrl}?user_code=${encodeURIComponent(code.userCode)}`;
    output.write(`Open ${link}\nand enter the code ${code.userCode} if asked, then allow access.\n`);
    if (options.openBrowser) openInBrowser(link, output);
    output.write("Waiting for approval…\n");

    const started = Date.now();
    let interval = code.interval;
    // Time is counted both ways: by the clock, and by the waits asked for (a sleep that returns early,
    // as a test's may, must not let the code outlive its stated lifetime).
    let waited = 0;
    for (;;) {
      const elapsed = Math.max((Date.now() - started) / scaleMs, waited);
      if (elapsed + interval > code.expiresIn) {
        throw new OAuthFlowError(
          "expired_token",
          `the code expired after ${code.expiresIn} s without approval; run the set-up again`,
          { operation: OPERATION },
        );
      }
      await sleep(interval * scaleMs);
      waited += interval;
      const reply = await post(tokenUrl, {
        client_id: clientId,
        client_secret: clientSecret,
        grant_type: DEVICE_GRANT,
        code: code.deviceCode,
      });
      const reason = oauthError(reply);
      if (reason === "authorization_pending") continue;
      if (reason === "slow_down") {
        interval += SLOW_DOWN_STEP_SECONDS;
        continue;
      }
      if (reply.status >= 400 || reason !== undefined) throw flowFailure("token", reply, redactor);
      const token = issuedToken(reply);
      if (options.filepath !== undefined) await writeToken(options.filepath, { token, extra: {} });
      return token;
    }
  } finally {
    await ownAgent?.close();
  }
}

/** The token endpoint's answer in the file layout (docs/PROTOCOL.md#oauth). */
function issuedToken(reply: FormReply): Required<OAuthToken> {
  const body = reply.body;
  if (body === null) throw new ParseError("(body)", "the token answer is not JSON", { operation: OPERATION });
  const text = (key: string, fallback?: string): string => {
    const v = body[key];
    if (typeof v === "string" && v !== "") return v;
    if (fallback !== undefined) return fallback;
    throw new ParseError(key, "missing from the token answer", { operation: OPERATION });
  };
  const expiresIn = Number(body.expires_in);
  if (!Number.isFinite(expiresIn)) {
    throw new ParseError("expires_in", "missing from the token answer", { operation: OPERATION });
  }
  const refreshLifetime = Number(body.refresh_token_expires_in);
  return {
    access_token: text("access_token"),
    refresh_token: text("refresh_token"),
    token_type: text("token_type", "Bearer"),
    scope: text("scope", OAUTH_SCOPE),
    expires_at: Math.floor(Date.now() / 1000) + Math.floor(expiresIn),
    // ytmusicapi records the refresh token's lifetime here when the answer states one.
    expires_in: Number.isFinite(refreshLifetime) && refreshLifetime > 0 ? refreshLifetime : expiresIn,
  };
}
