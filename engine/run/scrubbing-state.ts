/**
 * The state as the engine's runs write to it: every argument scrubbed of credentials before it is
 * stored (engine/output/scrub.ts holds the scrubber; this wrapper is the run's, since it knows the
 * state's interface).
 */
import { type CredentialScrubber, engineScrubber } from "../output/scrub.js";
import type { EngineState } from "../state/types.js";

/**
 * The state with every argument scrubbed before it is stored: run errors, conditions, the journal's
 * payloads and results, failure reasons. Reads pass through untouched.
 */
export function scrubbingState(
  state: EngineState,
  scrubber: CredentialScrubber = engineScrubber,
): EngineState {
  return new Proxy(state, {
    get(target, property) {
      const member: unknown = Reflect.get(target, property, target);
      if (typeof member !== "function") return member;
      return (...args: unknown[]) =>
        member.apply(
          target,
          args.map((a) => scrubber.value(a)),
        );
    },
  });
}
