import type { InspectorLimits, InspectorRecord } from "./InspectorRecord.js";
import { utf8Bytes } from "./keepText.js";

/**
 * The inspector's records, the newest within `historySize` records and `historyBytes` bytes, in the
 * order they were first seen. The emulator keeps one; its page keeps its own copy the same way.
 */
export interface InspectorHistory {
  readonly limits: InspectorLimits;
  /**
   * Adds a record, or replaces the one with its id where it stands; then, while past either limit,
   * the oldest others fall out (never the record just put).
   */
  put(record: InspectorRecord): void;
  get(id: string): InspectorRecord | undefined;
  /** Every record kept, oldest first. */
  records(): InspectorRecord[];
  /** How many records are kept. */
  size(): number;
  /** The bytes of every record kept, each counted by {@link recordBytes}. */
  bytes(): number;
  /** Calls `listener` with each record put from now on; returns the way to stop. */
  subscribe(listener: (record: InspectorRecord) => void): () => void;
  /** Calls `listener` with each record that falls out of the history. */
  onEvict(listener: (record: InspectorRecord) => void): void;
}

/**
 * The bytes a record takes in the history: the UTF-8 length of its JSON, which is what the event
 * stream sends of it (a snapshot is its records' JSON joined by commas, in a small envelope). The
 * page counts the record it parsed the same way, and gets the same number.
 */
export function recordBytes(record: InspectorRecord): number {
  return utf8Bytes(JSON.stringify(record));
}

/** A bounded, in-memory history that tells its subscribers of every change. */
export function createInspectorHistory(limits: InspectorLimits): InspectorHistory {
  const records = new Map<string, { readonly record: InspectorRecord; readonly bytes: number }>();
  let total = 0;
  const listeners = new Set<(record: InspectorRecord) => void>();
  const evicted: ((record: InspectorRecord) => void)[] = [];
  const over = () => records.size > limits.historySize || total > limits.historyBytes;
  return {
    limits,
    put(record) {
      const bytes = recordBytes(record);
      total += bytes - (records.get(record.id)?.bytes ?? 0);
      records.set(record.id, { record, bytes });
      // Oldest first, as the count limit always did; a replaced record that grew may be the oldest
      // itself, and stays. A Map may lose entries while it is iterated.
      for (const [id, kept] of records) {
        if (!over()) break;
        if (id === record.id) continue;
        records.delete(id);
        total -= kept.bytes;
        for (const listener of evicted) listener(kept.record);
      }
      for (const listener of listeners) listener(record);
    },
    get: (id) => records.get(id)?.record,
    records: () => Array.from(records.values(), (kept) => kept.record),
    size: () => records.size,
    bytes: () => total,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onEvict(listener) {
      evicted.push(listener);
    },
  };
}
