/**
 * The state as the engine's runs write to it: every argument scrubbed of credentials before it is
 * stored (engine/output/scrub.ts holds the scrubber; this wrapper is the run's, since it knows the
 * state's interface).
 */
import { type CredentialScrubber, engineScrubber } from "../output/scrub.js";
import type { EngineState, Stores } from "../state/types.js";

/**
 * The state with every argument scrubbed before it is stored: run errors, conditions, the journal's
 * payloads and results, failure reasons. Reads pass through untouched.
 */
export function scrubbingState<S extends EngineState | Stores>(
  state: S,
  scrubber: CredentialScrubber = engineScrubber,
): S {
  return new Proxy(state, {
    get(target, property) {
      const member: unknown = Reflect.get(target, property, target);
      if (typeof member !== "function") return member;
      // A batch's calls are the state's calls too: scrubbed alike.
      if (property === "batch") {
        return <T>(work: (stores: Stores) => Promise<T>) =>
          (target as EngineState).batch((stores) => work(scrubbingState(stores, scrubber)));
      }
      return (...args: unknown[]) =>
        member.apply(
          target,
          args.map((a) => scrubber.value(a)),
        );
    },
  });
}
