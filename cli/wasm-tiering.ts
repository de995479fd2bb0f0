/**
 * Keeps V8 from compiling undici's HTTP/1 parser (llhttp, WebAssembly) a second time with its
 * optimising compiler during a short command.
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
 * long-running command (the daemon, a worker) still gets the optimised parser once it has parsed
 * some 165 times what a `sync` parses before tiering up today. The flag must be set before the parser is compiled (the first
 * request) and before any chunk is loaded: V8 stamps its code cache with a hash of the flags, and
 * a cache made under other flags is refused (cli/code-cache.ts), so every run sets it at the same
 * point, first.
 */
import { setFlagsFromString } from "node:v8";

/** The largest value of V8's `int` flag. */
const TIERING_BUDGET = 2 ** 31 - 1;

export function keepWasmBaseline(): void {
  setFlagsFromString(`--wasm-tiering-budget=${TIERING_BUDGET}`);
}
