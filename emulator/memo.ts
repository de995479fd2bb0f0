/** A small bounded memo, for values that never change once computed. */

/**
 * A bounded map of values that never change once read (the catalogue after start, the compressed
 * form of a text): the oldest entry leaves first when full. Null and undefined are not kept.
 */
export class Memo<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K, read: (key: K) => V): V {
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const value = read(key);
    if (value === undefined || value === null) return value;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
    return value;
  }
}
