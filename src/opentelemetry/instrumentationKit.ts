import {
  type Attributes,
  type Context,
  context,
  type Meter,
  type Span,
  SpanStatusCode,
  type TextMapPropagator,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { SEMCONV } from "./telemetryNames.js";

/** What every part of the instrumentation shares: where spans go, how context travels, the meter. */
export interface InstrumentationKit {
  readonly tracer: Tracer;
  readonly propagator: Pick<TextMapPropagator, "inject" | "extract">;
  /** The meter, read when first needed (a global meter provider registered late is still found). */
  readonly meter: () => Meter;
}

/** Runs `fn` with `span` active under `parent`: what the components' `run` does (the context is made once). */
export function runWithin(parent: Context, span: Span): <T>(fn: () => T) => T {
  const active = trace.setSpan(parent, span);
  return (fn) => context.with(active, fn);
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
