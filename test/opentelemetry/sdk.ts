/**
 * The real OpenTelemetry SDK, in memory, for the telemetry suites: a tracer provider whose spans go
 * to an in-memory exporter, a meter provider read on demand, W3C Trace Context as the propagator
 * and an AsyncLocalStorage context manager (what the Node SDK registers). Nothing is global but the
 * context manager, so each suite's spans are its own.
 */
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  type DataPoint,
  type Histogram,
  MeterProvider,
  MetricReader,
  type ResourceMetrics,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { createOpenTelemetry, type OpenTelemetryInstrumentation } from "../../src/opentelemetry/index.js";

/** A reader that only reads when asked. */
class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export interface InMemorySdk {
  readonly telemetry: OpenTelemetryInstrumentation;
  readonly exporter: InMemorySpanExporter;
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  /** The spans ended so far. */
  spans(): ReadableSpan[];
  /** The metrics now, by name: each point's attributes and value. */
  metrics(): Promise<Map<string, DataPoint<number | Histogram>[]>>;
  /** The raw metrics, as an exporter would get them. */
  collect(): Promise<ResourceMetrics>;
  shutdown(): Promise<void>;
}

let contextManager: AsyncLocalStorageContextManager | undefined;

/** Starts an SDK in memory and the library's instrumentation on it. */
export function startInMemorySdk(): InMemorySdk {
  if (contextManager === undefined) {
    contextManager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(contextManager);
  }
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const telemetry = createOpenTelemetry({
    tracerProvider,
    meterProvider,
    propagator: new W3CTraceContextPropagator(),
  });
  const collect = async () => (await reader.collect()).resourceMetrics;
  return {
    telemetry,
    exporter,
    tracerProvider,
    meterProvider,
    spans: () => exporter.getFinishedSpans(),
    collect,
    async metrics() {
      const found = new Map<string, DataPoint<number | Histogram>[]>();
      for (const scope of (await collect()).scopeMetrics) {
        for (const metric of scope.metrics) {
          found.set(metric.descriptor.name, metric.dataPoints as DataPoint<number | Histogram>[]);
        }
      }
      return found;
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** The spans named `name`. */
export const named = (spans: readonly ReadableSpan[], name: string): ReadableSpan[] =>
  spans.filter((span) => span.name === name);

/** A span's parent span id (SDK 2 keeps it in `parentSpanContext`). */
export const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;
