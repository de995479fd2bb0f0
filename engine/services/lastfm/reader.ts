/**
 * Reading Last.fm (https://ws.audioscrobbler.com/2.0/): a user's loved tracks, top tracks for a
 * period, recent tracks. Every page is read; a read cut short throws. Rate limits (error 29, HTTP
 * 429) and Last.fm's passing failures (errors 8, 11, 16, sometimes sent with HTTP 200) are waited
 * out within bounds. The API key travels in the query string, as Last.fm requires: it is
 * registered with the engine's scrubber, and no message is built from an address or from what
 * Last.fm says (an error's text is ours, chosen by its code).
 */
import { retryDelay } from "../../../shared/retry.js";
import { engineScrubber } from "../../output/scrub.js";
import {
  SERVICE_RETRY,
  type ServiceAnswer,
  type ServiceHttp,
  ServiceReadError,
  serviceJson,
} from "../http.js";
import { at, num } from "../json.js";
import type { ServiceList, ServiceSkip, ServiceTrack } from "../types.js";
import { LASTFM_PERIODS, type LastfmPeriod } from "../words.js";
import { isNowPlaying, lastfmTrack, rowsOf } from "./tracks.js";

const SERVICE = "lastfm";
export const LASTFM_API = "https://ws.audioscrobbler.com/2.0/";
/** Rows per request: Last.fm's most. */
const PER_PAGE = 1000;
/** 500,000 rows: no list of a person's comes near it; a service that keeps paging is not followed. */
const MAX_PAGES = 500;

export { LASTFM_PERIODS, type LastfmPeriod };

/** Errors that say "try again": operation failed, service offline, temporary error, rate limit. */
const PASSING = new Set([8, 11, 16, 29]);

export interface LastfmOptions {
  /** The API key (from the project file or the environment). */
  apiKey: string;
  /** The API's address, ending in `/2.0/` (default the real one; tests give the emulator's). */
  baseUrl?: string;
  http: ServiceHttp;
  /** Rows per request (default and most: 1000); tests page with fewer. */
  pageSize?: number;
}

type Method = "user.getlovedtracks" | "user.gettoptracks" | "user.getrecenttracks";
const ROOTS: Record<Method, string> = {
  "user.getlovedtracks": "lovedtracks",
  "user.gettoptracks": "toptracks",
  "user.getrecenttracks": "recenttracks",
};

const shown = (v: unknown) => JSON.stringify(String(v).slice(0, 80));

export class LastfmReader {
  private readonly base: URL;
  private readonly key: string;
  private readonly http: ServiceHttp;
  private readonly perPage: number;

  constructor(options: LastfmOptions) {
    const key = typeof options.apiKey === "string" ? options.apiKey.trim() : "";
    // Registered before anything can fail, so that not even a refusal of the key shows it.
    if (key) engineScrubber.addSecrets([key]);
    if (!/^[0-9a-zA-Z]{16,64}$/.test(key)) {
      throw new ServiceReadError(
        SERVICE,
        null,
        "the API key is missing or not a Last.fm key (32 letters and digits)",
      );
    }
    this.key = key;
    this.base = new URL(options.baseUrl ?? LASTFM_API);
    this.http = options.http;
    this.perPage = Math.max(1, Math.min(PER_PAGE, Math.floor(options.pageSize ?? PER_PAGE)));
  }

  /** The user's loved tracks, most recently loved first. */
  async lovedTracks(user: string): Promise<ServiceList> {
    return this.readAll("user.getlovedtracks", checkUser(user), {});
  }

  /** The user's most played tracks over `period` (7day, 1month, 3month, 6month, 12month, overall). */
  async topTracks(user: string, period: string): Promise<ServiceList> {
    if (!(LASTFM_PERIODS as readonly string[]).includes(period)) {
      throw new ServiceReadError(
        SERVICE,
        null,
        `period ${shown(period)} is not one of ${LASTFM_PERIODS.join(", ")}`,
      );
    }
    return this.readAll("user.gettoptracks", checkUser(user), { period });
  }

  /**
   * The user's scrobbles, newest first, since `from` (Unix seconds) when given. What plays now is
   * not a listen yet: it is left out, and counted in `skipped`.
   */
  async recentTracks(user: string, options: { from?: number } = {}): Promise<ServiceList> {
    const extra: Record<string, string> =
      options.from !== undefined ? { from: String(Math.floor(options.from)) } : {};
    return this.readAll("user.getrecenttracks", checkUser(user), extra);
  }

  private async readAll(method: Method, user: string, extra: Record<string, string>): Promise<ServiceList> {
    const entries: ServiceTrack[] = [];
    let playing = 0;
    let unreadable = 0;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const body = await this.page(method, user, page, extra);
      const root = at(body, ROOTS[method]);
      const total = num(at(root, "@attr", "total"));
      const pages = num(at(root, "@attr", "totalPages"));
      const rows = rowsOf(at(root, "track"));
      let listens = 0;
      for (const row of rows) {
        if (isNowPlaying(row)) {
          playing++;
          continue;
        }
        listens++;
        const t = lastfmTrack(row);
        if (t) entries.push(t);
        else unreadable++;
      }
      if (total === null || pages === null) {
        throw new ServiceReadError(SERVICE, 200, `${method} for ${user} answered without its page facts`);
      }
      const owed = Math.min(this.perPage, total - (page - 1) * this.perPage);
      if (listens < owed) throw cutShort(method, user, entries.length + unreadable, total);
      if (page >= pages || listens === 0) {
        if (entries.length + unreadable < total)
          throw cutShort(method, user, entries.length + unreadable, total);
        const skipped: ServiceSkip[] = [];
        if (playing > 0) skipped.push({ reason: "playing now, not a listen yet", count: playing });
        if (unreadable > 0) skipped.push({ reason: "rows without a title or an artist", count: unreadable });
        return { entries, expected: total, ...(skipped.length > 0 ? { skipped } : {}) };
      }
    }
    throw new ServiceReadError(SERVICE, null, `${method} for ${user} ran past ${MAX_PAGES} pages`);
  }

  /** One page's body; Last.fm's passing failures waited out within bounds, other errors thrown. */
  private async page(
    method: Method,
    user: string,
    page: number,
    extra: Record<string, string>,
  ): Promise<unknown> {
    const url = new URL(this.base);
    const q = {
      method,
      user,
      api_key: this.key,
      format: "json",
      page: String(page),
      limit: String(this.perPage),
      ...extra,
    };
    for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
    const started = this.http.now();
    for (let attempt = 1; ; attempt++) {
      const a = await serviceJson(SERVICE, { url }, this.http);
      const code = num(at(a.json, "error"));
      if (code === null && a.status === 200) return a.json;
      // serviceJson waited out 429s and 5xx already; a passing error in any other answer (Last.fm
      // sends some with HTTP 200) is tried again here, within the same bounds.
      const wait =
        code !== null && PASSING.has(code)
          ? retryDelay(SERVICE_RETRY, attempt, this.http.now() - started, undefined, this.http.random)
          : null;
      if (wait === null) throw refusal(a, code, method, user);
      await this.http.sleep(wait);
    }
  }
}

function checkUser(user: string): string {
  if (typeof user !== "string" || user.trim() === "" || user.length > 64 || /[\u0000-\u001f]/.test(user)) {
    throw new ServiceReadError(SERVICE, null, `user ${shown(user)} is not a Last.fm user name`);
  }
  return user.trim();
}

function cutShort(method: Method, user: string, got: number, total: number): ServiceReadError {
  return new ServiceReadError(
    SERVICE,
    null,
    `${method} for ${user} came back cut short (${got} of ${total} read); nothing of it is used`,
  );
}

/** Last.fm's error in our words, by its code: nothing of its text (nor the address) is repeated. */
function refusal(a: ServiceAnswer, code: number | null, method: Method, user: string): ServiceReadError {
  const status = a.status;
  const tag = code !== null ? `error ${code}, HTTP ${status}` : `HTTP ${status}`;
  switch (code) {
    case 6:
      return new ServiceReadError(
        SERVICE,
        status,
        status === 404
          ? `there is no Last.fm user named ${user} (${tag})`
          : `Last.fm refused the parameters of ${method} (${tag})`,
      );
    case 10:
      return new ServiceReadError(
        SERVICE,
        status,
        `the API key was refused (${tag}); a key is made at https://www.last.fm/api/account/create`,
      );
    case 26:
      return new ServiceReadError(SERVICE, status, `the API key is suspended (${tag})`);
    case 17:
      return new ServiceReadError(SERVICE, status, `${user} hides their listening from others (${tag})`);
    case 29:
      return new ServiceReadError(SERVICE, status, `Last.fm's rate limit held after waiting (${tag})`);
    case 8:
    case 11:
    case 16:
      return new ServiceReadError(SERVICE, status, `Last.fm kept failing on ${method} (${tag})`);
    default:
      return new ServiceReadError(SERVICE, status, `${method} for ${user} failed (${tag})`);
  }
}
