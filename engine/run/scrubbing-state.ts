/**
 * The state as the engine's runs write to it: every argument scrubbed of credentials before it is
 * stored (engine/output/scrub.ts holds the scrubber; this wrapper is the run's, since it knows the
 * state's interface).
 */
import { type CredentialScrubber, engineScrubber } from "../output/scrub.js";
import type { EngineState, Stores } from "../state/types.js";

/**
 * Calls that only read: their arguments (ids, keys, times) pick rows and are stored nowhere, and a
 * worker makes a dozen a run, each scrubbed by every client it made (one per account). A call not
 * named here is scrubbed, whatever it does.
 */
const READS: ReadonlySet<string> = new Set<keyof EngineState>([
  "runs",
  "recentRuns",
  "run",
  "journal",
  "unfinishedWrites",
  "runBefore",
  "ownedPlaylist",
  "ownedRows",
  "tombstones",
  "tombstonesSince",
  "tombstonesWith",
  "targetMemory",
  "snapshot",
  "snapshotOf",
  "lock",
  "locks",
  "lockLost",
  "conditions",
  "health",
  "accountHealth",
  "recipeHealth",
  "healthOf",
  "sourceReads",
  "cachedMatches",
  "approvals",
  "approval",
  "storedAccount",
  "storedAccounts",
]);

/**
 * The state with every argument of a write scrubbed before it is stored: run errors, conditions,
 * the journal's payloads and results, failure reasons. Reads pass through untouched.
 */
export function scrubbingState<S extends EngineState | Stores>(
  state: S,
  scrubber: CredentialScrubber = engineScrubber,
): S {
  return new Proxy(state, {
    get(target, property) {
      const member: unknown = Reflect.get(target, property, target);
      if (typeof member !== "function") return member;
      if (typeof property === "string" && READS.has(property)) return member.bind(target);
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
