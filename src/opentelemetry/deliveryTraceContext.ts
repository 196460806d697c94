import { createTraceState, isSpanContextValid, type SpanContext, TraceFlags } from "@opentelemetry/api";
import type { DeliveryTraceContext } from "../dispatch/DeliveryQueue.js";

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;

/**
 * The W3C Trace Context of a span, as a delivery stores it. It is written here, not by the
 * configured propagator: the queue is the library's own transport, and carries W3C strings
 * whatever propagates the operator's HTTP requests. `undefined` for an invalid span context (no
 * SDK registered).
 */
export function deliveryTraceOf(context: SpanContext): DeliveryTraceContext | undefined {
  if (!isSpanContextValid(context)) return undefined;
  const flags = (context.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED ? "01" : "00";
  const traceparent = `00-${context.traceId}-${context.spanId}-${flags}`;
  const tracestate = context.traceState?.serialize();
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

/**
 * The remote span context a delivery was stored with, or `undefined` when it has none (or a broken
 * one). Never throws: a durable queue hands back what it stored, or what someone else wrote there.
 */
export function spanContextOfDelivery(trace: DeliveryTraceContext | undefined): SpanContext | undefined {
  try {
    return readSpanContext(trace);
  } catch {
    return undefined;
  }
}

function readSpanContext(trace: DeliveryTraceContext | undefined): SpanContext | undefined {
  if (typeof trace !== "object" || trace === null) return undefined;
  const { traceparent, tracestate } = trace as { traceparent?: unknown; tracestate?: unknown };
  // Version 00 has exactly four fields (55 characters); a later version may add fields, a few.
  if (typeof traceparent !== "string" || traceparent.length > 512) return undefined;
  const match = TRACEPARENT.exec(traceparent);
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags] = match as unknown as [string, string, string, string, string];
  // Version 00 has exactly four fields; ff is forbidden.
  if (version === "ff" || (version === "00" && traceparent.length !== 55)) return undefined;
  // What W3C Trace Context allows: 32 members of up to 256 characters each, and their commas.
  const state =
    typeof tracestate === "string" && tracestate !== "" && tracestate.length <= 8_224
      ? tracestate
      : undefined;
  const context: SpanContext = {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16) & TraceFlags.SAMPLED,
    isRemote: true,
    ...(state !== undefined ? { traceState: createTraceState(state) } : {}),
  };
  return isSpanContextValid(context) ? context : undefined;
}
