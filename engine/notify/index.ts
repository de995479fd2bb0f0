export { DaemonNotifications, type DaemonNotifyOptions } from "./daemon-events.js";
export type { NotifyEvent, NotifyEventKind } from "./events.js";
export { Notifier, type NotifierOptions } from "./notifier.js";
export { routeEvent } from "./router.js";
export { runEvents } from "./run-events.js";
export { DEFAULT_DELIVERY, type DeliveryPolicy, nextTryAt } from "./schedule.js";
export { syncNotifications } from "./sync.js";
