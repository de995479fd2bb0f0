/**
 * A user's top recordings as the statistics API answers them: `payload.recordings` with names,
 * MBIDs where the listen was mapped to MusicBrainz (absent where not), listen counts, and the
 * page's `count`, `offset` and `total_recording_count`; 204 with no body while the user's
 * statistics have not been calculated yet.
 */
import type { EmulatorState } from "../../context.js";
import type { Reply } from "../reply.js";
import { LB_USERS, topRecordings } from "./data.js";
import { creditJson } from "./describe.js";

const WEEK_S = 7 * 86_400;
const RANGE_SECONDS: Record<string, number> = {
  this_week: WEEK_S,
  week: WEEK_S,
  this_month: 31 * 86_400,
  month: 31 * 86_400,
  quarter: 92 * 86_400,
  half_yearly: 183 * 86_400,
  this_year: 366 * 86_400,
  year: 366 * 86_400,
};

export function statsPayload(
  state: EmulatorState,
  user: string,
  range: string,
  page: { count: number; offset: number },
  cut: boolean,
): Reply {
  if (!LB_USERS[user]?.stats) return { status: 204, body: null };
  const all = topRecordings(state, user, range);
  const rows = all.slice(page.offset, page.offset + page.count);
  const shown = cut ? rows.slice(0, Math.ceil(rows.length / 2)) : rows;
  const now = Math.floor(state.now() / 1000);
  const day = now - (now % 86_400);
  return {
    status: 200,
    body: {
      payload: {
        count: rows.length,
        offset: page.offset,
        range,
        last_updated: day + 3_600,
        from_ts: range === "all_time" ? 1_009_843_200 : day - (RANGE_SECONDS[range] ?? WEEK_S),
        to_ts: day,
        total_recording_count: all.length,
        user_id: user,
        recordings: shown.map(({ track: t, listenCount, unmapped }) =>
          unmapped
            ? {
                artist_name: t.creator,
                listen_count: listenCount,
                release_name: t.album ?? "",
                track_name: t.title,
              }
            : {
                artist_mbids: t.artists.map((a) => a.mbid),
                artist_name: t.creator,
                artists: creditJson(t.artists),
                caa_id: t.caaId,
                caa_release_mbid: t.caaId !== null ? t.releaseMbid : null,
                listen_count: listenCount,
                recording_mbid: t.mbid,
                release_mbid: t.releaseMbid ?? "",
                release_name: t.album ?? "",
                track_name: t.title,
              },
        ),
      },
    },
  };
}
