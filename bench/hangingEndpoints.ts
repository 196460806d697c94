/**
 * One endpoint in ten hangs: webhook deliveries per second to 90 healthy endpoints while 10 more
 * never answer, against the same run without the 10 (the baseline). A loopback receiver on its own
 * thread serves all 100 paths: `/ok/<n>` answers 204 and counts, `/hang/<n>` reads the body and
 * never answers (until the round ends and it lets go of them). Both runs use the same dispatcher
 * settings, as an operator with 100 endpoints would size them: `concurrency` 50, `endpointConcurrency`
 * 2, so the hanging endpoints can hold at most 20 attempts. Each figure is the time from dispatching
 * the events to the last healthy delivery counted at the receiver; the runs take turns, round by
 * round, and each figure is the median of its rounds. Target: ratio ≥ 0.8.
 * `tsx bench/hangingEndpoints.ts` runs this file alone.
 */
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { createWebhookDispatcher } from "../src/dispatch/createWebhookDispatcher.js";
import type { DispatchInput } from "../src/dispatch/DispatchInput.js";

const EVENTS = 20;
const HEALTHY = 90;
const HANGING = 10;
const ROUNDS = 5;
const SECRET = "whsec_bench_hanging";

export interface HangingEndpointsResult {
  readonly name: string;
  /** Healthy deliveries per second with the hanging endpoints, and without (the baseline). */
  readonly withHanging: number;
  readonly withoutHanging: number;
  readonly ratio: number;
}

// Counts healthy requests and says when it has seen as many as expected; holds hanging ones open.
const RECEIVER = `
const { parentPort } = require("node:worker_threads");
const http = require("node:http");
let count = 0;
let expected = Infinity;
const hanging = new Set();
const server = http.createServer({ keepAliveTimeout: 60000 }, (request, response) => {
  request.on("data", () => {});
  request.on("end", () => {
    if (request.url.startsWith("/hang/")) {
      hanging.add(response);
      return;
    }
    response.writeHead(204);
    response.end();
    if (++count === expected) parentPort.postMessage({ done: count });
  });
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage({ port: server.address().port }));
parentPort.on("message", (message) => {
  if (message === "release") {
    for (const response of hanging) response.destroy();
    hanging.clear();
    parentPort.postMessage({ released: true });
    return;
  }
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

/** Runs both configurations in turns and returns the medians and their ratio. */
export async function hangingEndpointsCase(): Promise<HangingEndpointsResult> {
  const receiver = new Worker(RECEIVER, { eval: true });
  const [{ port }] = (await once(receiver, "message")) as [{ port: number }];
  const base = `http://127.0.0.1:${port}`;
  const healthy = Array.from({ length: HEALTHY }, (_, n) => ({
    id: `ok-${n}`,
    url: `${base}/ok/${n}`,
    secret: SECRET,
  }));
  const hanging = Array.from({ length: HANGING }, (_, n) => ({
    id: `hang-${n}`,
    url: `${base}/hang/${n}`,
    secret: SECRET,
  }));
  const input: DispatchInput = {
    event: { type: "s.message.text", content: { body: "Grüße aus Köln 👋 ".repeat(12) } },
    roomId: "room-42",
  };

  /** One round: a fresh dispatcher, EVENTS events, the time until every healthy delivery arrived. */
  const round = async (withHanging: boolean): Promise<number> => {
    const dispatcher = createWebhookDispatcher({
      endpoints: withHanging ? [...hanging, ...healthy] : healthy,
      destinations: { allow: ["127.0.0.1"] },
      concurrency: 50,
      endpointConcurrency: 2,
      timeoutMs: 30_000,
    });
    const expected = EVENTS * HEALTHY;
    receiver.postMessage({ expect: expected });
    const arrived = once(receiver, "message");
    const began = performance.now();
    const timeout = setTimeout(
      () => receiver.emit("error", new Error("hanging endpoints: timed out")),
      60_000,
    );
    try {
      await Promise.all(Array.from({ length: EVENTS }, () => dispatcher.dispatch(input)));
      await arrived;
    } finally {
      clearTimeout(timeout);
    }
    const elapsed = performance.now() - began;
    // Let go of the hanging requests so that the dispatcher's attempts end and it closes at once.
    receiver.postMessage("release");
    await once(receiver, "message");
    await dispatcher.close();
    return (expected / elapsed) * 1000;
  };

  try {
    await round(true);
    await round(false);
    const samples: { with: number[]; without: number[] } = { with: [], without: [] };
    for (let index = 0; index < ROUNDS; index++) {
      if (index % 2 === 0) {
        samples.with.push(await round(true));
        samples.without.push(await round(false));
      } else {
        samples.without.push(await round(false));
        samples.with.push(await round(true));
      }
    }
    const withHanging = median(samples.with);
    const withoutHanging = median(samples.without);
    return {
      name: `Healthy deliveries while ${HANGING} of ${HANGING + HEALTHY} endpoints hang, ${EVENTS} events per round, ${ROUNDS} rounds (concurrency 50, endpointConcurrency 2)`,
      withHanging,
      withoutHanging,
      ratio: withHanging / withoutHanging,
    };
  } finally {
    receiver.postMessage("close");
    await once(receiver, "exit");
  }
}

export function printHangingEndpointsCase(result: HangingEndpointsResult): void {
  console.log(`\n${result.name}`);
  const rate = (value: number) => Math.round(value).toLocaleString("en-US").padStart(7);
  console.log(
    `  with the ${HANGING} hanging endpoints     ${rate(result.withHanging)} deliveries/s   ratio ${result.ratio.toFixed(2)}`,
  );
  console.log(`  without them (baseline)          ${rate(result.withoutHanging)} deliveries/s   ratio 1.00`);
}

/** One line for the summary, with the target. */
export function hangingEndpointsSummary(result: HangingEndpointsResult): string {
  const met = result.ratio >= 0.8 ? "met" : "NOT met";
  return `Hanging endpoints ratio (healthy deliveries/s with ${HANGING} hanging ÷ without): ${result.ratio.toFixed(2)} (target ≥ 0.80: ${met})`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`messaging-events hanging-endpoints benchmark on Node ${process.versions.node}`);
  const result = await hangingEndpointsCase();
  printHangingEndpointsCase(result);
  console.log(`\n${hangingEndpointsSummary(result)}`);
}
