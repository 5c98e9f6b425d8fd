/**
 * The items with one entry per id, keeping the last occurrence of a repeated id at its position, as
 * sequential upserts would leave the store. Returns `items` itself when no id repeats.
 */
export function keepLastById<T>(items: T[], idOf: (item: T) => string): T[] {
  const last = new Map<string, number>();
  items.forEach((item, i) => last.set(idOf(item), i));
  return last.size === items.length ? items : items.filter((item, i) => last.get(idOf(item)) === i);
}
