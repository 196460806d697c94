/** An entry of a {@link DueHeap}: a key that is due at `at` (epoch ms), tagged with a version. */
export interface DueEntry {
  readonly at: number;
  readonly id: string;
  readonly version: number;
}

interface Slot extends DueEntry {
  /** Insertion order: entries due at the same time come out first in, first out. */
  readonly order: number;
}

const before = (a: Slot, b: Slot): boolean => a.at < b.at || (a.at === b.at && a.order < b.order);

/**
 * A binary min-heap of due times, earliest first. Entries are never removed from the middle: a
 * caller bumps its record's version instead and skips the stale entries it pops.
 */
export class DueHeap {
  readonly #items: Slot[] = [];
  #order = 0;

  get size(): number {
    return this.#items.length;
  }

  peek(): DueEntry | undefined {
    return this.#items[0];
  }

  push(value: DueEntry): void {
    const entry: Slot = { at: value.at, id: value.id, version: value.version, order: this.#order++ };
    const items = this.#items;
    items.push(entry);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(entry, items[parent]!)) break;
      items[index] = items[parent]!;
      index = parent;
    }
    items[index] = entry;
  }

  pop(): DueEntry | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && before(items[right]!, items[left]!) ? right : left;
      if (!before(items[child]!, last)) break;
      items[index] = items[child]!;
      index = child;
    }
    items[index] = last;
    return top;
  }

  clear(): void {
    this.#items.length = 0;
  }
}
