/**
 * A list in consecutive slices of at most `size` items, in order (the last may be shorter; none
 * for an empty list): a plan's writes in the service's batch sizes, an undo's likewise, a store's
 * rows in statements under the databases' parameter limits (a statement binds at most 32,766 on
 * SQLite, 65,535 on PostgreSQL).
 */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
