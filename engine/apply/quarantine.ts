/** Ids the service refuses to add, left out of plans for a while (docs/ENGINE.md#limits-of-the-service). */
import { describeAnswer } from "./errors.js";
import type { ApplySession } from "./session.js";

/** Where quarantined ids are filed (account-wide: an id the service refuses is refused everywhere). */
export const QUARANTINE_TARGET = "quarantine";
/**
 * How long a quarantined id is left out. Refusals are often passing (a region block, a song
 * re-uploaded, a private video made public again), so after a week the id is tried once more; if the
 * service refuses it again it is quarantined for another week from that refusal.
 */
export const QUARANTINE_MS = 7 * 86_400_000;

/** Files one id the service refused twice, alone in its add, as quarantined from now. */
export async function quarantine(s: ApplySession, videoId: string, answer: unknown): Promise<void> {
  const { state, clock, logger } = s.ctx;
  s.quarantined.push(videoId);
  // An expired quarantine refused again starts a new week: replace the old record, not keep it.
  await state.removeTombstones(s.account, QUARANTINE_TARGET, [videoId]);
  await state.addTombstones(s.account, QUARANTINE_TARGET, s.recipeId, [videoId], clock.now());
  logger.warn({ recipe: s.recipeId, videoId, why: describeAnswer(answer) }, "id quarantined");
}
