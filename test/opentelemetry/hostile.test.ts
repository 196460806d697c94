/**
 * `createOpenTelemetry()`'s instrumentation against what an attacker or a broken SDK hands it: the
 * operator's span processors, samplers, meters and context manager that throw change no answer
 * (the components trust this instrumentation not to throw, and do not guard it); span attribute
 * values stay bounded whatever the peer sends; the URL cache keeps no long URL; the attempts'
 * metrics keep a bounded number of series whatever statuses endpoints answer; a stored trace
 * context that is not what the library stored is ignored; a sampler cannot carry one request's
 * attributes to the next.
 */
import {
  type Context,
  type ContextManager,
  context,
  ROOT_CONTEXT,
  type SpanOptions,
  type Tracer,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  type Sampler,
  SimpleSpanProcessor,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventsClient } from "../../src/client/index.js";
import { createMemoryDeliveryQueue, createWebhookDispatcher } from "../../src/dispatch/index.js";
import { clientTargetAttributes } from "../../src/opentelemetry/httpAttributes.js";
import { createOpenTelemetry, type OpenTelemetryInstrumentation } from "../../src/opentelemetry/index.js";
import { createEventsHandler } from "../../src/server/index.js";
import {
  createWebhookReceiver,
  createWebhookRequest,
  createWebhookVerifier,
} from "../../src/webhooks/index.js";
import { createHeaders, documentFor } from "../server/support.js";
import { type InMemorySdk, startInMemorySdk } from "./sdk.js";

const ID = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
const SECRET = "whsec_hostile";

/** A span processor that throws where it is told to. */
function throwingProcessor(where: "onStart" | "onEnd"): SpanProcessor {
  return {
    onStart() {
      if (where === "onStart") throw new Error("span processor down");
    },
    onEnd() {
      if (where === "onEnd") throw new Error("span processor down");
    },
    forceFlush: async () => undefined,
    shutdown: async () => undefined,
  };
}

/** Every component, driven through its ordinary path with `telemetry`: what each answered. */
async function answers(telemetry: OpenTelemetryInstrumentation): Promise<unknown[]> {
  const found: unknown[] = [];
  const handler = createEventsHandler({ authorize: () => "tenant", create: () => ({ id: ID }), telemetry });
  const send = (key: string) =>
    handler(
      new Request("http://127.0.0.1/events", {
        method: "POST",
        headers: createHeaders(key),
        body: JSON.stringify(documentFor("hi", key)),
      }),
    );
  found.push((await send("k-1")).status, (await send("k-1")).headers.get("idempotent-replayed"));
  const client = createEventsClient({
    baseUrl: "http://127.0.0.1",
    authorization: "Bearer x",
    fetch: (input, init) => handler(new Request(input, init)),
    telemetry,
  });
  found.push((await client.createEvent({ type: "s.room.close", content: {} })).data.id);
  await handler.close();

  const sent: number[] = [];
  const queue = createMemoryDeliveryQueue();
  const dispatcher = createWebhookDispatcher({
    endpoints: [{ id: "acme", url: "https://acme.example/hooks", secret: SECRET }],
    fetch: async () => {
      sent.push(sent.length);
      return new Response(null, { status: sent.length === 1 ? 500 : 204 });
    },
    queue,
    retry: { delaysMs: [5], jitter: 0 },
    telemetry,
  });
  const dispatched = await dispatcher.dispatch({ event: { type: "s.room.close", content: {} }, roomId: "r" });
  await queue.idle();
  await dispatcher.close();
  await queue.close();
  found.push(dispatched.deliveries.length, sent.length);

  const payload = { type: "s.room.close", version: 2, content: {} } as const;
  const request = () => createWebhookRequest("https://receiver.example/hooks", { payload, secret: SECRET });
  const receiver = createWebhookReceiver({ secret: SECRET, onAny: () => undefined, telemetry });
  found.push((await receiver.fetch(await request())).status);
  await receiver.close();
  const verifier = createWebhookVerifier({ secret: SECRET, telemetry });
  found.push((await verifier.verifyRequest(await request())).type);
  return found;
}

const EXPECTED = [201, "true", ID, 1, 2, 204, "s.room.close"];
const propagator = new W3CTraceContextPropagator();

describe("an SDK that throws changes no answer", () => {
  let sdk: InMemorySdk;
  beforeAll(() => {
    sdk = startInMemorySdk();
  });
  afterAll(async () => {
    await sdk.shutdown();
  });

  it("answers as it does with a working SDK (the baseline)", async () => {
    expect(await answers(sdk.telemetry)).toEqual(EXPECTED);
  });

  it.each(["onStart", "onEnd"] as const)("a span processor whose %s throws", async (where) => {
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [throwingProcessor(where)] });
    expect(await answers(createOpenTelemetry({ tracerProvider, propagator }))).toEqual(EXPECTED);
  });

  it("a sampler that throws", async () => {
    const sampler: Sampler = {
      shouldSample() {
        throw new Error("sampler down");
      },
      toString: () => "throwing",
    };
    const tracerProvider = new BasicTracerProvider({ sampler });
    expect(await answers(createOpenTelemetry({ tracerProvider, propagator }))).toEqual(EXPECTED);
  });

  it("a meter provider that throws, or whose instruments throw", async () => {
    const down = () => {
      throw new Error("metrics down");
    };
    const meterProviders = [
      { getMeter: down },
      { getMeter: () => new Proxy({}, { get: () => down }) },
      { getMeter: () => new Proxy({}, { get: () => () => new Proxy({}, { get: () => down }) }) },
    ];
    for (const meterProvider of meterProviders) {
      const telemetry = createOpenTelemetry({
        tracerProvider: sdk.tracerProvider,
        meterProvider: meterProvider as never,
        propagator,
      });
      expect(await answers(telemetry)).toEqual(EXPECTED);
    }
  });

  it("a context manager that throws, before or after it runs the function", async () => {
    for (const when of ["before", "after"] as const) {
      const throwing: ContextManager = {
        active: () => ROOT_CONTEXT,
        with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
          _context: Context,
          fn: F,
          thisArg?: ThisParameterType<F>,
          ...args: A
        ): ReturnType<F> {
          if (when === "before") throw new Error("context manager down");
          fn.call(thisArg, ...args);
          throw new Error("context manager down");
        },
        bind: <T>(_context: Context, target: T) => target,
        enable() {
          return this;
        },
        disable() {
          return this;
        },
      };
      context.disable();
      context.setGlobalContextManager(throwing);
      try {
        expect(
          await answers(createOpenTelemetry({ tracerProvider: sdk.tracerProvider, propagator })),
        ).toEqual(EXPECTED);
      } finally {
        // The other suites' context manager again (what the Node SDK registers).
        context.disable();
        context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      }
    }
  });
});

describe("what a peer sends stays bounded in spans and caches", () => {
  let sdk: InMemorySdk;
  beforeAll(() => {
    sdk = startInMemorySdk();
  });
  afterAll(async () => {
    await sdk.shutdown();
  });

  /** The longest string attribute of every span. */
  const longest = (spans: readonly ReadableSpan[]) =>
    Math.max(
      ...spans.flatMap((span) =>
        Object.values(span.attributes).map((value) => (typeof value === "string" ? value.length : 0)),
      ),
    );

  it("a request with a path and a host of a hundred kilobytes gives attributes of at most 2,048 characters", async () => {
    sdk.exporter.reset();
    const handler = createEventsHandler({
      authorize: () => "tenant",
      create: () => ({ id: ID }),
      telemetry: sdk.telemetry,
    });
    const host = `${"h".repeat(60)}.`.repeat(1_600);
    for (const url of [`http://127.0.0.1/events/${"a".repeat(100_000)}`, `http://${host}example/events`]) {
      await handler(new Request(url, { method: "POST", headers: createHeaders("k"), body: "{}" }));
    }
    await handler.close();
    const spans = sdk.spans();
    expect(spans.length).toBe(2);
    expect(longest(spans)).toBeLessThanOrEqual(2_048);
    expect(String(spans[1]!.attributes["server.address"]).length).toBeLessThanOrEqual(255);
  });

  it("a method the conventions do not name is _OTHER, kept short as the original, and the span is named HTTP", async () => {
    sdk.exporter.reset();
    const handler = createEventsHandler({
      authorize: () => "tenant",
      create: () => ({ id: ID }),
      telemetry: sdk.telemetry,
    });
    const method = `PURGE${"X".repeat(100)}`;
    await handler(new Request("http://127.0.0.1/events", { method, headers: createHeaders("k") }));
    await handler.close();
    const [span] = sdk.spans();
    expect(span!.name).toBe("HTTP /events");
    expect(span!.attributes["http.request.method"]).toBe("_OTHER");
    expect(String(span!.attributes["http.request.method_original"]).length).toBeLessThanOrEqual(32);
  });

  it("an endpoint's URL of a hundred kilobytes gives a url.full of at most 2,048 characters", async () => {
    sdk.exporter.reset();
    const queue = createMemoryDeliveryQueue();
    const dispatcher = createWebhookDispatcher({
      endpoints: [{ id: "acme", url: `https://acme.example/${"p".repeat(100_000)}`, secret: SECRET }],
      fetch: async () => new Response(null, { status: 204 }),
      queue,
      telemetry: sdk.telemetry,
    });
    await dispatcher.dispatch({ event: { type: "s.room.close", content: {} }, roomId: "r" });
    await queue.idle();
    await dispatcher.close();
    await queue.close();
    const attempt = sdk.spans().find((span) => span.name === "POST")!;
    expect(attempt.attributes["url.full"]).toBe("https://acme.example/REDACTED");
    expect(longest(sdk.spans())).toBeLessThanOrEqual(2_048);
  });

  it("an endpoint whose URL is its credential (a token in the path) gives that token to no span or metric", async () => {
    sdk.exporter.reset();
    const token = "T0001/B0002/XXXXsecretXXXXtoken";
    const queue = createMemoryDeliveryQueue();
    const dispatcher = createWebhookDispatcher({
      endpoints: [{ id: "chat", url: `https://hooks.chat.example/services/${token}`, secret: SECRET }],
      fetch: async () => new Response(null, { status: 500 }),
      queue,
      retry: { delaysMs: [], jitter: 0 },
      telemetry: sdk.telemetry,
    });
    await dispatcher.dispatch({ event: { type: "s.room.close", content: {} }, roomId: "r" });
    await queue.idle();
    await dispatcher.close();
    await queue.close();
    const attempt = sdk.spans().find((span) => span.name === "POST")!;
    expect(attempt.attributes).toMatchObject({
      "url.full": "https://hooks.chat.example/REDACTED",
      "server.address": "hooks.chat.example",
      "messaging_events.endpoint.id": "chat",
    });
    const recorded = JSON.stringify([
      sdk.spans().map((span) => [span.name, span.attributes, span.events]),
      [...(await sdk.metrics())],
    ]);
    expect(recorded).not.toContain("secret");
    expect(recorded).not.toContain("B0002");
  });

  it("keeps no long URL in the cache of client targets (each is read again), and short ones once", () => {
    const long = `https://acme.example/${"x".repeat(5_000)}`;
    expect(clientTargetAttributes(long)).not.toBe(clientTargetAttributes(long));
    expect(clientTargetAttributes("https://acme.example/hooks")).toBe(
      clientTargetAttributes("https://acme.example/hooks"),
    );
  });
});

describe("the attempts' metrics keep a bounded number of series", () => {
  let sdk: InMemorySdk;
  beforeAll(() => {
    sdk = startInMemorySdk();
  });
  afterAll(async () => {
    await sdk.shutdown();
  });

  it("whatever statuses endpoints answer (200 to 999 reach the dispatcher) and whatever error types come", async () => {
    const dispatcher = sdk.telemetry.startDispatcher({ queueDepth: undefined });
    const attempt = (status: number | undefined, errorType: string) => {
      const trace = dispatcher.startAttempt({
        deliveryId: "d",
        eventId: "e",
        endpointId: "acme",
        eventType: "s.room.close",
        attempt: 1,
        url: "https://acme.example/hooks",
        trace: undefined,
      });
      trace.end({ status, outcome: "retry", errorType, durationMs: 1 });
    };
    for (let status = 200; status <= 999; status++) attempt(status, String(status));
    for (let i = 0; i < 1_000; i++) attempt(undefined, `E_PEER_CHOSEN_${i}`);
    dispatcher.close();
    const series = (await sdk.metrics()).get("messaging_events.webhook.attempts") ?? [];
    expect(series.length).toBeGreaterThan(0);
    expect(series.length).toBeLessThanOrEqual(300);
    // A status HTTP does not define is no error type of its own.
    expect(series.some((point) => point.attributes["error.type"] === "799")).toBe(false);
    expect(series.some((point) => point.attributes["error.type"] === "503")).toBe(true);
  });
});

describe("a stored trace context that is not what the library stored", () => {
  it("is ignored: the attempt is traced without a parent, and nothing throws", () => {
    const sdk = startInMemorySdk();
    const dispatcher = sdk.telemetry.startDispatcher({ queueDepth: undefined });
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const broken = [
      { traceparent, tracestate: 42 },
      { traceparent: 42 },
      null,
      {
        get traceparent(): string {
          throw new Error("unreadable");
        },
      },
    ];
    for (const trace of broken) {
      const run = () =>
        dispatcher
          .startAttempt({
            deliveryId: "d",
            eventId: "e",
            endpointId: "acme",
            eventType: "s.room.close",
            attempt: 1,
            url: "https://acme.example/hooks",
            trace: trace as never,
          })
          .end({ status: 204, outcome: "delivered", errorType: undefined, durationMs: 1 });
      expect(run).not.toThrow();
    }
    dispatcher.close();
  });
});

describe("a tracer that writes into the attributes it is handed", () => {
  it("cannot carry one request's attributes to the next", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    let started = 0;
    // As an SDK or a sampler may do (merging a sampler's attributes into those it was handed): it
    // tags the first span only.
    const tracerProvider = {
      getTracer(name: string) {
        const tracer = provider.getTracer(name);
        return {
          startSpan(spanName: string, options: SpanOptions = {}, parent?: Context) {
            if (++started === 1 && options.attributes !== undefined)
              Object.assign(options.attributes, { "tenant.leaked": "request-1" });
            return tracer.startSpan(spanName, options, parent);
          },
          startActiveSpan: tracer.startActiveSpan.bind(tracer),
        } as Tracer;
      },
    };
    const handler = createEventsHandler({
      authorize: () => "tenant",
      create: () => ({ id: ID }),
      telemetry: createOpenTelemetry({ tracerProvider, propagator, meterProvider: new MeterProvider() }),
    });
    for (const key of ["k-1", "k-2", "k-3"]) {
      await handler(
        new Request("http://127.0.0.1/events", {
          method: "POST",
          headers: createHeaders(key),
          body: JSON.stringify(documentFor("hi", key)),
        }),
      );
    }
    await handler.close();
    const servers = exporter.getFinishedSpans().filter((span) => span.name.startsWith("POST"));
    expect(servers.map((span) => span.attributes["tenant.leaked"])).toEqual([
      "request-1",
      undefined,
      undefined,
    ]);
  });
});
