/**
 * Reading ListenBrainz (https://api.listenbrainz.org/1/): the playlists its recommender makes for
 * a user (a series' newest, or every one kept), a user's playlists, one playlist, a user's top
 * recordings. Every page is read; a read cut short throws, never returns fewer entries. The rate
 * limit is honoured both ways: when `X-RateLimit-Remaining` says 0 the next request waits out
 * `X-RateLimit-Reset-In` (bounded), and a 429 is waited out by serviceJson. The token, when
 * given, goes in the Authorization header only, and is registered with the engine's scrubber.
 */
import { engineScrubber } from "../../output/scrub.js";
import {
  answerHeader,
  type ServiceAnswer,
  type ServiceHttp,
  ServiceReadError,
  serviceJson,
} from "../http.js";
import { at, num, text } from "../json.js";
import type { ServiceList } from "../types.js";
import { checkRange, checkSeries, checkUser, parsePlaylistId } from "./args.js";
import { jspfTracks, type PlaylistInfo, playlistInfo, SERIES } from "./jspf.js";
import { statsPage } from "./stats.js";

const SERVICE = "listenbrainz";
export const LISTENBRAINZ_API = "https://api.listenbrainz.org";
/** Items per listing or statistics request (ListenBrainz's most for playlists). */
const PER_PAGE = 100;
/** No list of a user's comes near this many pages; a service that keeps paging is not followed. */
const MAX_PAGES = 500;
/** The longest pause for a spent rate-limit window; ListenBrainz's windows are seconds long. */
const MAX_WINDOW_WAIT_MS = 60_000;

export interface ListenBrainzOptions {
  /** The API's root, under which `1/…` is asked (default the real one; tests give the emulator's stand-in). */
  baseUrl?: string;
  /** The user's token: optional; private playlists need their owner's. */
  token?: string | null;
  http: ServiceHttp;
  /** Items per listing or statistics request (default and most: 100); tests page with fewer. */
  pageSize?: number;
}

export interface ListenBrainzPlaylist {
  info: PlaylistInfo;
  list: ServiceList;
}

/** What a 404 stands for, so that its message says which. */
type Subject = { user: string } | { playlist: string };

export class ListenBrainzReader {
  private readonly base: URL;
  private readonly token: string | null;
  private readonly http: ServiceHttp;
  private readonly perPage: number;
  /** No request before this time (a spent rate-limit window). */
  private pauseUntil = 0;

  constructor(options: ListenBrainzOptions) {
    this.base = new URL(options.baseUrl ?? LISTENBRAINZ_API);
    if (!this.base.pathname.endsWith("/")) this.base.pathname += "/";
    this.token = options.token?.trim() || null;
    if (this.token) engineScrubber.addSecrets([this.token]);
    this.http = options.http;
    this.perPage = Math.max(1, Math.min(PER_PAGE, Math.floor(options.pageSize ?? PER_PAGE)));
  }

  /** The playlists made for `user` (Weekly Jams, Weekly Exploration, Daily Jams…), newest first. */
  async createdFor(user: string): Promise<PlaylistInfo[]> {
    const u = checkUser(user);
    return this.playlistListing(["user", u, "playlists", "createdfor"], { user: u });
  }

  /** The user's own playlists (the private ones too when the token is the user's). */
  async userPlaylists(user: string): Promise<PlaylistInfo[]> {
    const u = checkUser(user);
    return this.playlistListing(["user", u, "playlists"], { user: u });
  }

  /**
   * The series' newest playlist, or every one ListenBrainz still keeps (newest first). A user
   * without one yet is an error, not an empty list: an empty list would read as "all removed".
   */
  async series(user: string, series: string, which: "newest" | "all"): Promise<ListenBrainzPlaylist[]> {
    const s = checkSeries(series);
    const u = checkUser(user);
    const made = (await this.createdFor(u)).filter((p) => p.series === s);
    // Newest first by date; the listing's own order (newest first) where dates are missing.
    const ordered = made
      .map((p, i) => ({ p, i, t: p.date ? Date.parse(p.date) : Number.NaN }))
      .sort((a, b) => (Number.isNaN(a.t) || Number.isNaN(b.t) ? a.i - b.i : b.t - a.t || a.i - b.i))
      .map((x) => x.p);
    if (ordered.length === 0) {
      throw new ServiceReadError(
        SERVICE,
        null,
        `ListenBrainz has made no ${SERIES[s]} playlist for ${u} yet`,
      );
    }
    const wanted = which === "newest" ? ordered.slice(0, 1) : ordered;
    const out: ListenBrainzPlaylist[] = [];
    for (const p of wanted) out.push({ info: p, list: (await this.playlist(p.mbid)).list });
    return out;
  }

  /**
   * The user's own playlist titled `title` (exactly; the private ones with the owner's token). None
   * or several of that title is an error: which one was meant cannot be guessed.
   */
  async playlistTitled(user: string, title: string): Promise<ListenBrainzPlaylist> {
    const u = checkUser(user);
    const found = (await this.userPlaylists(u)).filter((p) => p.title === title);
    if (found.length !== 1) {
      const shown = JSON.stringify(title.slice(0, 80));
      throw new ServiceReadError(
        SERVICE,
        null,
        found.length === 0
          ? `${u} has no playlist titled ${shown} that this token can see`
          : `${u} has ${found.length} playlists titled ${shown}: name one by its MBID`,
      );
    }
    return this.playlist(found[0]!.mbid);
  }

  /** One playlist by its MBID (or listenbrainz.org address), all its tracks. */
  async playlist(id: string): Promise<ListenBrainzPlaylist> {
    const mbid = parsePlaylistId(id);
    const a = await this.get(["playlist", mbid], {}, { playlist: mbid });
    const info = playlistInfo(a.json);
    if (!info || at(a.json, "playlist", "track") === undefined) {
      throw new ServiceReadError(SERVICE, a.status, `playlist ${mbid} came back without its tracks`);
    }
    const { entries, skipped } = jspfTracks(a.json);
    return { info, list: { entries, expected: null, ...(skipped.length > 0 ? { skipped } : {}) } };
  }

  /** The user's top recordings over `range` (week, month, year, all_time…), most listened first. */
  async topRecordings(user: string, range: string): Promise<ServiceList> {
    const u = checkUser(user);
    const r = checkRange(range);
    const entries: ServiceList["entries"] = [];
    let total: number | null = null;
    let untitled = 0;
    for (let page = 0, offset = 0; page < MAX_PAGES; page++) {
      const a = await this.get(
        ["stats", "user", u, "recordings"],
        { range: r, count: this.perPage, offset },
        { user: u },
      );
      if (a.status === 204) {
        throw new ServiceReadError(
          SERVICE,
          204,
          `ListenBrainz has not calculated ${u}'s statistics yet (HTTP 204); they come some hours after the first listens`,
        );
      }
      const p = statsPage(a.json);
      total = p.total ?? total;
      const owed = total !== null ? Math.min(this.perPage, total - offset) : null;
      if ((p.count !== null && p.sent !== p.count) || (owed !== null && p.sent < owed)) {
        throw cutShort(`${u}'s top recordings`, offset + p.sent, total);
      }
      entries.push(...p.rows);
      untitled += p.sent - p.rows.length;
      offset += p.sent;
      if (p.sent === 0 || total === null || offset >= total) {
        return {
          entries,
          expected: total,
          ...(untitled > 0 ? { skipped: [{ reason: "recordings without a title", count: untitled }] } : {}),
        };
      }
    }
    throw new ServiceReadError(SERVICE, null, `${u}'s top recordings ran past ${MAX_PAGES} pages`);
  }

  /** Every page of a playlist listing (`count`/`offset`, `playlist_count` the whole). */
  private async playlistListing(path: string[], subject: Subject): Promise<PlaylistInfo[]> {
    const out: PlaylistInfo[] = [];
    for (let page = 0, offset = 0; page < MAX_PAGES; page++) {
      const a = await this.get(path, { count: this.perPage, offset }, subject);
      const items = at(a.json, "playlists");
      const list = Array.isArray(items) ? items : [];
      const total = num(at(a.json, "playlist_count"));
      const count = num(at(a.json, "count"));
      const owed = total !== null ? Math.min(this.perPage, total - offset) : null;
      if (
        !Array.isArray(items) ||
        (count !== null && list.length !== count) ||
        (owed !== null && list.length < owed)
      ) {
        throw cutShort("the playlist listing", offset + list.length, total);
      }
      for (const item of list) {
        const info = playlistInfo(item);
        if (info) out.push(info);
      }
      offset += list.length;
      if (list.length === 0 || total === null || offset >= total) return out;
    }
    throw new ServiceReadError(SERVICE, null, `the playlist listing ran past ${MAX_PAGES} pages`);
  }

  private async get(
    path: string[],
    query: Record<string, string | number>,
    subject: Subject,
  ): Promise<ServiceAnswer> {
    const url = new URL(`1/${path.map(encodeURIComponent).join("/")}`, this.base);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
    const wait = this.pauseUntil - this.http.now();
    if (wait > 0) await this.http.sleep(wait);
    const a = await serviceJson(
      SERVICE,
      { url, ...(this.token ? { headers: { authorization: `Token ${this.token}` } } : {}) },
      this.http,
    );
    this.notePause(a);
    if (a.status === 200 || a.status === 204) return a;
    throw this.refusal(a, subject);
  }

  /** A spent window: the next request waits for its end (at most MAX_WINDOW_WAIT_MS). */
  private notePause(a: ServiceAnswer): void {
    const remaining = answerHeader(a, "x-ratelimit-remaining");
    const resetIn = num(answerHeader(a, "x-ratelimit-reset-in"));
    if (remaining?.trim() === "0" && resetIn !== null && resetIn > 0) {
      this.pauseUntil = this.http.now() + Math.min(resetIn * 1000, MAX_WINDOW_WAIT_MS);
    }
  }

  /** The service's refusal in words a person acts on; the service's own text only where it explains a 400. */
  private refusal(a: ServiceAnswer, subject: Subject): ServiceReadError {
    const what = "user" in subject ? `user ${subject.user}` : `playlist ${subject.playlist}`;
    switch (a.status) {
      case 401:
        return new ServiceReadError(
          SERVICE,
          401,
          "the token was refused (HTTP 401); a user's token is on their ListenBrainz settings page",
        );
      case 403:
        return new ServiceReadError(
          SERVICE,
          403,
          `reading ${what} is not allowed with this token (HTTP 403)`,
        );
      case 404:
        return new ServiceReadError(
          SERVICE,
          404,
          "user" in subject
            ? `there is no ListenBrainz user named ${subject.user} (HTTP 404)`
            : `playlist ${subject.playlist} was not found, or is private and the token is not its owner's (HTTP 404)`,
        );
      case 400: {
        const said = this.withoutToken(text(at(a.json, "error")) ?? "");
        return new ServiceReadError(
          SERVICE,
          400,
          `the request for ${what} was refused (HTTP 400)${said ? `: ${said}` : ""}`,
        );
      }
      default:
        return new ServiceReadError(SERVICE, a.status, `reading ${what} failed (HTTP ${a.status})`);
    }
  }

  private withoutToken(said: string): string {
    const short = said.slice(0, 200);
    return this.token ? short.split(this.token).join("[redacted]") : short;
  }
}

function cutShort(what: string, got: number, total: number | null): ServiceReadError {
  const of = total !== null ? ` of ${total}` : "";
  return new ServiceReadError(
    SERVICE,
    null,
    `${what} came back cut short (${got}${of} read); nothing of it is used`,
  );
}
