import type { ConnectionOptions } from "bullmq";
import type { NormalizedBullMQQueueOptions } from "./normalizeBullMQQueueOptions.js";

/**
 * The client the worker uses: yours, or, when it is an ioredis client with `maxRetriesPerRequest`
 * (which BullMQ refuses on a blocking connection), a copy of it without, closed with the queue.
 */
export function workerConnection(settings: NormalizedBullMQQueueOptions): {
  readonly connection: ConnectionOptions;
  readonly close: () => Promise<void>;
} {
  if (!settings.limitsRetriesPerRequest) return { connection: settings.connection, close: async () => {} };
  const client = settings.connection as {
    options: { redisOptions?: object };
    duplicate(...args: unknown[]): ConnectionOptions & {
      on(event: "error", listener: () => void): void;
      disconnect(): void;
    };
  };
  const copy =
    settings.kind === "ioredis-cluster"
      ? client.duplicate([], { redisOptions: { ...client.options.redisOptions, maxRetriesPerRequest: null } })
      : client.duplicate({ maxRetriesPerRequest: null });
  copy.on("error", () => undefined);
  return { connection: copy, close: async () => copy.disconnect() };
}
