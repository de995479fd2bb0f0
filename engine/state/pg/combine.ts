/**
 * Several statements' SQL as the parts of one (./writes.ts's writes, ./reads.ts's reads): one round
 * trip where there were several. Each part keeps its placeholders, filled per call; the whole is a
 * named prepared statement, made once per combination of parts (a process makes few).
 */
import { createHash } from "node:crypto";
import { fillPlaceholders, type SQL } from "drizzle-orm";
import { PgDialect as SqlBuilder } from "drizzle-orm/pg-core";

/** One statement of several parts: its text, its prepared name, and each part's share of the values. */
interface Combined {
  text: string;
  name: string;
  /** Per part, its parameters (values and placeholders) in the statement's order. */
  params: unknown[][];
}

const builder = new SqlBuilder();
const KEPT = 64;

/**
 * A maker of statements `whole` puts together from their parts, kept by the parts' keys. `prefix`
 * starts the prepared statements' names.
 */
export function combiner(prefix: string, whole: (parts: SQL[]) => SQL) {
  const byKeys = new Map<string, Combined>();
  const make = (parts: SQL[]): Combined => {
    const query = builder.sqlToQuery(whole(parts));
    // Drizzle numbers the parameters in the order it meets them: each part's come together.
    const params: unknown[][] = [];
    let at = 0;
    for (const part of parts) {
      const n = builder.sqlToQuery(part).params.length;
      params.push(query.params.slice(at, at + n));
      at += n;
    }
    const name = `${prefix} ${createHash("sha256").update(query.sql).digest("hex").slice(0, 24)}`;
    return { text: query.sql, name, params };
  };
  /** The statement of parts keyed `keys` (built by `parts` the first time), each part's values filled in. */
  return (
    keys: readonly string[],
    parts: () => SQL[],
    values: readonly object[],
  ): { name: string; text: string; values: unknown[] } => {
    const key = keys.join("\n");
    let c = byKeys.get(key);
    if (!c) {
      c = make(parts());
      if (byKeys.size >= KEPT) byKeys.delete(byKeys.keys().next().value!);
      byKeys.set(key, c);
    }
    const made = c;
    const filled = values.flatMap((v, i) =>
      fillPlaceholders(made.params[i] ?? [], v as Record<string, unknown>),
    );
    return { name: made.name, text: made.text, values: filled };
  };
}
