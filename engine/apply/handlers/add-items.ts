/**
 * Adding ids to a playlist: one request per batch; a refused or unanswered batch is verified by
 * reading the playlist back, then what is missing is re-sent (unanswered) or split until each bad id
 * stands alone and is quarantined once refused twice. A playlist still too fresh to edit (409 past
 * the wait in `sendWrite`) fails the action without blaming any id.
 */
import type { AddedRow } from "../client.js";
import { failedStatus, succeeded } from "../client.js";
import { ActionFailed, conflict, describeAnswer, lost, message, refused } from "../errors.js";
import { quarantine } from "../quarantine.js";
import { type ApplySession, own, reread, sendWrite } from "../session.js";

interface Tries {
  lost: number;
  refused: number;
}

/** What one add request came to: done (its rows owned), or the answer / error to look into. */
type Sent = { done: true } | { done: false; answer: unknown; error: unknown };

async function sendAdd(s: ApplySession, pid: string, ids: string[]): Promise<Sent> {
  try {
    const answer = await sendWrite(s, () => s.ctx.client.addPlaylistItems(pid, ids));
    if (!succeeded(answer)) return { done: false, answer, error: null };
    const results = (answer as { playlistEditResults?: AddedRow[] }).playlistEditResults ?? [];
    own(
      s,
      results.filter((r) => ids.includes(r.videoId)),
    );
    return { done: true };
  } catch (e) {
    if (!refused(e) && !lost(e)) throw e;
    return { done: false, answer: undefined, error: e };
  }
}

/** Refused or unanswered: what happened is what the playlist holds now. Returns the ids missing. */
async function readBackAdd(s: ApplySession, ids: string[]): Promise<string[]> {
  const rows = await reread(s);
  const present = new Map<string, string | null>();
  for (const r of rows) if (r.videoId && !present.has(r.videoId)) present.set(r.videoId, r.setVideoId);
  const done = ids.filter((id) => present.has(id));
  own(
    s,
    done.map((videoId) => ({ videoId, setVideoId: present.get(videoId) ?? null })),
  );
  return ids.filter((id) => !present.has(id));
}

export async function addIds(
  s: ApplySession,
  pid: string,
  ids: string[],
  tries: Tries = { lost: 0, refused: 0 },
): Promise<void> {
  if (ids.length === 0) return;
  const sent = await sendAdd(s, pid, ids);
  if (sent.done) return;
  const { answer, error } = sent;
  const missing = await readBackAdd(s, ids);
  if (missing.length === 0) return;
  if (lost(error)) {
    if (tries.lost >= 2) throw error;
    return addIds(s, pid, missing, { ...tries, lost: tries.lost + 1 });
  }
  if (conflict(error)) throw new ActionFailed(`the playlist is not editable yet: ${message(error)}`);
  // An answer with no status (the feature gate) refused no id in particular: nothing to split or
  // quarantine, the add simply did not happen and the next run plans it again.
  if (error === null && !failedStatus(answer)) {
    throw new ActionFailed(`the service did not confirm the add of ${missing.length} of ${ids.length} ids`);
  }
  if (missing.length === 1) return refusedAlone(s, pid, missing[0]!, error ?? answer, tries);
  const mid = Math.ceil(missing.length / 2);
  await addIds(s, pid, missing.slice(0, mid));
  await addIds(s, pid, missing.slice(mid));
}

/**
 * One refusal is no proof the id is bad: a failed status can be passing (the service's own hiccup,
 * nothing changed), and a week without an available song is a worse outcome for the person than one
 * more request. So the one-id add is sent once more (through the pacer, so after its delay) within
 * this run, and the id is quarantined only when refused again — a bad id is refused every time, so it
 * still costs one run, not two.
 */
async function refusedAlone(
  s: ApplySession,
  pid: string,
  videoId: string,
  answer: unknown,
  tries: Tries,
): Promise<void> {
  if (tries.refused === 0) {
    s.ctx.logger.warn(
      { recipe: s.recipeId, videoId, why: describeAnswer(answer) },
      "add of one id refused; sending it once more before quarantining it",
    );
    return addIds(s, pid, [videoId], { lost: 0, refused: 1 });
  }
  await quarantine(s, videoId, answer);
}
