/**
 * The test harnesses' own requests to the servers they started (the emulator's `/_emulator/`
 * routes). A pooled keep-alive connection the server closes just as the harness sends on it fails
 * the request with a bare "fetch failed" (under load a harness call can land on that moment), which
 * once ended whole soak seeds as crashes. So an idempotent request is sent again, a bounded number
 * of times, and a request that still fails says what it was and why (the socket error's code).
 * Only the harness's calls go through here: the engine's own requests keep their own rules.
 */

/** A request's answer, its body already read (a connection lost mid-body is retried as well). */
export interface HarnessAnswer {
  status: number;
  ok: boolean;
  text: string;
}

export interface HarnessFetchOptions {
  /** A POST that only sets state (the emulator's faults) may be sent again like a GET. */
  idempotent?: boolean;
  /** Tries in all (default 3); each waits 50 ms more than the last before it. */
  attempts?: number;
  /** How long one try may wait for its whole answer (default 60 s). */
  timeoutMs?: number;
}

/** The emulator's own routes answer in milliseconds: a try waiting a minute found it stuck. */
const ATTEMPT_MS = 60_000;

const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE"]);

/** What failed under a fetch: its cause's code and message (undici puts the socket error there). */
export function describeFetchFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof cause?.code === "string" ? cause.code : null;
  const message = typeof cause?.message === "string" && cause.message !== "" ? cause.message : null;
  const said = [code, message].filter((x) => x !== null).join(" ");
  return said === "" ? error.message : `${error.message}: ${said}`;
}

export async function harnessFetch(
  url: string,
  init: RequestInit = {},
  options: HarnessFetchOptions = {},
): Promise<HarnessAnswer> {
  const method = (init.method ?? "GET").toUpperCase();
  const attempts = options.idempotent || IDEMPOTENT.has(method) ? (options.attempts ?? 3) : 1;
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 50 * i));
    try {
      // Bounded in time as in count: an emulator that stopped answering ends the seed, named.
      const response = await fetch(url, {
        signal: AbortSignal.timeout(options.timeoutMs ?? ATTEMPT_MS),
        ...init,
      });
      return { status: response.status, ok: response.ok, text: await response.text() };
    } catch (e) {
      last = e;
    }
  }
  const tries = attempts > 1 ? ` (${attempts} tries)` : "";
  throw new Error(`harness request ${method} ${url} failed${tries}: ${describeFetchFailure(last)}`, {
    cause: last,
  });
}

/** A JSON answer of a harness request; a status other than 2xx is an error naming the request. */
export async function harnessJson<T>(
  url: string,
  init: RequestInit = {},
  options: HarnessFetchOptions = {},
): Promise<T> {
  const answer = await harnessFetch(url, init, options);
  const method = (init.method ?? "GET").toUpperCase();
  if (!answer.ok) throw new Error(`harness request ${method} ${url}: ${answer.status} ${answer.text}`);
  return JSON.parse(answer.text) as T;
}
