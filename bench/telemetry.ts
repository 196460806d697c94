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
 * pay for it: what is compared is the instrumentation.
 * `tsx bench/telemetry.ts` runs this file alone.
 */
import { once } from "node:events";
import type { Server } from "node:http";
import { Worker } from "node:worker_threads";
import { context, type TextMapPropagator } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { ExportResultCode, W3CTraceContextPropagator } from "@opentelemetry/core";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { createMemoryDeliveryQueue } from "../src/dispatch/createMemoryDeliveryQueue.js";
import { createWebhookDispatcher } from "../src/dispatch/createWebhookDispatcher.js";
import type { DispatchInput } from "../src/dispatch/DispatchInput.js";
import { createEventDocument } from "../src/jsonapi/createEventDocument.js";
import { createOpenTelemetry } from "../src/opentelemetry/createOpenTelemetry.js";
import { createEventsHandler } from "../src/server/createEventsHandler.js";
import { RECEIVER } from "./dispatch.js";
import { authorize, KEY_SLOT, LOAD_GENERATOR, listen, load, portOf, shut } from "./server.js";

const REQUESTS = 2_000;
const DELIVERIES = 1_000;
const ROUNDS = 11;
const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

export interface TelemetryRow {
  readonly name: string;
  /** Median of the rounds, operations per second of CPU time, without and with telemetry. */
  readonly without: number;
  readonly with: number;
  /** with ÷ without. */
  readonly ratio: number;
}

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

/** Runs `measure` for both contenders, round by round, the first one rotating; medians and their ratio. */
async function interleaved(
  name: string,
  measure: (instrumented: boolean) => Promise<number>,
): Promise<TelemetryRow> {
  const samples = { without: [] as number[], with: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [false, true] : [true, false];
    for (const instrumented of order)
      samples[instrumented ? "with" : "without"].push(await measure(instrumented));
  }
  const without = median(samples.without);
  const withTelemetry = median(samples.with);
  return { name, without, with: withTelemetry, ratio: withTelemetry / without };
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
  const rows: TelemetryRow[] = [];
  try {
    rows.push(await handlerRow(telemetry));
    rows.push(await dispatcherRow(telemetry));
  } finally {
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    context.disable();
  }
  return rows;
}

async function handlerRow(telemetry: ReturnType<typeof createOpenTelemetry>): Promise<TelemetryRow> {
  const body = JSON.stringify(
    createEventDocument({
      type: "s.message.text",
      content: { body: "Grüße aus Köln 👋 ".repeat(12) },
      idempotencyKey: KEY_SLOT,
    }),
  );
  let sequence = 0;
  const create = async () => ({ id: `01JD8X${String(++sequence).padStart(20, "0")}` });
  const plain = createEventsHandler({ authorize, create });
  const traced = createEventsHandler({ authorize, create, telemetry });
  const worker = new Worker(LOAD_GENERATOR, { eval: true });
  const servers: Server[] = [await listen(plain), await listen(traced)];
  try {
    const runId = Date.now().toString(36);
    let batch = 0;
    const run = async (instrumented: boolean, count: number): Promise<number> => {
      const server = servers[instrumented ? 1 : 0]!;
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
    await run(false, 600);
    await run(true, 600);
    return await interleaved(
      `createEventsHandler, memory store, POST /events over loopback (${REQUESTS} requests per round)`,
      (instrumented) => run(instrumented, REQUESTS),
    );
  } finally {
    await worker.terminate();
    await Promise.all(servers.map(shut));
    await plain.close();
    await traced.close();
  }
}

async function dispatcherRow(telemetry: ReturnType<typeof createOpenTelemetry>): Promise<TelemetryRow> {
  const receiver = new Worker(RECEIVER, { eval: true });
  const [{ port }] = (await once(receiver, "message")) as [{ port: number }];
  const endpoints = [{ id: "bench", url: `http://127.0.0.1:${port}/hooks`, secret: "whsec_bench_telemetry" }];
  const destinations = { allow: ["127.0.0.1"] };
  const queues = [createMemoryDeliveryQueue(), createMemoryDeliveryQueue()];
  const dispatchers = [
    createWebhookDispatcher({ endpoints, destinations, queue: queues[0] }),
    createWebhookDispatcher({ endpoints, destinations, queue: queues[1], telemetry }),
  ];
  const input: DispatchInput = {
    event: { type: "s.message.text", content: { body: "Grüße aus Köln 👋 ".repeat(12) } },
    roomId: "room-42",
  };
  try {
    const run = async (instrumented: boolean, count: number): Promise<number> => {
      const dispatcher = dispatchers[instrumented ? 1 : 0]!;
      receiver.postMessage({ expect: count });
      const arrived = once(receiver, "message");
      const spent = await cpuSeconds(async () => {
        await Promise.all(Array.from({ length: count }, () => dispatcher.dispatch(input)));
        await arrived;
      });
      return count / spent;
    };
    await run(false, 300);
    await run(true, 300);
    return await interleaved(
      `createWebhookDispatcher, memory queue, to a loopback receiver (${DELIVERIES} deliveries per round)`,
      (instrumented) => run(instrumented, DELIVERIES),
    );
  } finally {
    for (const dispatcher of dispatchers) await dispatcher.close();
    for (const queue of queues) await queue.close();
    receiver.postMessage("close");
    await once(receiver, "exit");
  }
}

export function printTelemetryCase(rows: readonly TelemetryRow[]): void {
  console.log(
    `\nOpenTelemetry instrumentation (real SDK, every span sampled, dropped by the exporter) ÷ none, per second of CPU time, ${ROUNDS} rounds, interleaved, medians`,
  );
  for (const row of rows) {
    console.log(
      `  ${row.name}\n    without ${Math.round(row.without).toLocaleString("en-US")}/CPU s   with ${Math.round(row.with).toLocaleString("en-US")}/CPU s   ratio ${row.ratio.toFixed(2)}`,
    );
  }
}

/** One line for the summary: both ratios, with the target. */
export function telemetrySummary(rows: readonly TelemetryRow[]): string {
  const [handler, dispatcher] = rows;
  const verdict = (ratio: number) =>
    `${ratio.toFixed(2)} (target ≥ 0.90: ${ratio >= 0.9 ? "met" : "NOT met"})`;
  return `Telemetry ratio (with ÷ without): events handler ${verdict(handler!.ratio)}; dispatcher ${verdict(dispatcher!.ratio)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`messaging-events telemetry benchmark on Node ${process.versions.node}`);
  const rows = await telemetryCase();
  printTelemetryCase(rows);
  console.log(`\n${telemetrySummary(rows)}`);
}
