import { type Job, Queue, UnrecoverableError, Worker } from "bullmq";
import { isPlainObject } from "../../internal/isPlainObject.js";
import { sleep } from "../../internal/sleep.js";
import { checkQueuedDelivery } from "../checkQueuedDelivery.js";
import type {
  AttemptResponse,
  DeadDelivery,
  DeliveryLease,
  DeliveryQueue,
  QueuedDelivery,
} from "../DeliveryQueue.js";
import { DispatchError } from "../DispatchError.js";
import type { BullMQDeliveryQueueOptions } from "./BullMQDeliveryQueueOptions.js";
import { describeRedisFailure } from "./describeRedisFailure.js";
import { normalizeBullMQQueueOptions } from "./normalizeBullMQQueueOptions.js";
import { workerConnection } from "./workerConnection.js";

/** A delivery as a job holds it: once dead, with what its endpoint last answered. */
type StoredDelivery = QueuedDelivery & { readonly lastResponse?: AttemptResponse };

const BACKOFF_TYPE = "messaging-events";
/** The dispatcher decides when a delivery dies; BullMQ's own attempt limit never should. */
const UNLIMITED_ATTEMPTS = 1_000_000_000;

/** The error handed to BullMQ for a retry: the custom backoff strategy reads the wait from it. */
class RetryLater extends Error {
  readonly retryDelayMs: number;
  constructor(reason: string, retryDelayMs: number) {
    super(reason);
    this.name = "RetryLater";
    this.retryDelayMs = retryDelayMs;
  }
}

/** A lock lost to another worker (its lock expired): the queue ignores the stale lease, as the interface says. */
const isLockError = (error: unknown): boolean =>
  error instanceof Error && /lock|not in the active|missing key|job .* not exist/i.test(error.message);

/** A copy of what an endpoint answered, or `undefined` when it is not one. */
function attemptResponseOf(value: unknown): AttemptResponse | undefined {
  if (!isPlainObject(value)) return undefined;
  const { status, body } = value;
  if (typeof status !== "number" || !Number.isInteger(status) || typeof body !== "string") return undefined;
  return { status, body };
}

/**
 * Creates a durable {@link DeliveryQueue} on BullMQ (Redis): deliveries survive restarts and are shared
 * by every process that uses the same queue name. Retries are BullMQ delayed jobs, timed by the
 * dispatcher's `retry` waits through a custom backoff strategy; dead deliveries are failed jobs, kept
 * as `keepDead` says (10,000 or 30 days by default), listed with what their endpoint last answered,
 * and replayable. BullMQ's own habits hold: producer and worker apart (a process that only
 * dispatches, `deliver: false`, never creates a Worker), locks renewed while an attempt runs, and a
 * crashed worker's delivery taken over once its lock expires.
 *
 * **Delivery is at least once**: after a crash, a delivery may reach its receiver twice, with the same
 * `service-webhook-id`; receivers should de-duplicate by it.
 *
 * The connection is a Redis client, checked when the queue is created: a node-redis client, an ioredis
 * `Redis`, or on Redis Cluster an ioredis `Cluster` with a hash-tagged prefix (`"{webhooks}"`);
 * connection options and node-redis's `createCluster()` are refused with a `TypeError` that says
 * what to pass instead. `bullmq` is an optional peer dependency: only this subpath imports it.
 * Nothing secret is stored in Redis (deliveries name their endpoint by id), and no failure message
 * repeats a Redis error's text (it may hold a connection URL): each says what failed and what to do,
 * the original kept as `cause`. `close()` is idempotent: it stops handing out deliveries, waits (up to
 * `lockMs`) for leases out to be settled, and closes the BullMQ Queue and Worker it created, never
 * your connection or your `queue`.
 *
 * Exported from `messaging-events/dispatch/bullmq`.
 *
 * @example
 * ```ts
 * import { createWebhookDispatcher } from "messaging-events/dispatch";
 * import { createBullMQDeliveryQueue } from "messaging-events/dispatch/bullmq";
 * import { createClient } from "redis";
 *
 * async function startWorker(redisUrl: string) {
 *   const connection = createClient({ url: redisUrl });
 *   connection.on("error", (error) => console.error("redis", error)); // or an outage ends the process
 *   await connection.connect();
 *   const queue = createBullMQDeliveryQueue({ connection });
 *   const dispatcher = createWebhookDispatcher({
 *     endpoints: [{ id: "acme", url: "https://acme.example/hooks", secret: "s3cr3t" }],
 *     queue,
 *   });
 *   return async () => {
 *     await dispatcher.close(); // attempts in flight finish
 *     await queue.close();
 *     await connection.close();
 *   };
 * }
 * ```
 *
 * @example
 * ```ts
 * import { createBullMQDeliveryQueue } from "messaging-events/dispatch/bullmq";
 * import { Cluster } from "ioredis";
 *
 * // Redis Cluster: an ioredis Cluster, and a prefix whose hash tag keeps the queue's keys in one slot.
 * function clusterQueue(nodes: { host: string; port: number }[]) {
 *   const connection = new Cluster(nodes);
 *   connection.on("error", (error) => console.error("redis", error));
 *   return createBullMQDeliveryQueue({ connection, prefix: "{webhooks}" });
 * }
 * ```
 */
export function createBullMQDeliveryQueue(options: BullMQDeliveryQueueOptions): DeliveryQueue {
  const settings = normalizeBullMQQueueOptions(options);
  const { given, name, prefix, connection, lockMs, keepDead, limiter } = settings;

  const producer = given ?? new Queue<StoredDelivery>(name, { connection, prefix });
  // An "error" event without a listener would crash the process; errors surface through calls instead.
  if (given === undefined) producer.on("error", () => undefined);
  const tokenPrefix = crypto.randomUUID();
  let sequence = 0;
  let worker: Worker<StoredDelivery> | undefined;
  let closeWorkerClient = async () => {};
  let renewTimer: ReturnType<typeof setInterval> | undefined;
  const held = new Map<string, { readonly job: Job<StoredDelivery>; readonly token: string }>();
  let turn: Promise<void> = Promise.resolve();
  let closing: Promise<void> | undefined;
  const closed = new AbortController();

  const failure = (what: string, cause: unknown) => {
    const message = describeRedisFailure(`the BullMQ queue failed to ${what}`, cause);
    return new DispatchError("ERR_DISPATCH_QUEUE_FAILED", message, { cause });
  };

  const workerFor = (): Worker<StoredDelivery> => {
    if (worker !== undefined) return worker;
    const client = workerConnection(settings);
    closeWorkerClient = client.close;
    worker = new Worker<StoredDelivery>(name, null, {
      connection: client.connection,
      prefix,
      autorun: false,
      lockDuration: lockMs,
      stalledInterval: settings.stalledIntervalMs,
      maxStalledCount: settings.maxStalledCount,
      drainDelay: 1,
      ...(keepDead === false ? {} : { removeOnFail: keepDead }),
      ...(limiter === undefined ? {} : { limiter }),
      ...(settings.metrics === undefined ? {} : { metrics: settings.metrics }),
      settings: {
        backoffStrategy: (_attempts: number, _type?: string, error?: Error) =>
          error instanceof RetryLater ? error.retryDelayMs : 1_000,
      },
    });
    worker.on("error", () => undefined);
    void worker.startStalledCheckTimer();
    renewTimer = setInterval(
      () => {
        if (held.size === 0 || worker === undefined) return;
        const entries = [...held.entries()];
        worker
          .extendJobLocks(
            entries.map(([id]) => id),
            entries.map(([, lease]) => lease.token),
            lockMs,
          )
          .catch(() => undefined);
      },
      Math.max(1, Math.floor(lockMs / 2)),
    );
    (renewTimer as unknown as { unref?: () => void }).unref?.();
    return worker;
  };

  /** The held job of a lease, or `undefined` for a stale or foreign lease. */
  const heldJob = (lease: DeliveryLease): Job<StoredDelivery> | undefined => {
    const id = typeof lease === "object" && lease !== null ? lease.delivery?.id : undefined;
    const entry = typeof id === "string" ? held.get(id) : undefined;
    return entry !== undefined && entry.token === lease.token ? entry.job : undefined;
  };

  /** Runs a settling call on a held job; a lock lost meanwhile makes the lease stale, and that is ignored. */
  const settle = async (
    lease: DeliveryLease,
    what: string,
    run: (job: Job<StoredDelivery>) => Promise<unknown>,
  ) => {
    const job = heldJob(lease);
    if (job === undefined) return;
    held.delete(job.id!);
    try {
      await run(job);
    } catch (error) {
      if (!isLockError(error)) throw failure(what, error);
    }
  };

  const fetchNext = async (): Promise<Job<StoredDelivery> | undefined> => {
    const token = `${tokenPrefix}:${++sequence}`;
    const job = await workerFor().getNextJob(token, { block: true });
    if (job !== undefined) job.token = token;
    return job;
  };

  /** While the rate limiter holds deliveries back, BullMQ's fetch returns at once: wait instead of spinning. */
  const waitForRateLimit = async (signal: AbortSignal | undefined) => {
    if (limiter === undefined) return;
    const ttl = await producer.getRateLimitTtl(limiter.max).catch(() => 0);
    // Until the window ends, the caller's signal aborts, or the queue closes.
    const stop = new AbortController();
    const abort = () => stop.abort();
    const sources = [signal, closed.signal];
    for (const source of sources) source?.addEventListener("abort", abort, { once: true });
    if (sources.some((source) => source?.aborted)) abort();
    await sleep(Math.min(Math.max(ttl, 10), limiter.duration), stop.signal).catch(() => undefined);
    for (const source of sources) source?.removeEventListener("abort", abort);
  };

  return {
    async add(deliveries) {
      if (closing !== undefined)
        throw new DispatchError("ERR_DISPATCH_CLOSED", "the delivery queue is closed");
      if (!Array.isArray(deliveries)) throw new TypeError("add: pass an array of deliveries");
      const checked = deliveries.map((delivery) => checkQueuedDelivery(delivery, "add"));
      if (checked.length === 0) return;
      try {
        await producer.addBulk(
          checked.map((delivery) => ({
            name: "webhook",
            data: delivery,
            opts: {
              jobId: delivery.id,
              attempts: UNLIMITED_ATTEMPTS,
              backoff: { type: BACKOFF_TYPE },
              removeOnComplete: true,
              removeOnFail: keepDead,
              stackTraceLimit: 0,
            },
          })),
        );
      } catch (error) {
        throw failure("store the deliveries", error);
      }
    },
    async take({ signal } = {}) {
      while (closing === undefined && !signal?.aborted) {
        // One blocking fetch at a time, for one taker: BullMQ's worker has one blocking connection.
        const previous = turn;
        let endTurn!: () => void;
        turn = new Promise<void>((resolve) => {
          endTurn = resolve;
        });
        let onAbort: (() => void) | undefined;
        const aborted = new Promise<"aborted">((resolve) => {
          onAbort = () => resolve("aborted");
          signal?.addEventListener("abort", onAbort, { once: true });
        });
        let pending: Promise<Job<StoredDelivery> | undefined> | undefined;
        try {
          if ((await Promise.race([previous, aborted])) === "aborted") {
            void previous.then(endTurn);
            return undefined;
          }
          if (closing !== undefined) {
            endTurn();
            return undefined;
          }
          pending = fetchNext();
          const job = await Promise.race([pending, aborted]);
          if (job === "aborted") {
            // The fetch goes on: whatever it brings back is given back, unattempted; the next
            // fetch waits for it to end.
            void pending.then(
              (late) => late?.moveToWait(late.token!).catch(() => undefined),
              () => undefined,
            );
            void pending.then(endTurn, endTurn);
            return undefined;
          }
          endTurn();
          if (job === undefined) {
            await waitForRateLimit(signal);
            continue;
          }
          const token = job.token!;
          let delivery: QueuedDelivery;
          try {
            delivery = checkQueuedDelivery(job.data, "take");
          } catch {
            // Not something a dispatcher stored: fail it for good rather than retry it forever.
            await job
              .moveToFailed(new UnrecoverableError("not a delivery"), token, false)
              .catch(() => undefined);
            continue;
          }
          held.set(job.id!, { job, token });
          return { delivery, attempts: job.attemptsMade, token, lockExpiresAt: Date.now() + lockMs };
        } catch (error) {
          endTurn();
          if (closing !== undefined) return undefined;
          throw failure("hand out a delivery", error);
        } finally {
          if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
        }
      }
      return undefined;
    },
    complete: (lease) =>
      settle(lease, "complete a delivery", (job) => job.moveToCompleted("delivered", job.token!, false)),
    retry: (lease, retryAt, reason) => {
      if (typeof retryAt !== "number" || Number.isNaN(retryAt)) {
        return Promise.reject(new TypeError("retry: retryAt must be a time in epoch milliseconds"));
      }
      const delay = Math.min(Math.max(1, Math.round(retryAt - Date.now())), Number.MAX_SAFE_INTEGER);
      return settle(lease, "retry a delivery", (job) =>
        job.moveToFailed(new RetryLater(String(reason), delay), job.token!, false),
      );
    },
    dead: (lease, reason, lastResponse) => {
      const answer = lastResponse === undefined ? undefined : attemptResponseOf(lastResponse);
      if (lastResponse !== undefined && answer === undefined) {
        return Promise.reject(new TypeError("dead: lastResponse must be { status, body }"));
      }
      return settle(lease, "keep a dead delivery", async (job) => {
        // This process's retention applies, whatever the dispatching process stored with the job.
        job.opts.removeOnFail = keepDead;
        await job.moveToFailed(new UnrecoverableError(String(reason)), job.token!, false);
        // Dead first, then what the endpoint answered: a lease lost meanwhile never carries it.
        if (answer === undefined && job.data.lastResponse === undefined) return;
        const delivery = checkQueuedDelivery(job.data, "dead");
        await job
          .updateData(answer === undefined ? delivery : { ...delivery, lastResponse: answer })
          .catch((error: unknown) => {
            // Removed at once by keepDead: nothing to add the answer to.
            if (!isLockError(error)) throw error;
          });
      });
    },
    release: (lease) => settle(lease, "release a delivery", (job) => job.moveToWait(job.token!)),
    defer: (lease, dueAt) => {
      if (typeof dueAt !== "number" || Number.isNaN(dueAt)) {
        return Promise.reject(new TypeError("defer: dueAt must be a time in epoch milliseconds"));
      }
      // Delayed without counting an attempt: BullMQ's moveToDelayed leaves attemptsMade as it is.
      const at = Math.min(dueAt, Number.MAX_SAFE_INTEGER);
      return settle(lease, "defer a delivery", (job) => job.moveToDelayed(at, job.token!));
    },
    async listDead(listOptions) {
      const limit = listOptions?.limit ?? 100;
      if (typeof limit !== "number" || !(limit >= 0))
        throw new TypeError("listDead: limit must be a number >= 0");
      if (limit === 0) return [];
      let jobs: Job<StoredDelivery>[];
      try {
        jobs = await producer.getJobs(["failed"], 0, Math.min(limit, 100_000) - 1, true);
      } catch (error) {
        throw failure("list dead deliveries", error);
      }
      const dead: DeadDelivery[] = [];
      for (const job of jobs) {
        try {
          const delivery = checkQueuedDelivery(job.data, "listDead");
          const lastResponse = attemptResponseOf(job.data.lastResponse);
          dead.push({
            ...delivery,
            attempts: job.attemptsMade,
            reason: typeof job.failedReason === "string" ? job.failedReason : "",
            diedAt: job.finishedOn ?? 0,
            ...(lastResponse === undefined ? {} : { lastResponse }),
          });
        } catch {}
      }
      return dead;
    },
    async replay(deliveryId) {
      if (closing !== undefined)
        throw new DispatchError("ERR_DISPATCH_CLOSED", "the delivery queue is closed");
      if (typeof deliveryId !== "string") return false;
      try {
        const job = await producer.getJob(deliveryId);
        if (job === undefined || !(await job.isFailed())) return false;
        await job.retry("failed", { resetAttemptsMade: true });
        return true;
      } catch (error) {
        throw failure("replay a delivery", error);
      }
    },
    close() {
      closing ??= (async () => {
        closed.abort();
        // Leases out are settled by their attempts; wait for them, as long as a lock lasts.
        const deadline = Date.now() + lockMs;
        while (held.size > 0 && Date.now() < deadline) await sleep(10);
        clearInterval(renewTimer);
        await worker?.close().catch(() => undefined);
        await turn;
        await closeWorkerClient().catch(() => undefined);
        if (given === undefined) await producer.close().catch(() => undefined);
      })();
      return closing;
    },
  };
}
