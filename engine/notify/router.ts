/** Which targets want an event: each target names its events in `musicsync.yaml`. */
import type { NotifyTarget } from "../recipe/types.js";
import type { NotifyEvent } from "./events.js";

export function routeEvent(targets: readonly NotifyTarget[], event: NotifyEvent): NotifyTarget[] {
  return targets.filter((t) => t.events.includes(event.event));
}

/** Whether any target wants this kind of event (so the daemon can skip work nobody reads). */
export function anyWants(targets: readonly NotifyTarget[], kind: NotifyEvent["event"]): boolean {
  return targets.some((t) => t.events.includes(kind));
}
