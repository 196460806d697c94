import type { InspectorRecord } from "../InspectorRecord.js";

/** What the page's filters ask for; empty strings match everything. */
export interface RecordFilter {
  /** An event type: of a request's event, or of a delivery's webhook. */
  readonly type: string;
  /** A status class (`2xx`, `4xx`, `5xx`), a delivery state, or `replayed`. */
  readonly status: "" | "2xx" | "4xx" | "5xx" | "replayed" | "queued" | "retrying" | "delivered" | "dead";
  /** Text to find (case-insensitive) in the record's ids, key, path and documents. */
  readonly text: string;
}

export const NO_FILTER: RecordFilter = { type: "", status: "", text: "" };

/** The status a record shows: a request's, or a delivery's last answer. */
export function statusOf(record: InspectorRecord): number | undefined {
  return record.kind === "request" ? record.status : record.attempts.at(-1)?.status;
}

/** The event type a record is about. */
export const typeOf = (record: InspectorRecord): string | undefined =>
  record.kind === "request" ? record.eventType : record.type;

/** Every text of a record a search looks in, lowercased. */
export function searchText(record: InspectorRecord): string {
  const parts =
    record.kind === "request"
      ? [
          record.id,
          record.method,
          record.path,
          String(record.status),
          record.idempotencyKey,
          record.eventType,
          record.eventId,
          record.request.text,
          record.response.text,
          ...record.deliveries.map((delivery) => delivery.id),
        ]
      : [
          record.deliveryId,
          record.eventId,
          record.endpointId,
          record.url,
          record.type,
          record.state,
          record.deadReason,
          record.body.text,
          ...record.attempts.flatMap((attempt) => [
            String(attempt.status ?? ""),
            attempt.reason,
            attempt.response,
          ]),
        ];
  return parts
    .filter((part) => part !== undefined)
    .join("\n")
    .toLowerCase();
}

/** Whether a record passes the filter; `text` gives a record's search text (cached by the caller). */
export function matchesFilter(
  record: InspectorRecord,
  filter: RecordFilter,
  text: (record: InspectorRecord) => string = searchText,
): boolean {
  if (filter.type !== "" && typeOf(record) !== filter.type) return false;
  switch (filter.status) {
    case "":
      break;
    case "2xx":
    case "4xx":
    case "5xx": {
      const status = statusOf(record);
      if (status === undefined || Math.floor(status / 100) !== Number(filter.status[0])) return false;
      break;
    }
    case "replayed":
      if (record.kind !== "request" || !record.replayed) return false;
      break;
    default:
      if (record.kind !== "delivery" || record.state !== filter.status) return false;
  }
  return filter.text === "" || text(record).includes(filter.text.toLowerCase());
}
