/**
 * Keeps V8 from compiling undici's HTTP/1 parser (llhttp, WebAssembly) a second time with its
 * optimising compiler during a command that reads the service.
 *
 * Why: V8 first compiles WebAssembly with its baseline compiler (Liftoff), and sends a function to
 * the optimising one once the function has run "enough" (the tiering budget, counted roughly in
 * bytes of code executed). llhttp's parser is one function of some 33 KB of WebAssembly whose loop
 * spends that budget within the first answer's headers, so every `sync` compiled it again on V8's
 * background threads: about 100 CPU-ms of a no-change `sync`'s ~500, a fifth of the command, for
 * code that was ready only when the command was nearly done (perf: turboshaft's WebAssembly jobs
 * on the V8Worker threads; `--trace-wasm-compilation-times` names the one function). The baseline
 * code parses the same bytes the same way; the bodies, which are most of the bytes, are handed over
 * as whole spans either way.
 *
 * The budget is raised to the largest V8 takes (about 165 times its default), not switched off: a
 * long command still gets the optimised parser once it has parsed some 165 times what a `sync`
 * parses before tiering up today. The daemon and a worker keep the default: they run for hours,
 * and one compilation of the parser is nothing beside the many runs it then serves.
 *
 * When: V8 stamps compiled code it caches with a hash of its flags and refuses a cache made under
 * other flags. So the flag is set before any chunk is loaded (cli/code-cache.ts: every run of a
 * command then makes and reads its entries under the same flags), and only after Node's own modules
 * that such a command uses are loaded: Node compiles those from a cache built into it under the
 * default flags, which the new flag would make it refuse (a `sync` then spent some 25 CPU-ms more
 * compiling crypto, http, zlib and the rest from source). Commands that never read the service keep
 * the defaults, and load nothing more.
 */
/** The largest value of V8's `int` flag. */
const TIERING_BUDGET = 2 ** 31 - 1;

/**
 * The one-shot commands (the first word naming one, cli/code-cache.ts `commandKey`) that read the
 * service. One left out only misses the saving.
 */
const READ_THE_SERVICE = new Set([
  "sync",
  "plan",
  "apply",
  "drift",
  "resume",
  "undo",
  "demo",
  "match",
  "import",
  "export",
  "doctor",
  "call",
]);

/** Node's modules a command that reads the service loads (its HTTP client, the state, the scrub). */
const NODE_MODULES_USED = [
  "node:stream",
  "node:net",
  "node:http",
  "node:crypto",
  "node:zlib",
  "node:fs/promises",
  "node:timers/promises",
  "node:perf_hooks",
  "node:v8",
];

export function keepWasmBaseline(command: string): void {
  if (!READ_THE_SERVICE.has(command)) return;
  for (const name of NODE_MODULES_USED) process.getBuiltinModule(name);
  process.getBuiltinModule("node:v8").setFlagsFromString(`--wasm-tiering-budget=${TIERING_BUDGET}`);
}
