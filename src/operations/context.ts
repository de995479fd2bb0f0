import { ParseError } from "../errors.js";
import type { JsonObject } from "../parsers/nav.js";
import type { ParseNotes } from "../parsers/notes.js";
import type { OperationContext } from "../transport/operation-context.js";

/**
 * Runs a pure parser for an operation, so that a ParseError names the operation it happened in.
 * (Parsers know paths, not which public method called them.)
 */
export function parseFor<T>(operation: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ParseError && error.operation === undefined) {
      throw new ParseError(error.path, error.detail, { operation, cause: error });
    }
    throw error;
  }
}

/**
 * The shape of most catalogue reads: one `browse` request whose one page is handed to a pure
 * parser (with the operation's notes and the display language), ParseErrors naming the operation.
 */
export async function browsePage<T>(
  ctx: OperationContext,
  operation: string,
  body: JsonObject,
  parse: (response: unknown, notes: ParseNotes, language: string) => T,
): Promise<T> {
  const response = await ctx.send({ operation, endpoint: "browse", body });
  const notes = ctx.notes(operation);
  return parseFor(operation, () => parse(response, notes, ctx.language));
}
