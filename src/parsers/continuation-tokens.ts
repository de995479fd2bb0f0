/**
 * The continuation tokens a page carries (docs/PROTOCOL.md#continuations): read by the parsers that
 * hand a token back with a page, and by the operations that follow them.
 */
import { isObject, list, type Path, str } from "./nav.js";

const NEXT: Path = ["continuations", 0, "nextContinuationData", "continuation"];
const RADIO: Path = ["continuations", 0, "nextRadioContinuationData", "continuation"];
const RELOAD: Path = ["continuations", 0, "reloadContinuationData", "continuation"];

export type ClassicKind = "next" | "radio" | "reload";

/** The classic continuation token of a container (`musicShelfRenderer`, `gridRenderer`, …). */
export function classicToken(container: unknown, kind: ClassicKind = "next"): string | null {
  return str(container, kind === "next" ? NEXT : kind === "radio" ? RADIO : RELOAD);
}

const CONTINUATION_COMMAND: Path = [
  "continuationItemRenderer",
  "continuationEndpoint",
  "continuationCommand",
  "token",
];
const NESTED_COMMANDS: Path = [
  "continuationItemRenderer",
  "continuationEndpoint",
  "commandExecutorCommand",
  "commands",
];

/**
 * The token of a trailing `continuationItemRenderer` (shape C), or of the browse command nested in a
 * `commandExecutorCommand` (shape C', "Top voted" collaborative playlists).
 */
export function itemToken(items: readonly unknown[]): string | null {
  const last = items[items.length - 1];
  if (!isObject(last) || !("continuationItemRenderer" in last)) return null;
  const direct = str(last, CONTINUATION_COMMAND);
  if (direct !== null) return direct;
  for (const command of list(last, NESTED_COMMANDS)) {
    if (str(command, ["continuationCommand", "request"]) === "CONTINUATION_REQUEST_TYPE_BROWSE") {
      const token = str(command, ["continuationCommand", "token"]);
      if (token !== null) return token;
    }
  }
  return null;
}
