import type { InspectorLimits, InspectorRecord } from "./InspectorRecord.js";

/** The inspector's records, the newest `historySize`, in the order they were first seen. */
export interface InspectorHistory {
  readonly limits: InspectorLimits;
  /** Adds a record, or replaces the one with its id where it stands; the oldest fall out past the limit. */
  put(record: InspectorRecord): void;
  get(id: string): InspectorRecord | undefined;
  /** Every record kept, oldest first. */
  records(): InspectorRecord[];
  /** Calls `listener` with each record put from now on; returns the way to stop. */
  subscribe(listener: (record: InspectorRecord) => void): () => void;
  /** Calls `listener` with each record that falls out of the history. */
  onEvict(listener: (record: InspectorRecord) => void): void;
}

/** A bounded, in-memory history that tells its subscribers of every change. */
export function createInspectorHistory(limits: InspectorLimits): InspectorHistory {
  const records = new Map<string, InspectorRecord>();
  const listeners = new Set<(record: InspectorRecord) => void>();
  const evicted: ((record: InspectorRecord) => void)[] = [];
  return {
    limits,
    put(record) {
      records.set(record.id, record);
      while (records.size > limits.historySize) {
        const [oldest, dropped] = records.entries().next().value as [string, InspectorRecord];
        records.delete(oldest);
        for (const listener of evicted) listener(dropped);
      }
      for (const listener of listeners) listener(record);
    },
    get: (id) => records.get(id),
    records: () => [...records.values()],
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onEvict(listener) {
      evicted.push(listener);
    },
  };
}
