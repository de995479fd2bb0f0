/**
 * What the bundled commands take from undici, in place of its index (scripts/bundle-commands.mjs
 * points their `import … from "undici"` here). The index loads all of undici as it is imported:
 * fetch, WebSocket, EventSource, the cache stores, the mock agents — some 110 modules, about an
 * eighth of a no-change `sync`'s CPU — where a command that reads the service needs an Agent and
 * the request API on it. The rest of what our code names (`ProxyAgent`, the `request` function)
 * is loaded when first used, `request` from the index itself, so it is undici's own.
 * The modules are the index's: one undici in a command, as before.
 */
"use strict";

const Dispatcher = require("undici/lib/dispatcher/dispatcher");
const api = require("undici/lib/api");

// As the index does: every dispatcher gets request(), stream() and the rest.
Object.assign(Dispatcher.prototype, api);

module.exports = {
  Agent: require("undici/lib/dispatcher/agent"),
  Dispatcher,
  get ProxyAgent() {
    return require("undici/lib/dispatcher/proxy-agent");
  },
  get request() {
    return require("undici").request;
  },
};
