/**
 * The connections `musicapi call` lends its client: through --proxy when given, else direct. A module
 * of its own so that call.ts imports it (and undici) only when `call` runs; it names undici's exports
 * in a static import because the bundled command (scripts/bundle-commands.mjs) gives a lazily
 * imported CommonJS package only its default export, not its named ones.
 */
import { Agent, type Dispatcher, ProxyAgent } from "undici";

export function callDispatcher(proxy: string | undefined): Dispatcher {
  return proxy ? new ProxyAgent(proxy) : new Agent();
}
