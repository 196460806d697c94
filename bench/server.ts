/**
 * The `POST /events` handler over real HTTP on loopback: `createEventsHandler` behind
 * `createNodeListener` on `node:http`, with the memory store and with the Redis store (a real
 * `redis-server` started for the run, node-redis client), against a bare handler behind the same
 * adapter that only does what any server must: authorize, check the media types, read the body,
 * `JSON.parse`, `safeParseEventDocument`, answer 201 with the resource (the baseline; no idempotency).
 *
 * Load: a fixed number of requests per round from a bounded number of keep-alive connections, sent
 * by a load generator on its own thread (so its cost is not counted as the servers'); every request
 * carries a new idempotency key (header and `data.meta`). Contenders take turns round by round (the
 * first one rotates), and each one's figure is the median of its rounds; p99 is the median of the
 * per-round p99 latencies. Targets: memory store ≥ 0.8x bare, Redis ≥ 0.5x bare.
 * `tsx bench/server.ts` runs this file alone.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { Worker } from "node:worker_threads";
import { createClient } from "redis";
import { createEventDocument } from "../src/jsonapi/createEventDocument.js";
import { acceptsJsonApi, isJsonApiMediaType, JSON_API_MEDIA_TYPE } from "../src/jsonapi/mediaType.js";
import { safeParseEventDocument } from "../src/jsonapi/parseEventDocument.js";
import { createEventsHandler } from "../src/server/createEventsHandler.js";
import { createMemoryIdempotencyStore } from "../src/server/createMemoryIdempotencyStore.js";
import { createNodeListener } from "../src/server/createNodeListener.js";
import { readBodyWithLimit } from "../src/server/readBodyWithLimit.js";
import { createRedisIdempotencyStore } from "../src/server/redis/createRedisIdempotencyStore.js";
import { startRedisServer } from "../test/support/redisServer.js";

const REQUESTS = 2_000;
const CONCURRENCY = 16;
const ROUNDS = 7;
const WARM_UP = 600;
const TOKEN = "Bearer bench";
const MAX_BODY_BYTES = 1024 * 1024;
export const KEY_SLOT = "KEY_SLOT_0123456789";

export interface ServerRow {
  readonly name: string;
  /** Median of the rounds, requests per second. */
  readonly requestsPerSecond: number;
  /** Against the baseline (the last row). */
  readonly ratio: number;
  /** Median of the per-round p50 and p99 latencies, in milliseconds. */
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface ServerCaseResult {
  readonly name: string;
  readonly rows: readonly ServerRow[];
}

// The load generator, on its own thread: plain JavaScript, node:http with a keep-alive agent.
export const LOAD_GENERATOR = `
const { parentPort } = require("node:worker_threads");
const http = require("node:http");
const agents = new Map();
parentPort.on("message", ({ port, count, concurrency, prefix, suffix, keyBase, headers }) => {
  let agent = agents.get(port);
  if (agent === undefined) {
    agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    agents.set(port, agent);
  }
  const latencies = new Float64Array(count);
  const statuses = {};
  let next = 0;
  let done = 0;
  const start = performance.now();
  const send = () => {
    if (next >= count) return;
    const index = next++;
    const key = keyBase + index;
    const body = prefix + key + suffix;
    const sent = performance.now();
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/events",
        method: "POST",
        agent,
        headers: { ...headers, "service-idempotency-key": key, "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        response.on("data", () => {});
        response.on("end", () => {
          latencies[index] = performance.now() - sent;
          statuses[response.statusCode] = (statuses[response.statusCode] || 0) + 1;
          if (++done === count) {
            parentPort.postMessage({ elapsedMs: performance.now() - start, latencies, statuses });
          } else send();
        });
      },
    );
    request.on("error", (error) => {
      statuses[String(error.code || "error")] = (statuses[String(error.code || "error")] || 0) + 1;
      if (++done === count) parentPort.postMessage({ elapsedMs: performance.now() - start, latencies, statuses });
      else send();
    });
    request.end(body);
  };
  for (let i = 0; i < concurrency; i++) send();
});
`;

interface LoadResult {
  readonly elapsedMs: number;
  readonly latencies: Float64Array;
  readonly statuses: Record<string, number>;
}

/** Sends one batch from the load thread and waits for its figures. */
export function load(
  worker: Worker,
  port: number,
  count: number,
  keyBase: string,
  body: string,
  extraHeaders: Record<string, string> = {},
): Promise<LoadResult> {
  const [prefix, suffix] = body.split(KEY_SLOT) as [string, string];
  const answer = once(worker, "message") as Promise<[LoadResult]>;
  worker.postMessage({
    port,
    count,
    concurrency: CONCURRENCY,
    prefix,
    suffix,
    keyBase,
    headers: {
      authorization: TOKEN,
      "content-type": JSON_API_MEDIA_TYPE,
      accept: JSON_API_MEDIA_TYPE,
      ...extraHeaders,
    },
  });
  return answer.then(([result]) => result);
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const percentile = (values: Float64Array, p: number): number => {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

export const authorize = (request: Request): string | null =>
  request.headers.get("authorization") === TOKEN ? "bench-tenant" : null;

let sequence = 0;
const create = async () => ({ id: `01JD8X${String(++sequence).padStart(20, "0")}` });

/** What a server must do anyway, without idempotency: the baseline. */
async function bareHandler(request: Request): Promise<Response> {
  const error = (status: number) => new Response(null, { status });
  if (new URL(request.url).pathname !== "/events") return error(404);
  if (request.method !== "POST") return error(405);
  if (authorize(request) === null) return error(401);
  if (!isJsonApiMediaType(request.headers.get("content-type"))) return error(415);
  if (!acceptsJsonApi(request.headers.get("accept"))) return error(406);
  const body = await readBodyWithLimit(request, MAX_BODY_BYTES);
  if (!body.success) return error(413);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body.bytes));
  } catch {
    return error(400);
  }
  const validated = safeParseEventDocument(parsed);
  if (!validated.success) return error(422);
  const { id } = await create();
  return new Response(
    JSON.stringify({ data: { id, type: "events", attributes: validated.data.data.attributes } }),
    { status: 201, headers: { "content-type": JSON_API_MEDIA_TYPE } },
  );
}

export async function listen(handler: (request: Request) => Promise<Response>): Promise<Server> {
  const server = createServer({ keepAliveTimeout: 60_000 }, createNodeListener(handler));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return server;
}

export const portOf = (server: Server): number => {
  const address = server.address();
  return typeof address === "object" && address !== null ? address.port : 0;
};

export async function shut(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Runs the whole case: starts Redis, the three servers and the load thread, and stops them all. */
export async function serverCase(): Promise<ServerCaseResult> {
  // A realistic document, about 400 bytes, with its key in data.meta as the library's client sends it.
  const body = JSON.stringify(
    createEventDocument({
      type: "s.message.text",
      content: { body: "Grüße aus Köln 👋 ".repeat(12) },
      idempotencyKey: KEY_SLOT,
    }),
  );
  const redis = await startRedisServer();
  const client = createClient({ url: redis.url });
  client.on("error", () => undefined);
  const worker = new Worker(LOAD_GENERATOR, { eval: true });
  const servers: Server[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  try {
    await client.connect();
    closers.push(() => client.close());
    const memoryHandler = createEventsHandler({
      authorize,
      create,
      store: createMemoryIdempotencyStore(),
    });
    closers.push(() => memoryHandler.close());
    const redisStore = createRedisIdempotencyStore({ client, prefix: "bench:idempotency:" });
    const redisHandler = createEventsHandler({ authorize, create, store: redisStore });
    closers.push(
      () => redisStore.close(),
      () => redisHandler.close(),
    );

    const contenders = [
      { name: "createEventsHandler, memory store", handler: memoryHandler },
      { name: "createEventsHandler, Redis store (node-redis)", handler: redisHandler },
      {
        name: "bare: media types, body, JSON.parse, safeParseEventDocument, 201 (baseline)",
        handler: bareHandler,
      },
    ];
    for (const contender of contenders) servers.push(await listen(contender.handler));

    const run = async (index: number, count: number, label: string) => {
      const result = await load(worker, portOf(servers[index]!), count, `${label}-${index}-`, body);
      const wrong = Object.entries(result.statuses).filter(([status]) => status !== "201");
      if (wrong.length > 0) {
        throw new Error(
          `${contenders[index]!.name}: answers other than 201: ${JSON.stringify(result.statuses)}`,
        );
      }
      return result;
    };
    const runId = Date.now().toString(36);
    for (let index = 0; index < contenders.length; index++) await run(index, WARM_UP, `${runId}-warm`);

    const samples = contenders.map(() => ({ rps: [] as number[], p50: [] as number[], p99: [] as number[] }));
    for (let round = 0; round < ROUNDS; round++) {
      for (let turn = 0; turn < contenders.length; turn++) {
        const index = (round + turn) % contenders.length;
        const result = await run(index, REQUESTS, `${runId}-${round}`);
        samples[index]!.rps.push((REQUESTS / result.elapsedMs) * 1000);
        samples[index]!.p50.push(percentile(result.latencies, 50));
        samples[index]!.p99.push(percentile(result.latencies, 99));
      }
    }
    const rps = samples.map((sample) => median(sample.rps));
    const baseline = rps[rps.length - 1]!;
    return {
      name: `POST /events over node:http on loopback, ${REQUESTS} requests per round from ${CONCURRENCY} keep-alive connections, every one a new key, ${ROUNDS} rounds`,
      rows: contenders.map((contender, index) => ({
        name: contender.name,
        requestsPerSecond: rps[index]!,
        ratio: rps[index]! / baseline,
        p50Ms: median(samples[index]!.p50),
        p99Ms: median(samples[index]!.p99),
      })),
    };
  } finally {
    await worker.terminate();
    await Promise.all(servers.map(shut));
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await redis.stop();
  }
}

export function printServerCase(result: ServerCaseResult): void {
  console.log(`\n${result.name}`);
  const width = Math.max(...result.rows.map((row) => row.name.length));
  for (const row of result.rows) {
    const rps = Math.round(row.requestsPerSecond).toLocaleString("en-US");
    console.log(
      `  ${row.name.padEnd(width)}  ${rps.padStart(7)} requests/s   ratio ${row.ratio.toFixed(2)}   p50 ${row.p50Ms.toFixed(2)} ms   p99 ${row.p99Ms.toFixed(2)} ms`,
    );
  }
}

/** One line for the summary: both stores against the bare handler, with their targets. */
export function serverSummary(result: ServerCaseResult): string {
  const [memory, redis] = result.rows;
  const verdict = (ratio: number, target: number) =>
    `${ratio.toFixed(2)} (target ≥ ${target.toFixed(2)}: ${ratio >= target ? "met" : "NOT met"})`;
  return `Events handler ratio (÷ a bare handler that only validates): memory store ${verdict(memory!.ratio, 0.8)}, p99 ${memory!.p99Ms.toFixed(1)} ms; Redis store ${verdict(redis!.ratio, 0.5)}, p99 ${redis!.p99Ms.toFixed(1)} ms`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`messaging-events server benchmark on Node ${process.versions.node}`);
  const result = await serverCase();
  printServerCase(result);
  console.log(`\n${serverSummary(result)}`);
}
