/**
 * apply(plan): the only writer. Every action is journaled (`pending`) before the first request,
 * marked `sent` before its request and `confirmed` / `failed` / `unknown` after, with the service's
 * answer (the new playlist id, the new rows' setVideoIds). What the engine owns (its playlist, the
 * rows it added) is recorded as each write is confirmed, so a run killed at any point leaves a
 * journal a re-run can reconcile against the target it reads again.
 *
 * Failures follow ENGINE.md "Limits of the service": an add refused for one bad id is split until
 * the id is found and quarantined; a refusal (also HTTP 200 with a failed status) or a lost answer is
 * verified by reading the target back; 429/5xx are paced and retried by the Pacer.
 */
import { ServiceError, TransportError } from "../../src/index.js";
import type { Plan, PlanAction, RowRef } from "../plan/types.js";
import type { TargetSpec } from "../recipe/types.js";
import type { Item } from "../sources/item.js";
import { stateTargetKey } from "../state/owned.js";
import type { EngineState, JournalStatus } from "../state/types.js";
import { readTarget } from "../targets/read.js";
import type { AddedRow, EngineClient } from "./client.js";
import { succeeded } from "./client.js";
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

class ActionFailed extends Error {}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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

  const paced = <T>(write: () => Promise<T>): Promise<T> => {
    requests += 1;
    return pacer.send(write, (note) =>
      logger.warn(
        { recipe: recipeId, attempt: note.attempt, delayMs: note.delayMs, error: message(note.error) },
        "write throttled; retrying",
      ),
    );
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

  /** The target as it is now (a read, not a write): how refusals and lost answers are verified. */
  const reread = async (): Promise<Item[]> => {
    const read = await readTarget(spec, client, { recipeId, ownedPlaylistId: playlistId });
    if (spec.type === "playlist" && read.actual.playlistId) playlistId = read.actual.playlistId;
    return [...read.actual.rows];
  };
  const keysOf = (rows: readonly Item[]) =>
    new Set(rows.map((r) => r.videoId ?? r.playlistId ?? r.browseId ?? ""));

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
   * re-sent (unanswered) or split until each bad id stands alone and is quarantined. A playlist
   * still too fresh to edit (409 past the wait in `send`) fails the action without blaming any id.
   */
  const addIds = async (pid: string, ids: string[], tries = { lost: 0 }): Promise<void> => {
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
      return addIds(pid, missing, { lost: tries.lost + 1 });
    }
    if (conflict(error)) throw new ActionFailed(`the playlist is not editable yet: ${message(error)}`);
    if (missing.length === 1) {
      quarantined.push(missing[0]!);
      // An expired quarantine refused again starts a new week: replace the old record, not keep it.
      await state.removeTombstones(account, QUARANTINE_TARGET, missing);
      await state.addTombstones(account, QUARANTINE_TARGET, recipeId, missing, clock.now());
      logger.warn({ recipe: recipeId, videoId: missing[0], why: message(error ?? answer) }, "id quarantined");
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
          const read = await readTarget(spec, client, { recipeId, ownedPlaylistId: null });
          if (read.actual.exists && read.actual.playlistId) playlistId = read.actual.playlistId;
          else if (refused(answer) && action.videoIds.length > 0) {
            // One bad id refuses the whole create: create it empty, then add with splitting.
            const empty = await send(() =>
              client.createPlaylist(action.title, action.description, { privacyStatus: action.privacy }),
            );
            if (typeof empty !== "string" || empty === "") throw new ActionFailed("create refused");
            playlistId = empty;
          } else throw new ActionFailed(`create refused: ${message(answer)}`);
        }
        const pid = playlistId;
        await state.recordOwnedPlaylist({
          account,
          recipeId,
          target: stateTargetKey(spec, pid),
          playlistId: pid,
          createdAt: clock.now(),
        });
        // The create answer names only the playlist: its rows' ids come from reading it.
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
          () => client.editPlaylist(pid, opts),
          async () => {
            const read = await readTarget(spec, client, { recipeId, ownedPlaylistId: pid });
            const a = read.actual;
            return (
              (title === undefined || a.title === title) &&
              (description === undefined || a.description === description) &&
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
          if (!succeeded(answer)) throw new ActionFailed("remove refused");
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
          () => client.editPlaylist(pid, { moveItems }),
          async () => false,
        );
        return;
      }
      case "rate_song": {
        await checked(
          () => client.rateSong(action.videoId, action.rating),
          async () => keysOf(await reread()).has(action.videoId) === (action.rating === "LIKE"),
        );
        if (action.rating === "INDIFFERENT")
          await state.removeOwnedRows(account, key(), [{ itemKey: action.videoId }]);
        else await own([{ videoId: action.videoId, setVideoId: null }]);
        return;
      }
      case "rate_playlist": {
        await checked(
          () => client.ratePlaylist(action.playlistId, action.rating),
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
          () => client.editSongLibraryStatus(action.feedbackTokens),
          async () => false,
        );
        return;
      case "subscribe_artists": {
        await checked(
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

  /** One write whose refusal or lost answer is checked by reading back (a 409 "already so" included). */
  const checked = async (write: () => Promise<unknown>, verify: () => Promise<boolean>): Promise<void> => {
    let problem: unknown;
    try {
      const answer = await send(write);
      if (succeeded(answer)) return;
      problem = new ActionFailed("the service answered with a failed status");
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
      await state.journalMark(runId, seq, "failed", clock.now(), { error: stop });
      outcomes.push({ seq, kind: action.kind, status: "failed", requests: 0, error: stop });
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
      const status: ActionOutcome["status"] = lost(e) ? "unknown" : "failed";
      const why = message(e);
      await state.journalMark(runId, seq, status, clock.now(), { error: why });
      outcomes.push({ seq, kind: action.kind, status, requests: requests - before, error: why });
      ctx.onAction?.({ recipeId, seq, total, kind: action.kind, phase: status });
      logger.warn({ recipe: recipeId, run: runId, seq, kind: action.kind, error: why }, "action failed");
      // Without its playlist nothing else of the plan can be sent.
      if (action.kind === "create_playlist") stop = `not sent: ${why}`;
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
