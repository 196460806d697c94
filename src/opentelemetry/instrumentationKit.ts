import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  type Meter,
  type Span,
  type SpanOptions,
  SpanStatusCode,
  type TextMapPropagator,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { runExactlyOnce } from "../internal/runExactlyOnce.js";
import { SEMCONV } from "./telemetryNames.js";

/** What every part of the instrumentation shares: where spans go, how context travels, the meter. */
export interface InstrumentationKit {
  readonly tracer: Tracer;
  readonly propagator: Pick<TextMapPropagator, "inject" | "extract">;
  /** The meter, read when first needed (a global meter provider registered late is still found). */
  readonly meter: () => Meter;
}

/** The span of an operation whose span could not be started: it records nothing, and never throws. */
const NOT_RECORDED: Span = /* @__PURE__ */ trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * `tracer.startSpan`, which never throws: the SDK calls the operator's sampler and span processors
 * there, and what they throw must not reach the component (instrumentation never changes an
 * answer). A span that cannot be started is one that records nothing.
 */
export function startSpan(tracer: Tracer, name: string, options: SpanOptions, parent: Context): Span {
  try {
    return tracer.startSpan(name, options, parent);
  } catch {
    return NOT_RECORDED;
  }
}

/**
 * Runs `record`, dropping what it throws: ending a span calls the operator's span processors (and
 * recording a measurement, the metric SDK), which may throw; the component must never see it.
 */
export function quietly(record: () => void): void {
  try {
    record();
  } catch {
    // Telemetry lost, answer kept.
  }
}

/**
 * Runs `fn` with `span` active under `parent`: what the components' `run` does (the context is made
 * once). `fn` runs exactly once, and what it returns or throws is the answer, whatever the context
 * manager does: one that throws before calling `fn` gets `fn` run outside it, one that throws after
 * has its failure dropped.
 */
export function runWithin(parent: Context, span: Span): <T>(fn: () => T) => T {
  return runIn(trace.setSpan(parent, span));
}

/** {@link runWithin} for a context already made. */
export function runIn(active: Context): <T>(fn: () => T) => T {
  return (fn) => runExactlyOnce((once) => context.with(active, once), fn);
}

/** Marks a span failed with `error.type`, as the conventions say. */
export function fail(span: Span, errorType: string): void {
  span.setAttribute(SEMCONV.errorType, errorType);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** Attributes without the members whose value is `undefined`. */
export function defined(attributes: Record<string, string | number | boolean | undefined>): Attributes {
  const kept: Attributes = {};
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) kept[name] = value;
  return kept;
}
