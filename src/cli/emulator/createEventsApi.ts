import { createWebhookDispatcher, type DispatchInput, type WebhookDispatcher } from "../../dispatch/index.js";
import { digestHex } from "../../internal/bytes.js";
import { quote } from "../../internal/describe.js";
import { createEventsHandler, createMemoryIdempotencyStore, type EventsHandler } from "../../server/index.js";
import { webhookEventTypes } from "../../webhooks/index.js";
import { createUlidGenerator } from "./createUlidGenerator.js";
import { attemptLine, type EmulatorCounts, time } from "./emulatorLog.js";
import type { Inspector } from "./inspector/createInspector.js";

/**
 * The webhook a created event is delivered as: its own type when it is a webhook type, and
 * `s.message.delete` for `s.delete` (a deletion of a message, with the same content); `undefined`
 * for the types the service sends no webhook for.
 */
export function webhookTypeOf(type: string): string | undefined {
  if (type === "s.delete") return "s.message.delete";
  return (webhookEventTypes as readonly string[]).includes(type) ? type : undefined;
}

/** The room of a created event, when the request named one: `relationships.room.data.id`. */
function roomOf(relationships: unknown): string | undefined {
  const room = (relationships as { room?: { data?: { id?: unknown } } } | undefined)?.room?.data?.id;
  return typeof room === "string" ? room : undefined;
}

/** What the emulator's dispatcher is made from. */
export interface EmulatorDispatcherOptions {
  readonly webhookUrls: readonly string[];
  readonly secret: readonly string[];
  readonly webhookRetryDelaysMs: readonly number[] | undefined;
  readonly inspector: Inspector | undefined;
  readonly counts: EmulatorCounts;
  readonly log: (line: string) => void;
}

/**
 * The dispatcher that signs and delivers webhooks to every webhook URL (`endpoint-1`, `endpoint-2`…)
 * with its retries, counting and logging each attempt and each dead delivery, and telling the
 * inspector of them; `undefined` without a webhook URL or a secret.
 */
export function createEmulatorDispatcher(options: EmulatorDispatcherOptions): WebhookDispatcher | undefined {
  const { inspector, counts, log } = options;
  if (options.webhookUrls.length === 0 || options.secret.length === 0) return undefined;
  return createWebhookDispatcher({
    endpoints: options.webhookUrls.map((url, index) => ({
      id: `endpoint-${index + 1}`,
      url,
      secret: options.secret,
    })),
    // A local development tool sending where its user said: their receiver is on this machine
    // or their network, so no destination is refused.
    destinations: { allow: ["0.0.0.0/0", "::/0"] },
    ...(options.webhookRetryDelaysMs === undefined
      ? {}
      : { retry: { delaysMs: options.webhookRetryDelaysMs } }),
    ...(inspector === undefined ? {} : { queue: inspector.queue }),
    onAttempt: (attempt) => {
      counts.attempts++;
      if (attempt.outcome === "delivered") counts.delivered++;
      log(`${time()} ${attemptLine(attempt)}`);
      inspector?.recordAttempt(attempt);
    },
    onDead: (delivery) => {
      counts.dead++;
      log(`${time()} webhook delivery=${delivery.id} is dead: no more retries`);
      inspector?.recordDead(delivery);
    },
  });
}

/** What the emulator's events handler is made from. */
export interface EmulatorHandlerOptions {
  /** The only `Authorization` value accepted; any non-empty one when absent. */
  readonly authorization: string | undefined;
  readonly dispatcher: WebhookDispatcher | undefined;
  readonly inspector: Inspector | undefined;
  readonly log: (line: string) => void;
}

/**
 * The handler of `POST /events`: the library's idempotent handler with a memory store, CORS for any
 * origin, ULID ids, callers named by a digest of their credentials, and each created event of a
 * webhook type dispatched (its deliveries linked in the inspector).
 */
export function createEmulatorHandler(options: EmulatorHandlerOptions): EventsHandler {
  const { dispatcher, inspector, log } = options;
  const nextId = createUlidGenerator();
  const principals = new Map<string, string>();
  return createEventsHandler({
    store: createMemoryIdempotencyStore(),
    // The emulator binds to loopback by default: pages on any origin (a dev server) may call it.
    cors: { origins: ["*"] },
    async authorize(request) {
      const credentials = request.headers.get("authorization");
      if (credentials === null || credentials.trim() === "") return null;
      if (options.authorization !== undefined && credentials !== options.authorization) return null;
      // Keys are scoped per caller; the caller is named by a digest, never by its credentials.
      let principal = principals.get(credentials);
      if (principal === undefined) {
        principal = (await digestHex("SHA-256", credentials)).slice(0, 16);
        if (principals.size < 10_000) principals.set(credentials, principal);
      }
      return principal;
    },
    async create({ event, document }) {
      const id = nextId();
      const type = webhookTypeOf(event.type);
      if (dispatcher !== undefined && type !== undefined) {
        const roomId = roomOf(document.data.relationships);
        const input = {
          event: { type, content: event.content },
          ...(roomId === undefined ? {} : { roomId }),
        } as unknown as DispatchInput;
        try {
          const { deliveries } = await dispatcher.dispatch(input);
          inspector?.linkDeliveries(id, deliveries);
          log(`${time()} webhook ${type} id=${id}: ${deliveries.length} deliveries queued`);
        } catch (error) {
          log(
            `${time()} webhook ${type} id=${id} not dispatched: ${quote(String((error as Error)?.message), 120)}`,
          );
        }
      }
      return { id };
    },
  });
}
