/**
 * What the OpenTelemetry instrumentation costs: the events handler and the webhook dispatcher with
 * `telemetry: createOpenTelemetry()` on the real SDK (every span sampled, batched to an exporter that
 * drops them; metrics kept by a reader; W3C propagation; the AsyncLocalStorage context manager, as
 * the Node SDK installs it) against the same components without telemetry, in the same process.
 *
 * - Handler: `POST /events` over node:http on loopback, as in `bench/server.ts` (its load
 *   generator, on its own thread), every request with a new key and a `traceparent`, memory store.
 * - Dispatcher: N events to a loopback receiver on its own thread, as in `bench/dispatch.ts`, memory
 *   queue; each figure the time from dispatching to the N-th delivery counted at the receiver.
 *
 * Each figure is operations per second of this process's CPU time (the server, the load generator
 * and the receiver threads alike), not of the wall clock: on a shared machine, the time other
 * processes hold the cores is charged to neither contender. Contenders take turns round by round
 * (the first one rotates); each figure is the median of its rounds, and the ratio is with ÷ without
 * (above 0.9 is the target). The context manager is installed before either contender runs, so both
 * pay for it: what is compared is the instrumentation. A third contender, the floor, makes the same
 * spans on the same SDK with no attribute, no propagation and no metric: what the SDK's spans cost by
 * themselves, which no instrumentation that makes them can go below.
 * `tsx bench/telemetry.ts` runs this file alone; `--write-docs` rewrites the table in
 * docs/observability.md.
 */
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { context, SpanKind, type TextMapPropagator, type Tracer, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { ExportResultCode, W3CTraceContextPropagator } from "@opentelemetry/core";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { createMemoryDeliveryQueue } from "../src/dispatch/createMemoryDeliveryQueue.js";
import { createWebhookDispatcher } from "../src/dispatch/createWebhookDispatcher.js";
import type { DispatchInput } from "../src/dispatch/DispatchInput.js";
import type { WebhookDispatcherTelemetry } from "../src/dispatch/WebhookDispatcherTelemetry.js";
import { createEventDocument } from "../src/jsonapi/createEventDocument.js";
import { createOpenTelemetry } from "../src/opentelemetry/createOpenTelemetry.js";
import { deliveryTraceOf, spanContextOfDelivery } from "../src/opentelemetry/deliveryTraceContext.js";
import { createEventsHandler } from "../src/server/createEventsHandler.js";
import type { EventsHandlerTelemetry } from "../src/server/EventsHandlerTelemetry.js";
import { RECEIVER } from "./dispatch.js";
import { authorize, KEY_SLOT, LOAD_GENERATOR, listen, load, portOf, shut } from "./server.js";

const REQUESTS = 2_000;
const DELIVERIES = 1_000;
const ROUNDS = 11;
const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

export interface TelemetryRow {
  readonly name: string;
  /** What one operation is, for the table ("requests", "deliveries"). */
  readonly unit: string;
  /** Median of the rounds, operations per second of CPU time: without telemetry, with it, and the floor. */
  readonly without: number;
  readonly with: number;
  readonly floor: number;
  /** with ÷ without. */
  readonly ratio: number;
  /** floor ÷ without: the best ratio any instrumentation making the same spans could reach. */
  readonly floorRatio: number;
}

type Contender = "without" | "with" | "floor";
const CONTENDERS: readonly Contender[] = ["without", "with", "floor"];

/** An exporter that drops what it is given: the cost measured is the instrumentation's and the SDK's. */
class DroppingExporter implements SpanExporter {
  export(_spans: unknown, done: (result: { code: ExportResultCode }) => void): void {
    done({ code: ExportResultCode.SUCCESS });
  }
  async shutdown(): Promise<void> {}
}

class KeepingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** Runs `work` and says how many CPU seconds this process spent meanwhile, all threads together. */
async function cpuSeconds(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1e6;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** Runs `measure` for every contender, round by round, the first one rotating; medians and ratios. */
async function interleaved(
  name: string,
  unit: string,
  measure: (contender: Contender) => Promise<number>,
): Promise<TelemetryRow> {
  const samples: Record<Contender, number[]> = { without: [], with: [], floor: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (let turn = 0; turn < CONTENDERS.length; turn++) {
      const contender = CONTENDERS[(round + turn) % CONTENDERS.length]!;
      samples[contender].push(await measure(contender));
    }
  }
  const without = median(samples.without);
  const withTelemetry = median(samples.with);
  const floor = median(samples.floor);
  return {
    name,
    unit,
    without,
    with: withTelemetry,
    floor,
    ratio: withTelemetry / without,
    floorRatio: floor / without,
  };
}

/** The handler's floor: the request span, its context around the handling, a span per store call. */
function handlerFloor(tracer: Tracer): EventsHandlerTelemetry {
  return {
    startEventsRequest() {
      const span = tracer.startSpan("POST", { kind: SpanKind.SERVER });
      const within = trace.setSpan(context.active(), span);
      return {
        run: (fn) => context.with(within, fn),
        record: () => undefined,
        startStoreCall(operation) {
          const call = tracer.startSpan(operation, undefined, within);
          return { end: () => call.end() };
        },
        end: () => span.end(),
      };
    },
  };
}

/** The dispatcher's floor: the dispatch span and its stored context, a span per attempt under it. */
function dispatcherFloor(tracer: Tracer): WebhookDispatcherTelemetry {
  return {
    startDispatcher: () => ({
      startDispatch() {
        const span = tracer.startSpan("dispatch", { kind: SpanKind.PRODUCER });
        const within = trace.setSpan(context.active(), span);
        return {
          trace: deliveryTraceOf(span.spanContext()),
          run: (fn) => context.with(within, fn),
          end: () => span.end(),
        };
      },
      startAttempt(attempt) {
        const dispatched = spanContextOfDelivery(attempt.trace);
        const parent =
          dispatched === undefined ? context.active() : trace.setSpanContext(context.active(), dispatched);
        const span = tracer.startSpan("POST", { kind: SpanKind.CLIENT }, parent);
        const within = trace.setSpan(parent, span);
        return { run: (fn) => context.with(within, fn), end: () => span.end() };
      },
      deliveryDead: () => undefined,
      endpointDisabled: () => undefined,
      close: () => undefined,
    }),
  };
}

/** Runs both cases on one SDK and stops everything it started. */
export async function telemetryCase(): Promise<TelemetryRow[]> {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new DroppingExporter(), { maxQueueSize: 65_536 })],
  });
  const meterProvider = new MeterProvider({ readers: [new KeepingReader()] });
  const propagator: TextMapPropagator = new W3CTraceContextPropagator();
  const telemetry = createOpenTelemetry({ tracerProvider, meterProvider, propagator });
  const tracer = tracerProvider.getTracer("floor");
  const rows: TelemetryRow[] = [];
  try {
    rows.push(await handlerRow(telemetry, handlerFloor(tracer)));
    rows.push(await dispatcherRow(telemetry, dispatcherFloor(tracer)));
  } finally {
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    context.disable();
  }
  return rows;
}

async function handlerRow(
  telemetry: ReturnType<typeof createOpenTelemetry>,
  floor: EventsHandlerTelemetry,
): Promise<TelemetryRow> {
  const body = JSON.stringify(
    createEventDocument({
      type: "s.message.text",
      content: { body: "Grüße aus Köln 👋 ".repeat(12) },
      idempotencyKey: KEY_SLOT,
    }),
  );
  let sequence = 0;
  const create = async () => ({ id: `01JD8X${String(++sequence).padStart(20, "0")}` });
  const handlers = {
    without: createEventsHandler({ authorize, create }),
    with: createEventsHandler({ authorize, create, telemetry }),
    floor: createEventsHandler({ authorize, create, telemetry: floor }),
  };
  const worker = new Worker(LOAD_GENERATOR, { eval: true });
  const servers = {
    without: await listen(handlers.without),
    with: await listen(handlers.with),
    floor: await listen(handlers.floor),
  };
  try {
    const runId = Date.now().toString(36);
    let batch = 0;
    const run = async (contender: Contender, count: number): Promise<number> => {
      const server = servers[contender];
      const spent = await cpuSeconds(async () => {
        const result = await load(worker, portOf(server), count, `${runId}-${batch++}-`, body, {
          traceparent: TRACEPARENT,
        });
        if (Object.keys(result.statuses).some((status) => status !== "201")) {
          throw new Error(`answers other than 201: ${JSON.stringify(result.statuses)}`);
        }
      });
      return count / spent;
    };
    for (const contender of CONTENDERS) await run(contender, 600);
    return await interleaved(
      "`createEventsHandler`, memory store, `POST /events` over loopback, a `create` that does nothing",
      "requests",
      (contender) => run(contender, REQUESTS),
    );
  } finally {
    await worker.terminate();
    await Promise.all(Object.values(servers).map(shut));
    for (const handler of Object.values(handlers)) await handler.close();
  }
}

async function dispatcherRow(
  telemetry: ReturnType<typeof createOpenTelemetry>,
  floor: WebhookDispatcherTelemetry,
): Promise<TelemetryRow> {
  const receiver = new Worker(RECEIVER, { eval: true });
  const [{ port }] = (await once(receiver, "message")) as [{ port: number }];
  const endpoints = [{ id: "bench", url: `http://127.0.0.1:${port}/hooks`, secret: "whsec_bench_telemetry" }];
  const destinations = { allow: ["127.0.0.1"] };
  const queues = [createMemoryDeliveryQueue(), createMemoryDeliveryQueue(), createMemoryDeliveryQueue()];
  const dispatchers = {
    without: createWebhookDispatcher({ endpoints, destinations, queue: queues[0] }),
    with: createWebhookDispatcher({ endpoints, destinations, queue: queues[1], telemetry }),
    floor: createWebhookDispatcher({ endpoints, destinations, queue: queues[2], telemetry: floor }),
  };
  const input: DispatchInput = {
    event: { type: "s.message.text", content: { body: "Grüße aus Köln 👋 ".repeat(12) } },
    roomId: "room-42",
  };
  try {
    const run = async (contender: Contender, count: number): Promise<number> => {
      const dispatcher = dispatchers[contender];
      receiver.postMessage({ expect: count });
      const arrived = once(receiver, "message");
      const spent = await cpuSeconds(async () => {
        await Promise.all(Array.from({ length: count }, () => dispatcher.dispatch(input)));
        await arrived;
      });
      return count / spent;
    };
    for (const contender of CONTENDERS) await run(contender, 300);
    return await interleaved(
      "`createWebhookDispatcher`, memory queue, to a loopback receiver that does nothing",
      "deliveries",
      (contender) => run(contender, DELIVERIES),
    );
  } finally {
    for (const dispatcher of Object.values(dispatchers)) await dispatcher.close();
    for (const queue of queues) await queue.close();
    receiver.postMessage("close");
    await once(receiver, "exit");
  }
}

/** Extra CPU time per operation, in microseconds, of a rate against the rate without telemetry. */
const extraMicroseconds = (rate: number, without: number): number => (1 / rate - 1 / without) * 1e6;

export function printTelemetryCase(rows: readonly TelemetryRow[]): void {
  console.log(
    `\nOpenTelemetry instrumentation (real SDK, every span sampled, dropped by the exporter) ÷ none, per second of CPU time, ${ROUNDS} rounds, interleaved, medians`,
  );
  for (const row of rows) {
    const rate = (value: number) => Math.round(value).toLocaleString("en-US");
    console.log(
      `  ${row.name.replaceAll("`", "")}\n    without ${rate(row.without)}/CPU s   with ${rate(row.with)}/CPU s   ratio ${row.ratio.toFixed(2)} (+${extraMicroseconds(row.with, row.without).toFixed(0)} µs each)   floor (the same spans, nothing else) ${rate(row.floor)}/CPU s   ratio ${row.floorRatio.toFixed(2)} (+${extraMicroseconds(row.floor, row.without).toFixed(0)} µs each)`,
    );
  }
}

/** One line for the summary: both ratios, with the target. */
export function telemetrySummary(rows: readonly TelemetryRow[]): string {
  const [handler, dispatcher] = rows;
  const verdict = (row: TelemetryRow) =>
    `${row.ratio.toFixed(2)} (target ≥ 0.90: ${row.ratio >= 0.9 ? "met" : "NOT met"}; the spans alone ${row.floorRatio.toFixed(2)})`;
  return `Telemetry ratio (with ÷ without): events handler ${verdict(handler!)}; dispatcher ${verdict(dispatcher!)}`;
}

const DOCS_START = "<!-- telemetry-bench:start -->";
const DOCS_END = "<!-- telemetry-bench:end -->";
const DOCS_URL = new URL("../docs/observability.md", import.meta.url);

/** The table docs/observability.md shows, from a run. */
export function telemetryTable(rows: readonly TelemetryRow[]): string {
  const rate = (value: number, unit: string) =>
    `${Math.round(value).toLocaleString("en-US")} ${unit} per CPU s`;
  const extra = (value: number, without: number) => `+${extraMicroseconds(value, without).toFixed(0)} µs`;
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} on Node ${process.versions.node} by \`npx tsx bench/telemetry.ts --write-docs\`.`,
    "",
    "| Component | Without | With | Ratio | CPU per operation | The spans alone: ratio | CPU per operation |",
    "|---|--:|--:|--:|--:|--:|--:|",
    ...rows.map(
      (row) =>
        `| ${row.name} | ${rate(row.without, row.unit)} | ${rate(row.with, row.unit)} | ${row.ratio.toFixed(2)} | ${extra(row.with, row.without)} | ${row.floorRatio.toFixed(2)} | ${extra(row.floor, row.without)} |`,
    ),
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`messaging-events telemetry benchmark on Node ${process.versions.node}`);
  const rows = await telemetryCase();
  printTelemetryCase(rows);
  console.log(`\n${telemetrySummary(rows)}`);
  if (process.argv.includes("--write-docs")) {
    const page = readFileSync(DOCS_URL, "utf8");
    const start = page.indexOf(DOCS_START);
    const end = page.indexOf(DOCS_END);
    if (start === -1 || end < start) throw new Error("docs/observability.md has no telemetry-bench markers");
    writeFileSync(
      DOCS_URL,
      `${page.slice(0, start + DOCS_START.length)}\n${telemetryTable(rows)}\n${page.slice(end)}`,
    );
    console.log("docs/observability.md: telemetry table rewritten");
  }
}
