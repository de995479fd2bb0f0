/**
 * What each kind of target is sent, built from the event and the target as pure data: the HTTP
 * request of a webhook or an ntfy topic, the stdin, arguments and environment of a command. Every
 * body, header and variable passes through `scrub` (the engine's credential scrubber), so an event
 * whose error text quotes what the service echoed back still carries no credential.
 */
import type { CommandTarget, NotifyEventKind, NtfyTarget, WebhookTarget } from "../recipe/types.js";
import type { NotifyEvent } from "./events.js";

export type Scrub = <T>(value: T) => T;

export interface HttpDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface CommandDelivery {
  file: string;
  args: string[];
  stdin: string;
  env: Record<string, string>;
}

const PRIORITY: Record<NotifyEventKind, number> = {
  credentials_expired: 5,
  credentials_expiring: 4,
  run_failed: 4,
  recipe_suspended: 4,
  approval_pending: 3,
  drift_found: 3,
  applied: 2,
};

/** ntfy shows a tag named like an emoji as that emoji. */
const TAG: Record<NotifyEventKind, string> = {
  credentials_expired: "key",
  credentials_expiring: "hourglass",
  run_failed: "warning",
  recipe_suspended: "pause_button",
  approval_pending: "raised_hand",
  drift_found: "twisted_rightwards_arrows",
  applied: "white_check_mark",
};

/** A header value as HTTP allows it: one line of visible ASCII (ntfy reads UTF-8 only if encoded). */
function headerValue(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, " ")
    .replace(/[^\x20-\x7e]/g, "?")
    .trim();
}

function scrubbedHeaders(headers: Record<string, string>, scrub: Scrub): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = headerValue(scrub(value));
  return out;
}

export function webhookRequest(target: WebhookTarget, event: NotifyEvent, scrub: Scrub): HttpDelivery {
  return {
    url: target.url,
    headers: scrubbedHeaders(
      { ...target.headers, "content-type": "application/json", "user-agent": "musicsync" },
      scrub,
    ),
    body: JSON.stringify(scrub(event)),
  };
}

export function ntfyRequest(target: NtfyTarget, event: NotifyEvent, scrub: Scrub): HttpDelivery {
  const tags = [TAG[event.event], "musicsync", ...target.tags];
  return {
    url: target.url,
    headers: scrubbedHeaders(
      {
        ...target.headers,
        "content-type": "text/plain; charset=utf-8",
        Title: event.title,
        Priority: String(target.priority ?? PRIORITY[event.event]),
        Tags: [...new Set(tags)].join(","),
      },
      scrub,
    ),
    body: scrub(event.message),
  };
}

// The locale's categories by name: LC_ as a prefix would also pass what ssh forwards as LC_*.
const LOCALE = [
  ...["ALL", "CTYPE", "COLLATE", "MESSAGES", "MONETARY", "NUMERIC", "TIME"],
  ...["ADDRESS", "IDENTIFICATION", "MEASUREMENT", "NAME", "PAPER", "TELEPHONE"],
].map((category) => `LC_${category}`);

/**
 * What a command inherits of the daemon's environment: only what a program needs to run and to
 * speak the person's language. Everything else stays behind, because the daemon's environment holds
 * secrets no scrubber recognises (the state URL's password, the page's token, the accounts key, a
 * webhook's token): a command that needs more says so in its argv (`[env, NAME=value, …]`).
 */
const PASSED = new Set([
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TMPDIR",
  "TZ",
  "LANG",
  "LANGUAGE",
  ...LOCALE,
]);

/**
 * The command's environment: the allow-listed variables of the daemon's (less any whose value holds
 * a credential), plus the event's fields as MUSICSYNC_* variables.
 */
export function commandDelivery(
  target: CommandTarget,
  event: NotifyEvent,
  scrub: Scrub,
  parentEnv: Readonly<Record<string, string | undefined>>,
): CommandDelivery {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    if (PASSED.has(name) && value !== undefined && scrub(value) === value) env[name] = value;
  }
  const clean = scrub(event);
  const fields: Record<string, string> = {
    MUSICSYNC_EVENT: clean.event,
    MUSICSYNC_AT: clean.at,
    MUSICSYNC_TITLE: clean.title,
    MUSICSYNC_MESSAGE: clean.message,
    MUSICSYNC_RECIPE: clean.recipe ?? "",
    MUSICSYNC_ACCOUNT: clean.account ?? "",
    MUSICSYNC_RUN: clean.run === null ? "" : String(clean.run),
  };
  const [file, ...args] = target.command;
  return { file: file!, args, stdin: `${JSON.stringify(clean)}\n`, env: { ...env, ...fields } };
}
