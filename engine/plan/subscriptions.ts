/** Subscriptions: artists' channels subscribed to and unsubscribed from. */
import { chunk } from "../../shared/chunk.js";
import { addsOf, type PlanInput, removalsOf } from "./core.js";
import { draftPlan } from "./draft.js";
import { finishPlan } from "./finish.js";
import type { Plan, PlanAction } from "./types.js";

export function planSubscriptions(input: PlanInput): Plan {
  const draft = draftPlan(input);
  const actions: PlanAction[] = [];
  // The service takes one channel per subscribe request, several per unsubscribe.
  for (const e of addsOf(draft)) actions.push({ kind: "subscribe_artists", channelIds: [e.key] });
  const channels = removalsOf(draft).map((r) => r.key!);
  for (const ids of chunk(channels, input.policy.batch_size)) {
    actions.push({ kind: "unsubscribe_artists", channelIds: ids });
  }
  return finishPlan(draft, actions, []);
}
