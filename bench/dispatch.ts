/**
 * Webhook deliveries per second to a loopback receiver (`node:http` on its own thread, answering 204
 * after reading the body, counting what it receives): `createWebhookDispatcher` with its default
 * memory queue, and with the BullMQ queue on a real `redis-server` started for the run (node-redis
 * client), both at the default concurrency, against a bare loop of signed `fetch` POSTs
 * (`signWebhook`, then `fetch`, at the same concurrency: the baseline). Each figure is the time from
 * dispatching N events to the N-th delivery counted at the receiver. Contenders take turns round by
 * round (the first one rotates); each one's figure is the median of its rounds.
 * Target: memory queue ≥ 0.7x the bare loop. `tsx bench/dispatch.ts` runs this file alone.
 */
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { createClient } from "redis";
import { buildWebhookPayload } from "../src/dispatch/buildWebhookPayload.js";
import { createBullMQDeliveryQueue } from "../src/dispatch/bullmq/createBullMQDeliveryQueue.js";
import { createWebhookDispatcher, type WebhookDispatcher } from "../src/dispatch/createWebhookDispatcher.js";
import type { DispatchInput } from "../src/dispatch/DispatchInput.js";
import { DISPATCHER_DEFAULTS } from "../src/dispatch/normalizeDispatcherOptions.js";
import { signWebhook } from "../src/webhooks/signWebhook.js";
import { startRedisServer } from "../test/support/redisServer.js";

const DELIVERIES = 1_000;
const ROUNDS = 7;
const WARM_UP = 300;
const SECRET = "whsec_bench_dispatch";

export interface DispatchRow {
  readonly name: string;
  /** Median of the rounds, deliveries per second. */
  readonly deliveriesPerSecond: number;
  /** Against the baseline (the last row). */
  readonly ratio: number;
}

export interface DispatchCaseResult {
  readonly name: string;
  readonly rows: readonly DispatchRow[];
}

// The receiver, on its own thread: it answers 204 once the body is read, and says when it has
// counted as many requests as it was told to expect.
export const RECEIVER = `
const { parentPort } = require("node:worker_threads");
const http = require("node:http");
let count = 0;
let expected = Infinity;
const server = http.createServer({ keepAliveTimeout: 60000 }, (request, response) => {
  request.on("data", () => {});
  request.on("end", () => {
    response.writeHead(204);
    response.end();
    if (++count === expected) parentPort.postMessage({ done: count });
  });
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage({ port: server.address().port }));
parentPort.on("message", (message) => {
  if (message === "close") {
    server.closeAllConnections();
    server.close(() => parentPort.close());
    return;
  }
  count = 0;
  expected = message.expect;
});
`;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

interface DispatchContender {
  readonly name: string;
  /** Starts `count` deliveries; the receiver's count says when they arrived. */
  readonly start: (count: number) => Promise<unknown>;
}

/** Runs the whole case: starts Redis, the receiver and both dispatchers, and stops them all. */
export async function dispatchCase(): Promise<DispatchCaseResult> {
  const concurrency = DISPATCHER_DEFAULTS.concurrency;
  const input: DispatchInput = {
    event: { type: "s.message.text", content: { body: "Grüße aus Köln 👋 ".repeat(12) } },
    roomId: "room-42",
    senderId: "user-7",
  };
  const { body } = buildWebhookPayload(input);

  const receiver = new Worker(RECEIVER, { eval: true });
  const [{ port }] = (await once(receiver, "message")) as [{ port: number }];
  const url = `http://127.0.0.1:${port}/hooks`;
  const endpoints = [{ id: "bench", url, secret: SECRET }];

  const redis = await startRedisServer();
  const connection = createClient({ url: redis.url });
  connection.on("error", () => undefined);
  const closers: (() => Promise<unknown>)[] = [];
  try {
    await connection.connect();
    closers.push(() => connection.close());
    // The receiver listens on loopback, which the dispatcher refuses unless allowed.
    const destinations = { allow: ["127.0.0.1"] };
    const memory = createWebhookDispatcher({ endpoints, destinations });
    closers.push(() => memory.close());
    const bullQueue = createBullMQDeliveryQueue({ connection, name: `bench-${Date.now().toString(36)}` });
    const bullmq = createWebhookDispatcher({ endpoints, queue: bullQueue, destinations });
    closers.push(
      () => bullQueue.close(),
      () => bullmq.close(),
    );

    const dispatchAll = (dispatcher: WebhookDispatcher) => (count: number) =>
      Promise.all(Array.from({ length: count }, () => dispatcher.dispatch(input)));
    const bare = async (count: number) => {
      let next = 0;
      const loop = async () => {
        while (next < count) {
          next++;
          const signed = await signWebhook({ payload: body, secret: SECRET });
          const response = await fetch(url, { method: "POST", headers: signed.headers, body: signed.body });
          await response.arrayBuffer();
          if (response.status !== 204) throw new Error(`the receiver answered ${response.status}`);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, loop));
    };
    const contenders: DispatchContender[] = [
      {
        name: `createWebhookDispatcher, memory queue (concurrency ${concurrency})`,
        start: dispatchAll(memory),
      },
      {
        name: `createWebhookDispatcher, BullMQ queue (concurrency ${concurrency})`,
        start: dispatchAll(bullmq),
      },
      { name: `bare loop: signWebhook + fetch POST, ${concurrency} at a time (baseline)`, start: bare },
    ];

    /** Deliveries per second of one batch, counted at the receiver. */
    const measure = async (contender: DispatchContender, count: number): Promise<number> => {
      receiver.postMessage({ expect: count });
      const arrived = once(receiver, "message");
      const began = performance.now();
      const timeout = setTimeout(
        () => receiver.emit("error", new Error(`${contender.name}: timed out`)),
        60_000,
      );
      try {
        await contender.start(count);
        await arrived;
      } finally {
        clearTimeout(timeout);
      }
      return (count / (performance.now() - began)) * 1000;
    };

    for (const contender of contenders) await measure(contender, WARM_UP);
    const samples = contenders.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round++) {
      for (let turn = 0; turn < contenders.length; turn++) {
        const index = (round + turn) % contenders.length;
        samples[index]!.push(await measure(contenders[index]!, DELIVERIES));
      }
    }
    const rates = samples.map(median);
    const baseline = rates[rates.length - 1]!;
    return {
      name: `Webhook deliveries to a loopback receiver, ${DELIVERIES} events x 1 endpoint per round, ${ROUNDS} rounds`,
      rows: contenders.map((contender, index) => ({
        name: contender.name,
        deliveriesPerSecond: rates[index]!,
        ratio: rates[index]! / baseline,
      })),
    };
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await redis.stop();
    receiver.postMessage("close");
    await once(receiver, "exit");
  }
}

export function printDispatchCase(result: DispatchCaseResult): void {
  console.log(`\n${result.name}`);
  const width = Math.max(...result.rows.map((row) => row.name.length));
  for (const row of result.rows) {
    const rate = Math.round(row.deliveriesPerSecond).toLocaleString("en-US");
    console.log(
      `  ${row.name.padEnd(width)}  ${rate.padStart(7)} deliveries/s   ratio ${row.ratio.toFixed(2)}`,
    );
  }
}

/** One line for the summary: both queues against the bare loop, with the memory queue's target. */
export function dispatchSummary(result: DispatchCaseResult): string {
  const [memory, bullmq] = result.rows;
  const met = memory!.ratio >= 0.7 ? "met" : "NOT met";
  return `Dispatch ratio (÷ a bare loop of signed fetch POSTs): memory queue ${memory!.ratio.toFixed(2)} (target ≥ 0.70: ${met}); BullMQ ${bullmq!.ratio.toFixed(2)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`messaging-events dispatch benchmark on Node ${process.versions.node}`);
  const result = await dispatchCase();
  printDispatchCase(result);
  console.log(`\n${dispatchSummary(result)}`);
}
