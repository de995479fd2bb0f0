/**
 * apply(plan): the only writer. Every action is journaled (`pending`) before the first request,
 * marked `sent` before its request and `confirmed` / `failed` / `unknown` after, with the service's
 * answer (the new playlist id, the new rows' setVideoIds). What the engine owns (its playlist, the
 * rows it added) is recorded as each write is confirmed, so a run killed at any point leaves a
 * journal a re-run can reconcile against the target it reads again.
 *
 * Failures follow ENGINE.md "Limits of the service": an add refused for one bad id is split until
 * the id stands alone, and the id is quarantined when that one-id add is refused twice; a refusal (also HTTP 200 with a failed status) or a lost answer is
 * verified by reading the target back; 429/5xx are paced and retried by the Pacer.
 */
import { ServiceError, TransportError } from "../../src/index.js";
import type { Plan, PlanAction, RowRef } from "../plan/types.js";
import { sameDescription, sameTitle } from "../recipe/service-text.js";
import type { TargetSpec } from "../recipe/types.js";
import { type Item, makeItem } from "../sources/item.js";
import { stateTargetKey } from "../state/owned.js";
import type { EngineState, JournalStatus } from "../state/types.js";
import { type Rating, readRatings } from "../targets/ratings.js";
import { readTarget } from "../targets/read.js";
import type { AddedRow, EngineClient } from "./client.js";
import { failedStatus, succeeded, type WriteKind, writeConfirmed } from "./client.js";
import { type Clock, isThrottle400, type Pacer } from "./pacer.js";

/** Where quarantined ids are filed (account-wide: an id the service refuses is refused everywhere). */
export const QUARANTINE_TARGET = "quarantine";
/**
 * How long a quarantined id is left out. Refusals are often passing (a region block, a song
 * re-uploaded, a private video made public again), so after a week the id is tried once more; if the
 * service refuses it again it is quarantined for another week from that refusal.
 */
export const QUARANTINE_MS = 7 * 86_400_000;

export interface ApplyLogger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
}

export type ActionPhase = "sent" | "confirmed" | "failed" | "unknown";

export interface ActionEvent {
  recipeId: string;
  seq: number;
  total: number;
  kind: PlanAction["kind"];
  phase: ActionPhase;
}

export interface ApplyContext {
  client: EngineClient;
  state: EngineState;
  pacer: Pacer;
  clock: Clock;
  runId: number;
  logger: ApplyLogger;
  onAction?: (event: ActionEvent) => void;
}

export interface ActionOutcome {
  seq: number;
  kind: PlanAction["kind"];
  status: Exclude<JournalStatus, "pending" | "sent">;
  /** Write requests this action took (splits and re-sends included, throttled retries not). */
  requests: number;
  error: string | null;
  /** False when its request never left (a stop, or the create before it failed): not sent, not failed. */
  sent?: boolean;
}

export interface ApplyResult {
  result: "converged" | "partial";
  outcomes: ActionOutcome[];
  /** Write requests sent, throttled retries included. */
  requests: number;
  playlistId: string | null;
  quarantined: string[];
}

/**
 * A freshly created playlist refuses edits with 409 for up to ~20 s (PROTOCOL §1.5): such a write is
 * waited for and sent again, first after FRESH_RETRY_MS, doubling, for at most FRESH_PLAYLIST_MS in
 * all — never taken as a refusal of its ids (which would quarantine good songs).
 */
const FRESH_PLAYLIST_MS = 30_000;
const FRESH_RETRY_MS = 1_000;
/** Reads of the target, at most, to verify one write when the service cuts the list short. */
const CUT_READS = 2;

class ActionFailed extends Error {}

/**
 * A write whose fate could not be checked because the read meant to verify it failed (the create
 * went through, then reading its rows failed). Journaled `unknown`, not `failed`: the next run reads
 * the target and takes ownership of what the journal says this action put there.
 */
class Unverified extends Error {
  constructor(cause: unknown) {
    super(`could not read the target back to verify: ${message(cause)}`, { cause });
  }
}

/** An error raised instead of sending (a stop was requested): the request never left. */
function neverSent(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { notSent?: unknown }).notSent === true;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What a refused write's answer said, in a few words: its status, or that it had none. */
function describeAnswer(answer: unknown): string {
  if (answer instanceof Error || typeof answer === "string") return message(answer);
  const status = (answer as { status?: unknown } | null)?.status;
  return typeof status === "string"
    ? `the service answered ${status}`
    : "the service answered without a status";
}

/** A refusal that says the request itself was wrong (a bad id…), as opposed to "not now". */
function refused(error: unknown): boolean {
  return (
    error instanceof ServiceError &&
    error.status !== undefined &&
    error.status >= 400 &&
    error.status < 500 &&
    // A throttling 400 that outlasted the pacer's retries says "not now", not "bad id": never split on it.
    !isThrottle400(error) &&
    error.status !== 429
  );
}

/**
 * HTTP 409. On a playlist write: the playlist was created seconds ago, not editable yet (waited for).
 * On a rating or a subscription: it is already so (verified by reading back, like any refusal).
 */
function conflict(error: unknown): boolean {
  return error instanceof ServiceError && error.status === 409;
}

/** The answer never came: the write may or may not have happened. */
function lost(error: unknown): boolean {
  return error instanceof TransportError;
}

function halves<T>(list: readonly T[]): [T[], T[]] {
  const mid = Math.ceil(list.length / 2);
  return [list.slice(0, mid), list.slice(mid)];
}

export async function applyPlan(plan: Plan, ctx: ApplyContext): Promise<ApplyResult> {
  const { client, state, pacer, clock, runId, logger } = ctx;
  const account = plan.account;
  const recipeId = plan.recipe.id;
  const spec: TargetSpec = plan.target.spec;
  let playlistId = plan.target.playlistId ?? (spec.type === "saved_episodes" ? "SE" : null);
  const key = () => stateTargetKey(spec, playlistId);
  const total = plan.actions.length;
  const startRequests = pacer.sent;
  const quarantined: string[] = [];
  /** setVideoIds of rows this run added, for moves planned before the rows existed. */
  const addedRows = new Map<string, string>();
  let requests = 0;

  await state.journalPlanned(
    runId,
    plan.actions.map((a, i) => ({ seq: i + 1, kind: a.kind, target: key(), payload: a })),
    clock.now(),
  );
  if (plan.tombstones.length > 0) {
    await state.addTombstones(account, key(), recipeId, plan.tombstones, clock.now());
    await state.removeOwnedRows(
      account,
      key(),
      plan.tombstones.map((itemKey) => ({ itemKey })),
    );
  }

  const paced = async <T>(write: () => Promise<T>): Promise<T> => {
    requests += 1;
    try {
      return await pacer.send(write, (note) =>
        logger.warn(
          { recipe: recipeId, attempt: note.attempt, delayMs: note.delayMs, error: message(note.error) },
          "write throttled; retrying",
        ),
      );
    } catch (e) {
      if (neverSent(e)) requests -= 1;
      throw e;
    }
  };
  /** A playlist write: a 409 means the playlist is too fresh to edit yet, so wait and send it again. */
  const send = async <T>(write: () => Promise<T>): Promise<T> => {
    if (spec.type !== "playlist" && spec.type !== "saved_episodes") return paced(write);
    const started = clock.now();
    for (let delay = FRESH_RETRY_MS; ; delay *= 2) {
      try {
        return await paced(write);
      } catch (e) {
        const wait = Math.min(delay, started + FRESH_PLAYLIST_MS - clock.now());
        if (!conflict(e) || wait <= 0) throw e;
        logger.warn(
          { recipe: recipeId, delayMs: wait, error: message(e) },
          "playlist not editable yet; waiting",
        );
        await clock.sleep(wait);
      }
    }
  };

  /** A read that verifies a write: when it fails, the write's fate is unknown (not failed). */
  const verifying = async <T>(read: () => Promise<T>): Promise<T> => {
    try {
      return await read();
    } catch (e) {
      throw new Unverified(e);
    }
  };
  /**
   * The target as it is now (a read, not a write): how refusals and lost answers are verified. Only
   * a complete read can say a row is absent: a list the service cut short (fewer rows than its count)
   * would make unremoved rows look removed and done adds look missing (seed 387 of the soak). So a
   * cut read is read once more, and a second cut leaves the write unverified (`unknown`).
   */
  const reread = (): Promise<Item[]> =>
    verifying(async () => {
      for (let attempt = 1; ; attempt++) {
        const read = await readTarget(spec, client, { recipeId, ownedPlaylistId: playlistId });
        if (spec.type === "playlist" && read.actual.playlistId) playlistId = read.actual.playlistId;
        if (!read.actual.truncated) return [...read.actual.rows];
        if (attempt >= CUT_READS) throw new Error("the target read back was cut short");
      }
    });
  const keysOf = (rows: readonly Item[]) =>
    new Set(rows.map((r) => r.videoId ?? r.playlistId ?? r.browseId ?? ""));

  /**
   * Whether a song now holds `rating`, read back. The liked-songs list is complete, so it answers
   * LIKE (in it), and INDIFFERENT from a LIKE target, which promises only "not liked" (not in it).
   * It says nothing about a DISLIKE, nor about an INDIFFERENT that undoes one: a song neither liked
   * nor disliked is absent from it too. Those are read from the song's own like button on its album
   * page (`readRatings`). A song with no album page (a music video, an episode) cannot be read so:
   * its write stays unconfirmed, the action fails, and the next run sends it again.
   */
  const songRated = async (videoId: string, rating: Rating): Promise<boolean> => {
    const likeTarget = spec.type === "likes" && spec.rating === "LIKE";
    if (rating === "LIKE" || (rating === "INDIFFERENT" && likeTarget)) {
      return keysOf(await reread()).has(videoId) === (rating === "LIKE");
    }
    const song = makeItem({ videoId, source: "target", rank: 1 });
    const ratings = await verifying(() => readRatings([song], client));
    return ratings.get(videoId) === rating;
  };

  const own = async (rows: readonly { videoId: string; setVideoId: string | null }[]) => {
    for (const r of rows) if (r.setVideoId) addedRows.set(r.videoId, r.setVideoId);
    await state.addOwnedRows(
      account,
      key(),
      rows.map((r) => ({ itemKey: r.videoId, setVideoId: r.setVideoId, addedAt: clock.now() })),
    );
  };

  /**
   * Adds ids; a refused or unanswered batch is verified by reading back, then what is missing is
   * re-sent (unanswered) or split until each bad id stands alone and is quarantined once refused
   * twice (see below). A playlist still too fresh to edit (409 past the wait in `send`) fails the
   * action without blaming any id.
   */
  const addIds = async (pid: string, ids: string[], tries = { lost: 0, refused: 0 }): Promise<void> => {
    if (ids.length === 0) return;
    let answer: unknown;
    let error: unknown = null;
    try {
      answer = await send(() => client.addPlaylistItems(pid, ids));
      if (succeeded(answer)) {
        const results = (answer as { playlistEditResults?: AddedRow[] }).playlistEditResults ?? [];
        await own(results.filter((r) => ids.includes(r.videoId)));
        return;
      }
    } catch (e) {
      if (!refused(e) && !lost(e)) throw e;
      error = e;
    }
    // Refused or unanswered: what actually happened is what the playlist holds now.
    const rows = await reread();
    const present = new Map<string, string | null>();
    for (const r of rows) if (r.videoId && !present.has(r.videoId)) present.set(r.videoId, r.setVideoId);
    const done = ids.filter((id) => present.has(id));
    await own(done.map((videoId) => ({ videoId, setVideoId: present.get(videoId) ?? null })));
    const missing = ids.filter((id) => !present.has(id));
    if (missing.length === 0) return;
    if (lost(error)) {
      if (tries.lost >= 2) throw error;
      return addIds(pid, missing, { ...tries, lost: tries.lost + 1 });
    }
    if (conflict(error)) throw new ActionFailed(`the playlist is not editable yet: ${message(error)}`);
    // An answer with no status (the feature gate) refused no id in particular: nothing to split or
    // quarantine, the add simply did not happen and the next run plans it again.
    if (error === null && !failedStatus(answer)) {
      throw new ActionFailed(`the service did not confirm the add of ${missing.length} of ${ids.length} ids`);
    }
    if (missing.length === 1) {
      // One refusal is no proof the id is bad: a failed status can be passing (the service's own
      // hiccup, nothing changed), and a week without an available song is a worse outcome for the
      // person than one more request. So the one-id add is sent once more (through the pacer, so
      // after its delay) within this run, and the id is quarantined only when refused again — a bad
      // id is refused every time, so it still costs one run, not two.
      if (tries.refused === 0) {
        logger.warn(
          { recipe: recipeId, videoId: missing[0], why: describeAnswer(error ?? answer) },
          "add of one id refused; sending it once more before quarantining it",
        );
        return addIds(pid, missing, { lost: 0, refused: 1 });
      }
      quarantined.push(missing[0]!);
      // An expired quarantine refused again starts a new week: replace the old record, not keep it.
      await state.removeTombstones(account, QUARANTINE_TARGET, missing);
      await state.addTombstones(account, QUARANTINE_TARGET, recipeId, missing, clock.now());
      logger.warn(
        { recipe: recipeId, videoId: missing[0], why: describeAnswer(error ?? answer) },
        "id quarantined",
      );
      return;
    }
    const [a, b] = halves(missing);
    await addIds(pid, a);
    await addIds(pid, b);
  };

  const resolve = (ref: RowRef): string => {
    const id = ref.setVideoId ?? addedRows.get(ref.videoId);
    if (!id) throw new ActionFailed(`no row id for ${ref.videoId} (its add did not go through)`);
    return id;
  };

  const requirePlaylist = (): string => {
    if (!playlistId) throw new ActionFailed("the playlist was not created");
    return playlistId;
  };

  const run = async (action: PlanAction): Promise<void> => {
    switch (action.kind) {
      case "create_playlist": {
        const opts = { privacyStatus: action.privacy, videoIds: action.videoIds };
        let answer: unknown;
        try {
          answer = await send(() => client.createPlaylist(action.title, action.description, opts));
        } catch (e) {
          if (!refused(e) && !lost(e)) throw e;
          answer = e;
        }
        if (typeof answer === "string" && answer !== "") {
          playlistId = answer;
        } else {
          // Refused or unanswered: the marker tells whether it exists after all.
          const read = await verifying(() => readTarget(spec, client, { recipeId, ownedPlaylistId: null }));
          if (read.actual.exists && read.actual.playlistId) playlistId = read.actual.playlistId;
          else if (refused(answer) && action.videoIds.length > 0) {
            // One bad id refuses the whole create: create it empty, then add with splitting.
            const empty = await send(() =>
              client.createPlaylist(action.title, action.description, { privacyStatus: action.privacy }),
            );
            if (typeof empty !== "string" || empty === "") throw new ActionFailed("create refused");
            playlistId = empty;
          } else throw new ActionFailed(`create refused: ${describeAnswer(answer)}`);
        }
        const pid = playlistId;
        await state.recordOwnedPlaylist({
          account,
          recipeId,
          target: stateTargetKey(spec, pid),
          playlistId: pid,
          createdAt: clock.now(),
        });
        // The create answer names only the playlist: its rows' ids come from reading it. If that read
        // fails the action is `unknown`, and the next run owns the rows the journal says it created.
        const rows = await reread();
        const have = new Set<string>();
        const first: AddedRow[] = [];
        for (const r of rows) {
          if (r.videoId && r.setVideoId && action.videoIds.includes(r.videoId) && !have.has(r.videoId)) {
            have.add(r.videoId);
            first.push({ videoId: r.videoId, setVideoId: r.setVideoId });
          }
        }
        await own(first);
        await addIds(
          pid,
          action.videoIds.filter((id) => !have.has(id)),
        );
        return;
      }
      case "edit_playlist": {
        const { kind: _k, playlistId: pid, title, description, privacy } = action;
        const opts = {
          ...(title !== undefined ? { title } : {}),
          ...(description !== undefined ? { description } : {}),
          ...(privacy !== undefined ? { privacyStatus: privacy } : {}),
        };
        await checked(
          "edit_playlist",
          () => client.editPlaylist(pid, opts),
          async () => {
            const read = await verifying(() => readTarget(spec, client, { recipeId, ownedPlaylistId: pid }));
            const a = read.actual;
            return (
              // As the service stores them (it trims titles): an exact match would miss a done edit.
              (title === undefined || sameTitle(a.title, title)) &&
              (description === undefined || sameDescription(a.description, description)) &&
              (privacy === undefined || a.privacy === privacy)
            );
          },
        );
        return;
      }
      case "add_playlist_items":
        await addIds(action.playlistId ?? requirePlaylist(), action.videoIds);
        return;
      case "remove_playlist_items": {
        const pid = action.playlistId;
        const videos = action.videos.map((v) => ({ videoId: v.videoId, setVideoId: v.setVideoId }));
        const gone = (rows: readonly Item[]) => {
          const left = new Set(rows.map((r) => r.setVideoId));
          return videos.filter((v) => !left.has(v.setVideoId));
        };
        let removed = videos;
        try {
          const answer = await send(() => client.removePlaylistItems(pid, videos));
          // Only the success status confirms it: an answer without one (the feature gate) is read back.
          if (!succeeded(answer)) throw new ActionFailed("the service did not confirm the remove");
        } catch (e) {
          if (!(e instanceof ActionFailed) && !refused(e) && !lost(e)) throw e;
          removed = gone(await reread());
          if (removed.length < videos.length) {
            await state.removeOwnedRows(
              account,
              key(),
              removed.map((v) => ({ itemKey: v.videoId, setVideoId: v.setVideoId })),
            );
            throw new ActionFailed(`${videos.length - removed.length} of ${videos.length} rows not removed`);
          }
        }
        await state.removeOwnedRows(
          account,
          key(),
          removed.map((v) => ({ itemKey: v.videoId, setVideoId: v.setVideoId })),
        );
        return;
      }
      case "move_playlist_items": {
        const pid = action.playlistId ?? requirePlaylist();
        // One edit request carries the whole batch; the service applies the moves in order.
        const moveItems = action.moves.map((m): string | [string, string] => {
          const row = resolve(m.row);
          return m.before ? [row, resolve(m.before)] : row;
        });
        // Order is re-checked by the next plan; a refused move is reported, not verified here.
        await checked(
          "move_playlist_items",
          () => client.editPlaylist(pid, { moveItems }),
          async () => false,
        );
        return;
      }
      case "rate_song": {
        await checked(
          "rate_song",
          () => client.rateSong(action.videoId, action.rating),
          () => songRated(action.videoId, action.rating),
        );
        if (action.rating === "INDIFFERENT")
          await state.removeOwnedRows(account, key(), [{ itemKey: action.videoId }]);
        else await own([{ videoId: action.videoId, setVideoId: null }]);
        return;
      }
      case "rate_playlist": {
        await checked(
          "rate_playlist",
          () => client.ratePlaylist(action.playlistId, action.rating),
          // A liked album, playlist or podcast is one in the library list this target reads, and
          // only then (rate_playlist has no DISLIKE): that list answers LIKE and INDIFFERENT exactly.
          async () => keysOf(await reread()).has(action.playlistId) === (action.rating === "LIKE"),
        );
        if (action.rating === "INDIFFERENT")
          await state.removeOwnedRows(account, key(), [{ itemKey: action.playlistId }]);
        else await own([{ videoId: action.playlistId, setVideoId: null }]);
        return;
      }
      case "edit_song_library_status":
        // Tokens do not say which song they name; the next plan reads the library again.
        await checked(
          "edit_song_library_status",
          () => client.editSongLibraryStatus(action.feedbackTokens),
          async () => false,
        );
        return;
      case "subscribe_artists": {
        await checked(
          "subscribe_artists",
          () => client.subscribeArtists(action.channelIds),
          async () => {
            const keys = keysOf(await reread());
            return action.channelIds.every((c) => keys.has(c));
          },
        );
        await own(action.channelIds.map((videoId) => ({ videoId, setVideoId: null })));
        return;
      }
      case "unsubscribe_artists": {
        await checked(
          "unsubscribe_artists",
          () => client.unsubscribeArtists(action.channelIds),
          async () => {
            const keys = keysOf(await reread());
            return action.channelIds.every((c) => !keys.has(c));
          },
        );
        await state.removeOwnedRows(
          account,
          key(),
          action.channelIds.map((itemKey) => ({ itemKey })),
        );
        return;
      }
    }
  };

  /**
   * One write, done only on the service's positive confirmation for its kind; otherwise (a refusal,
   * a lost answer, a 409 "already so", an answer that says nothing) checked by reading back.
   */
  const checked = async (
    kind: WriteKind,
    write: () => Promise<unknown>,
    verify: () => Promise<boolean>,
  ): Promise<void> => {
    let problem: unknown;
    try {
      const answer = await send(write);
      if (writeConfirmed(kind, answer)) return;
      problem = new ActionFailed(
        failedStatus(answer)
          ? "the service answered with a failed status"
          : "the service did not confirm the write",
      );
    } catch (e) {
      if (!refused(e) && !lost(e)) throw e;
      problem = e;
    }
    if (await verify()) return;
    throw new ActionFailed(message(problem));
  };

  const outcomes: ActionOutcome[] = [];
  let stop: string | null = null;
  for (let i = 0; i < plan.actions.length; i++) {
    const action = plan.actions[i]!;
    const seq = i + 1;
    const before = requests;
    const addedBefore = addedRows.size;
    const quarantinedBefore = quarantined.length;
    if (stop !== null) {
      await state.journalMark(runId, seq, "failed", clock.now(), { error: stop, sent: false });
      outcomes.push({ seq, kind: action.kind, status: "failed", requests: 0, error: stop, sent: false });
      continue;
    }
    await state.journalMark(runId, seq, "sent", clock.now());
    ctx.onAction?.({ recipeId, seq, total, kind: action.kind, phase: "sent" });
    logger.debug({ recipe: recipeId, run: runId, seq, kind: action.kind }, "action sent");
    try {
      await run(action);
      await state.journalMark(runId, seq, "confirmed", clock.now(), {
        playlistId,
        requests: requests - before,
        ...(action.kind === "add_playlist_items" || action.kind === "create_playlist"
          ? {
              // This action's new rows only: the service's answer, as the journal keeps it.
              added: Object.fromEntries([...addedRows].slice(addedBefore)),
              quarantined: quarantined.slice(quarantinedBefore),
            }
          : {}),
      });
      outcomes.push({
        seq,
        kind: action.kind,
        status: "confirmed",
        requests: requests - before,
        error: null,
      });
      ctx.onAction?.({ recipeId, seq, total, kind: action.kind, phase: "confirmed" });
    } catch (e) {
      const status: ActionOutcome["status"] = lost(e) || e instanceof Unverified ? "unknown" : "failed";
      const why = message(e);
      // Stopped before its first request: not sent (the counts say so, not "failed").
      const sent = !(neverSent(e) && requests === before);
      await state.journalMark(runId, seq, status, clock.now(), {
        error: why,
        ...(sent ? {} : { sent: false }),
        ...(action.kind === "create_playlist" && playlistId ? { playlistId } : {}),
      });
      outcomes.push({
        seq,
        kind: action.kind,
        status,
        requests: requests - before,
        error: why,
        ...(sent ? {} : { sent: false }),
      });
      ctx.onAction?.({ recipeId, seq, total, kind: action.kind, phase: status });
      logger.warn({ recipe: recipeId, run: runId, seq, kind: action.kind, error: why }, "action failed");
      // Without its playlist nothing else of the plan can be sent (a create whose rows could not be
      // read back did make it: the rest goes on).
      if (action.kind === "create_playlist" && !(e instanceof Unverified && playlistId))
        stop = `not sent: ${why}`;
    }
  }
  const allDone = outcomes.every((o) => o.status === "confirmed");
  return {
    result: allDone && quarantined.length === 0 ? "converged" : "partial",
    outcomes,
    requests: pacer.sent - startRequests,
    playlistId,
    quarantined,
  };
}
