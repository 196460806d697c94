import { createTraceState, type SpanContext, TraceFlags } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { checkQueuedDelivery } from "../dispatch/checkQueuedDelivery.js";
import { deliveryTraceOf, spanContextOfDelivery } from "./deliveryTraceContext.js";

const context: SpanContext = {
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  traceFlags: TraceFlags.SAMPLED,
  traceState: createTraceState("vendor=value,other=1"),
};

describe("the trace context a delivery carries", () => {
  it("is W3C Trace Context, read back as the remote parent it was", () => {
    const trace = deliveryTraceOf(context);
    expect(trace).toEqual({
      traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      tracestate: "vendor=value,other=1",
    });
    const read = spanContextOfDelivery(trace);
    expect(read).toMatchObject({
      traceId: context.traceId,
      spanId: context.spanId,
      traceFlags: 1,
      isRemote: true,
    });
    expect(read?.traceState?.serialize()).toBe("vendor=value,other=1");
    // A span the sampler dropped keeps its decision.
    expect(deliveryTraceOf({ ...context, traceFlags: TraceFlags.NONE, traceState: undefined })).toEqual({
      traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
    });
  });

  it("survives a queue's check, and nothing but W3C Trace Context does", () => {
    const delivery = {
      id: "d-1",
      eventId: "e-1",
      endpointId: "acme",
      type: "s.room.close",
      body: "{}",
      createdAt: 0,
    };
    const trace = deliveryTraceOf(context)!;
    expect(checkQueuedDelivery({ ...delivery, trace }, "add").trace).toEqual(trace);
    for (const broken of [
      "not a traceparent",
      { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7" },
      { traceparent: "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" },
      { traceparent: "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01" },
      { traceparent: `00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01${"-x".repeat(200)}` },
    ]) {
      expect(
        checkQueuedDelivery({ ...delivery, trace: broken }, "add"),
        JSON.stringify(broken),
      ).not.toHaveProperty("trace");
    }
    // A tracestate that no header could carry is dropped alone.
    expect(
      checkQueuedDelivery({ ...delivery, trace: { ...trace, tracestate: "a=\n" } }, "add").trace,
    ).toEqual({
      traceparent: trace.traceparent,
    });
  });

  it("reads nothing from what is not a valid traceparent", () => {
    for (const traceparent of [
      "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
      "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    ]) {
      expect(spanContextOfDelivery({ traceparent }), traceparent).toBeUndefined();
    }
    expect(spanContextOfDelivery(undefined)).toBeUndefined();
    // A later version may add fields: its first four are read.
    expect(
      spanContextOfDelivery({ traceparent: "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later" })
        ?.spanId,
    ).toBe("00f067aa0ba902b7");
  });
});
