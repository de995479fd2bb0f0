export { type ActionKind, describeAction, performAction } from "./actions.js";
export type { WebHost } from "./host.js";
export { isLoopback } from "./host-check.js";
export {
  parseAddress,
  type RunningWeb,
  startRefusal,
  startWeb,
  type WebOptions,
} from "./server.js";
