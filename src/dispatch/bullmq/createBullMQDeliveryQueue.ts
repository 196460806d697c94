import { type ConnectionOptions, type Job, Queue, UnrecoverableError, Worker } from "bullmq";
import { MAX_TIMER_MS, sleep } from "../../internal/sleep.js";
import { checkQueuedDelivery } from "../checkQueuedDelivery.js";
import type { DeadDelivery, DeliveryLease, DeliveryQueue, QueuedDelivery } from "../DeliveryQueue.js";
import { DispatchError } from "../DispatchError.js";

/**
 * The options of {@link createBullMQDeliveryQueue}: a `connection`, or an existing BullMQ `queue`
 * (whose connection the worker then shares).
 *
 * Exported from `messaging-events/dispatch/bullmq`.
 *
 * @example
 * ```ts
 * import type { BullMQDeliveryQueueOptions } from "messaging-events/dispatch/bullmq";
 * import { createClient } from "redis";
 *
 * const options: BullMQDeliveryQueueOptions = {
 *   connection: createClient({ url: "redis://127.0.0.1:6379" }),
 *   name: "webhooks",
 *   lockMs: 60_000,
 * };
 * ```
 */
export interface BullMQDeliveryQueueOptions {
  /**
   * The Redis connection, as BullMQ takes it: a connected node-redis or ioredis client (yours: it is
   * never closed by the queue), or connection options (which need the `ioredis` package).
   */
  readonly connection?: ConnectionOptions;
  /** An existing BullMQ `Queue` to add deliveries to, instead of `connection` and `name`. Never closed by this queue. */
  readonly queue?: Queue;
  /**
   * The BullMQ queue name.
   * @default "messaging-events-webhooks"
   */
  readonly name?: string;
  /**
   * The Redis key prefix.
   * @default "bull"
   */
  readonly prefix?: string;
  /**
   * How long a worker's lock on a delivery lasts; it is renewed every half of it while the attempt
   * runs. A crashed worker's delivery is handed out again once its lock has expired and a stalled
   * check (every `stalledIntervalMs`) has seen it.
   * @default 30000
   */
  readonly lockMs?: number;
  /**
   * How often workers look for deliveries whose worker died.
   * @default 30000
   */
  readonly stalledIntervalMs?: number;
  /**
   * How many times one delivery may be taken over from a dead worker before it is failed (dead).
   * @default 10
   */
  readonly maxStalledCount?: number;
}

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

const whole = (name: string, value: unknown, fallback: number, max = MAX_TIMER_MS): number => {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new TypeError(`createBullMQDeliveryQueue: ${name} must be a whole number from 1 to ${max}`);
  }
  return value;
};

/** A lock lost to another worker (its lock expired): the queue ignores the stale lease, as the interface says. */
const isLockError = (error: unknown): boolean =>
  error instanceof Error && /lock|not in the active|missing key|job .* not exist/i.test(error.message);

/**
 * Creates a durable {@link DeliveryQueue} on BullMQ (Redis): deliveries survive restarts and are shared
 * by every process that uses the same queue name. Retries are BullMQ delayed jobs, timed by the
 * dispatcher's `retry` waits through a custom backoff strategy; dead deliveries are failed jobs, kept
 * until you remove them, listed and replayable. BullMQ's own habits hold: producer and worker apart
 * (a process that only dispatches, `deliver: false`, never creates a Worker), locks renewed while an
 * attempt runs, and a crashed worker's delivery taken over once its lock expires.
 *
 * **Delivery is at least once**: after a crash, a delivery may reach its receiver twice, with the same
 * `service-webhook-id`; receivers should de-duplicate by it.
 *
 * `bullmq` is an optional peer dependency: only this subpath imports it. Nothing secret is stored in
 * Redis (deliveries name their endpoint by id). `close()` is idempotent: it stops handing out
 * deliveries, waits (up to `lockMs`) for leases out to be settled, and closes the BullMQ Queue and
 * Worker it created, never your connection or your `queue`.
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
 */
export function createBullMQDeliveryQueue(options: BullMQDeliveryQueueOptions): DeliveryQueue {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("createBullMQDeliveryQueue: options must be an object with connection or queue");
  }
  const given = options.queue;
  if (given !== undefined && !(given instanceof Queue)) {
    throw new TypeError("createBullMQDeliveryQueue: queue must be a BullMQ Queue");
  }
  const name = options.name ?? given?.name ?? "messaging-events-webhooks";
  if (typeof name !== "string" || !/^[\w.-]{1,100}$/.test(name)) {
    throw new TypeError("createBullMQDeliveryQueue: name must be 1 to 100 letters, digits, _, . or -");
  }
  const connection = options.connection ?? (given?.opts.connection as ConnectionOptions | undefined);
  if (connection === undefined || connection === null) {
    throw new TypeError("createBullMQDeliveryQueue: pass a connection (a Redis client) or a BullMQ queue");
  }
  const prefix = options.prefix ?? given?.opts.prefix;
  const lockMs = whole("lockMs", options.lockMs, 30_000);
  const stalledIntervalMs = whole("stalledIntervalMs", options.stalledIntervalMs, 30_000);
  const maxStalledCount = whole("maxStalledCount", options.maxStalledCount, 10, 1_000_000);

  const producer = given ?? new Queue<QueuedDelivery>(name, { connection, prefix });
  // An "error" event without a listener would crash the process; errors surface through calls instead.
  if (given === undefined) producer.on("error", () => undefined);
  const tokenPrefix = crypto.randomUUID();
  let sequence = 0;
  let worker: Worker<QueuedDelivery> | undefined;
  let renewTimer: ReturnType<typeof setInterval> | undefined;
  const held = new Map<string, { readonly job: Job<QueuedDelivery>; readonly token: string }>();
  let turn: Promise<void> = Promise.resolve();
  let closing: Promise<void> | undefined;

  const failure = (message: string, cause: unknown) =>
    new DispatchError("ERR_DISPATCH_QUEUE_FAILED", message, { cause });

  const workerFor = (): Worker<QueuedDelivery> => {
    if (worker !== undefined) return worker;
    worker = new Worker<QueuedDelivery>(name, null, {
      connection,
      prefix,
      autorun: false,
      lockDuration: lockMs,
      stalledInterval: stalledIntervalMs,
      maxStalledCount,
      drainDelay: 1,
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
  const heldJob = (lease: DeliveryLease): Job<QueuedDelivery> | undefined => {
    const id = typeof lease === "object" && lease !== null ? lease.delivery?.id : undefined;
    const entry = typeof id === "string" ? held.get(id) : undefined;
    return entry !== undefined && entry.token === lease.token ? entry.job : undefined;
  };

  /** Runs a settling call on a held job; a lock lost meanwhile makes the lease stale, and that is ignored. */
  const settle = async (
    lease: DeliveryLease,
    what: string,
    run: (job: Job<QueuedDelivery>) => Promise<unknown>,
  ) => {
    const job = heldJob(lease);
    if (job === undefined) return;
    held.delete(job.id!);
    try {
      await run(job);
    } catch (error) {
      if (!isLockError(error)) throw failure(`the BullMQ queue failed to ${what} a delivery`, error);
    }
  };

  const fetchNext = async (): Promise<Job<QueuedDelivery> | undefined> => {
    const token = `${tokenPrefix}:${++sequence}`;
    const job = await workerFor().getNextJob(token, { block: true });
    if (job !== undefined) job.token = token;
    return job;
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
              removeOnFail: false,
              stackTraceLimit: 0,
            },
          })),
        );
      } catch (error) {
        throw failure("the BullMQ queue failed to store the deliveries", error);
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
        let pending: Promise<Job<QueuedDelivery> | undefined> | undefined;
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
          if (job === undefined) continue;
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
          throw failure("the BullMQ queue failed to hand out a delivery", error);
        } finally {
          if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
        }
      }
      return undefined;
    },
    complete: (lease) =>
      settle(lease, "complete", (job) => job.moveToCompleted("delivered", job.token!, false)),
    retry: (lease, retryAt, reason) => {
      if (typeof retryAt !== "number" || Number.isNaN(retryAt)) {
        return Promise.reject(new TypeError("retry: retryAt must be a time in epoch milliseconds"));
      }
      const delay = Math.min(Math.max(1, Math.round(retryAt - Date.now())), Number.MAX_SAFE_INTEGER);
      return settle(lease, "retry", (job) =>
        job.moveToFailed(new RetryLater(String(reason), delay), job.token!, false),
      );
    },
    dead: (lease, reason) =>
      settle(lease, "kill", (job) =>
        job.moveToFailed(new UnrecoverableError(String(reason)), job.token!, false),
      ),
    release: (lease) => settle(lease, "release", (job) => job.moveToWait(job.token!)),
    async listDead(listOptions) {
      const limit = listOptions?.limit ?? 100;
      if (typeof limit !== "number" || !(limit >= 0))
        throw new TypeError("listDead: limit must be a number >= 0");
      if (limit === 0) return [];
      let jobs: Job<QueuedDelivery>[];
      try {
        jobs = await producer.getJobs(["failed"], 0, Math.min(limit, 100_000) - 1, true);
      } catch (error) {
        throw failure("the BullMQ queue failed to list dead deliveries", error);
      }
      const dead: DeadDelivery[] = [];
      for (const job of jobs) {
        try {
          const delivery = checkQueuedDelivery(job.data, "listDead");
          dead.push({
            ...delivery,
            attempts: job.attemptsMade,
            reason: typeof job.failedReason === "string" ? job.failedReason : "",
            diedAt: job.finishedOn ?? 0,
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
        throw failure("the BullMQ queue failed to replay a delivery", error);
      }
    },
    close() {
      closing ??= (async () => {
        // Leases out are settled by their attempts; wait for them, as long as a lock lasts.
        const deadline = Date.now() + lockMs;
        while (held.size > 0 && Date.now() < deadline) await sleep(10);
        clearInterval(renewTimer);
        await worker?.close().catch(() => undefined);
        await turn;
        if (given === undefined) await producer.close().catch(() => undefined);
      })();
      return closing;
    },
  };
}
