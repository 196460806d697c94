/**
 * What the inspector keeps of each request and each webhook delivery, as the page receives it (JSON
 * over the event stream). Shared by the emulator, which fills it, and the page, which shows it: every
 * string in it may come from a hostile client or receiver, so the page renders it as text only.
 */

/** A document or answer as kept: its first bytes (whole characters), and whether the rest was cut. */
export interface KeptText {
  /** The text kept: at most {@link InspectorLimits.bodyBytes} UTF-8 bytes. */
  readonly text: string;
  /** The size of the whole text in UTF-8 bytes (of a request body cut while read: the bytes read, fewer than its size). */
  readonly bytes: number;
  /** Whether `text` is only the start of it. */
  readonly cut: boolean;
}

/** One JSON:API error of an answer, as the page lists it. */
export interface KeptApiError {
  readonly status: string;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  /** `source.pointer`: where in the request document. */
  readonly pointer: string;
}

/** One request to the emulator's API (`POST /events` and whatever else reached its handler). */
export interface RequestRecord {
  readonly kind: "request";
  /** `r<number>`, unique in one run. */
  readonly id: string;
  /** When it arrived, in epoch milliseconds. */
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly durationMs: number;
  /** The `Service-Idempotency-Key` header, when sent. */
  readonly idempotencyKey: string | undefined;
  /** Whether the answer replayed a stored one (`Idempotent-Replayed: true`). */
  readonly replayed: boolean;
  /** The event type, from the answer or else the request document. */
  readonly eventType: string | undefined;
  /** The created event's id (a ULID), from the answer. */
  readonly eventId: string | undefined;
  /** `inspector` when the page's form sent it. */
  readonly source: "client" | "inspector";
  /** The request headers worth showing; an `Authorization` value is never kept, only its presence. */
  readonly headers: readonly (readonly [name: string, value: string])[];
  readonly request: KeptText;
  readonly response: KeptText;
  /** The JSON:API errors of a 4xx or 5xx answer. */
  readonly errors: readonly KeptApiError[];
  /** The webhook deliveries of the created event. */
  readonly deliveries: readonly { readonly id: string; readonly endpointId: string }[];
}

/** One attempt of a webhook delivery, as sent and as answered. */
export interface AttemptRecord {
  /** The attempt's number in this delivery's history, from 1 (a redelivery goes on counting). */
  readonly number: number;
  /** When it ended, in epoch milliseconds. */
  readonly at: number;
  /** The `service-timestamp` sent (empty when nothing was sent). */
  readonly timestamp: string;
  /** The `service-signature` sent (empty when nothing was sent). */
  readonly signature: string;
  /** The receiver's status; `undefined` when no answer came. */
  readonly status: number | undefined;
  readonly durationMs: number;
  /** The first bytes of the receiver's answer (at most 1 KiB). */
  readonly response: string | undefined;
  readonly outcome: "delivered" | "retry" | "dead";
  /** Why it failed. */
  readonly reason: string | undefined;
  /** When the next attempt is due, for `retry`. */
  readonly retryAt: number | undefined;
  /** Whether the inspector's "Redeliver" started it. */
  readonly redelivery: boolean;
}

/** One webhook delivery: one event for one endpoint, and its attempts. */
export interface DeliveryRecord {
  readonly kind: "delivery";
  /** `d:<delivery id>`. */
  readonly id: string;
  /** When it was queued, in epoch milliseconds. */
  readonly at: number;
  /** Sent as `service-webhook-id` on every attempt. */
  readonly deliveryId: string;
  /** The created event it delivers (a ULID), when it came from `POST /events`. */
  readonly eventId: string | undefined;
  readonly endpointId: string;
  /** The endpoint's URL, without user name or password. */
  readonly url: string;
  readonly type: string;
  /** The payload sent on every attempt. */
  readonly body: KeptText;
  readonly state: "queued" | "retrying" | "delivered" | "dead";
  /** When the next attempt is due, while `retrying`. */
  readonly nextRetryAt: number | undefined;
  /** Why it died. */
  readonly deadReason: string | undefined;
  /** Whether "Redeliver" can send it again (its payload is still held). */
  readonly redeliverable: boolean;
  /** The newest attempts, oldest first. */
  readonly attempts: readonly AttemptRecord[];
  /** Older attempts no longer kept. */
  readonly omittedAttempts: number;
}

export type InspectorRecord = RequestRecord | DeliveryRecord;

/** The bounds the emulator keeps to, told to the page so that it can say so. */
export interface InspectorLimits {
  /** The most records kept, the newest. */
  readonly historySize: number;
  /**
   * The most bytes the records kept take in all, each counted as the UTF-8 length of its JSON (as
   * the event stream sends it): past it the oldest fall out, as past `historySize`.
   */
  readonly historyBytes: number;
  /** The most UTF-8 bytes kept of each document or payload. */
  readonly bodyBytes: number;
  /** The most attempts kept per delivery, the newest. */
  readonly attempts: number;
}

/** What the event stream sends: every record at (re)connection, then each new or changed one. */
export type InspectorMessage =
  | {
      readonly type: "snapshot";
      readonly limits: InspectorLimits;
      readonly records: readonly InspectorRecord[];
    }
  | { readonly type: "record"; readonly record: InspectorRecord };

/** The header that every action request (send, redeliver) must carry: a page elsewhere cannot set it without a preflight, which is refused. */
export const ACTION_HEADER = "x-inspector-action";

/** Where the inspector lives on the emulator's port. */
export const INSPECTOR_PATH = "/_inspector";
