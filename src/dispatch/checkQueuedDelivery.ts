import { isPlainObject } from "../internal/isPlainObject.js";
import { webhookEventTypes } from "../webhooks/webhookEventTypes.js";
import type { DeliveryTraceContext, QueuedDelivery } from "./DeliveryQueue.js";

const types: ReadonlySet<unknown> = new Set(webhookEventTypes);

/** Visible ASCII without spaces, 1 to 200 characters: safe in a header, a Redis key and a log line. */
export const DELIVERY_ID_PATTERN = /^[!-~]{1,200}$/;

/** A W3C `traceparent`: version `00` exactly, or a later version with possibly more fields after its four. */
const TRACEPARENT =
  /^(?:00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}|(?!ff)[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}(?:-[!-~]*)?)$/;
/** A `tracestate` a header can carry: printable ASCII, at most 512 characters. */
const TRACESTATE = /^[ -~]{0,512}$/;

/**
 * The trace context a delivery carries, if it is W3C Trace Context (`traceparent` at most 256
 * characters, `tracestate` 512); anything else is dropped: a trace is never worth losing a delivery.
 */
function checkTrace(value: unknown): DeliveryTraceContext | undefined {
  if (!isPlainObject(value)) return undefined;
  const { traceparent, tracestate } = value as Record<string, unknown>;
  if (typeof traceparent !== "string" || traceparent.length > 256 || !TRACEPARENT.test(traceparent))
    return undefined;
  if (typeof tracestate === "string" && tracestate !== "" && TRACESTATE.test(tracestate))
    return { traceparent, tracestate };
  return { traceparent };
}

/**
 * A copy of a delivery handed to a queue, checked: a queue stores only what a dispatcher would
 * build, so a caller driving a queue by hand cannot store something that breaks a later attempt.
 */
export function checkQueuedDelivery(value: unknown, method: string): QueuedDelivery {
  const fail = (what: string): never => {
    throw new TypeError(`${method}: ${what}`);
  };
  if (!isPlainObject(value)) return fail("each delivery must be an object");
  const { id, eventId, endpointId, type, body, createdAt, trace } = value as Record<string, unknown>;
  if (typeof id !== "string" || !DELIVERY_ID_PATTERN.test(id))
    return fail("id must be 1 to 200 visible ASCII characters");
  if (typeof eventId !== "string" || !DELIVERY_ID_PATTERN.test(eventId)) {
    return fail("eventId must be 1 to 200 visible ASCII characters");
  }
  if (typeof endpointId !== "string" || !DELIVERY_ID_PATTERN.test(endpointId)) {
    return fail("endpointId must be 1 to 200 visible ASCII characters");
  }
  if (!types.has(type)) return fail("type must be a webhook event type");
  if (typeof body !== "string") return fail("body must be a string");
  if (typeof createdAt !== "number" || !Number.isFinite(createdAt))
    return fail("createdAt must be a time in epoch milliseconds");
  const checked = { id, eventId, endpointId, type: type as QueuedDelivery["type"], body, createdAt };
  const context = trace === undefined ? undefined : checkTrace(trace);
  return context === undefined ? checked : { ...checked, trace: context };
}
