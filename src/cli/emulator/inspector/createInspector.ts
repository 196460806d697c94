import type { IncomingMessage, ServerResponse } from "node:http";
import {
  createMemoryDeliveryQueue,
  type DeadDelivery,
  type DeliveryAttempt,
  type MemoryDeliveryQueue,
  type QueuedDelivery,
} from "../../../dispatch/index.js";
import { DEFAULT_EVENT_ATTRIBUTE_NAMES, JSON_API_MEDIA_TYPE } from "../../../jsonapi/index.js";
import { signWebhook } from "../../../webhooks/signWebhook.js";
import { createInspectorHistory } from "./createInspectorHistory.js";
import type { AttemptRecord, DeliveryRecord, InspectorLimits, RequestRecord } from "./InspectorRecord.js";
import { handleInspectorRequest } from "./inspectorRoutes.js";
import { keepText, readKeptText } from "./keepText.js";
import { apiErrorsOf, eventOf, keptHeaders } from "./keptRequest.js";

/** How the inspector is set up; {@link INSPECTOR_DEFAULTS} holds the defaults. */
export interface InspectorOptions {
  /** The most records kept (requests and deliveries), the newest; `INSPECTOR_DEFAULTS.historyBytes` bounds their bytes too. */
  readonly historySize: number;
  /** The address the emulator listens on (`--host`): the one host name, besides IP addresses and `localhost`, the inspector answers to. */
  readonly host: string;
  /** The webhook endpoints, by id: where each delivery goes. */
  readonly endpoints: ReadonlyMap<string, string>;
  /** The signing secrets, newest first: the first signs (to show each attempt's signature). */
  readonly secret: readonly string[];
  /** The `Authorization` value the emulator accepts, if one only: what the page's form sends with. */
  readonly authorization: string | undefined;
}

/** The bounds of what the inspector keeps, in one place. */
export const INSPECTOR_DEFAULTS = {
  /** Records kept: `serve --inspector-history`. */
  historySize: 1000,
  /**
   * Bytes the records kept take in all (each the UTF-8 length of its JSON), whatever their count:
   * the oldest fall out past it. It bounds the emulator's memory for the history and the snapshot
   * each page receives; one record (its documents cut at `bodyBytes`, `attempts` attempts) is far
   * smaller, so the newest always fits.
   */
  historyBytes: 16 * 1024 * 1024,
  /** UTF-8 bytes kept of each document, payload and answer. */
  bodyBytes: 16 * 1024,
  /** Attempts kept per delivery. */
  attempts: 50,
  /** Payload bytes held for "Redeliver", across deliveries (the oldest let go first). */
  heldPayloadBytes: 32 * 1024 * 1024,
  /** The largest request the page may make (a form's event). */
  actionBytes: 1024 * 1024,
} as const;

/** What the inspector answers to an action: a status and a JSON body. */
export interface ActionAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** The inspector of one emulator: it records, serves the page, and acts for it. */
export interface Inspector {
  /** Wraps the emulator's handler so that each request and its answer is recorded; the page's form sends through it too. */
  observeRequests(handler: (request: Request) => Promise<Response>): (request: Request) => Promise<Response>;
  /** The delivery queue for the emulator's dispatcher: a memory queue whose deliveries are recorded. */
  readonly queue: MemoryDeliveryQueue;
  /** Links deliveries to the created event they deliver. */
  linkDeliveries(eventId: string, deliveries: readonly { id: string; endpointId: string }[]): void;
  /** Records one attempt (the dispatcher's `onAttempt`). */
  recordAttempt(attempt: DeliveryAttempt): void;
  /** Records a dead delivery (the dispatcher's `onDead`). */
  recordDead(delivery: DeadDelivery): void;
  /** Whether a path is the inspector's. */
  owns(path: string): boolean;
  /** Answers a request for the inspector's page, files, stream or actions. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Ends the event streams (the emulator is closing). */
  endStreams(): void;
  /** Closes the delivery queue, after the dispatcher has closed. */
  close(): Promise<void>;
}

/** An endpoint URL as shown: without user name or password. */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.href;
  } catch {
    return "";
  }
}

/** Creates the inspector of an emulator. */
export function createInspector(options: InspectorOptions): Inspector {
  const limits: InspectorLimits = {
    historySize: options.historySize,
    historyBytes: INSPECTOR_DEFAULTS.historyBytes,
    bodyBytes: INSPECTOR_DEFAULTS.bodyBytes,
    attempts: INSPECTOR_DEFAULTS.attempts,
  };
  const history = createInspectorHistory(limits);
  const memoryQueue = createMemoryDeliveryQueue();
  /** Each delivery's payload (for signatures and redelivery), oldest first, within `heldPayloadBytes`. */
  const held = new Map<string, QueuedDelivery>();
  let heldBytes = 0;
  /** Deliveries whose next attempt was asked for by "Redeliver". */
  const redelivering = new Set<string>();
  /** The deliveries of each created event, for its request's record. */
  const eventDeliveries = new Map<string, { id: string; endpointId: string }[]>();
  /** Requests the page's form sent. */
  const fromPage = new WeakSet<Request>();
  let requests = 0;
  let sendThrough: ((request: Request) => Promise<Response>) | undefined;
  // Attempts are recorded in the order they come, each after its signature is computed.
  let recording: Promise<void> = Promise.resolve();

  const hold = (delivery: QueuedDelivery) => {
    if (held.has(delivery.id)) return;
    held.set(delivery.id, delivery);
    heldBytes += delivery.body.length * 2;
    while (heldBytes > INSPECTOR_DEFAULTS.heldPayloadBytes && held.size > 1) {
      const [id, oldest] = held.entries().next().value as [string, QueuedDelivery];
      held.delete(id);
      heldBytes -= oldest.body.length * 2;
      const record = history.get(`d:${id}`);
      if (record?.kind === "delivery") history.put({ ...record, redeliverable: false });
    }
  };
  const letGo = (id: string) => {
    const delivery = held.get(id);
    if (delivery === undefined) return;
    held.delete(id);
    heldBytes -= delivery.body.length * 2;
  };
  history.onEvict((record) => {
    if (record.kind === "delivery") letGo(record.deliveryId);
    else if (record.eventId !== undefined) eventDeliveries.delete(record.eventId);
  });

  const deliveryRecord = (delivery: QueuedDelivery): DeliveryRecord => ({
    kind: "delivery",
    id: `d:${delivery.id}`,
    at: delivery.createdAt,
    deliveryId: delivery.id,
    eventId: undefined,
    endpointId: delivery.endpointId,
    url: shownUrl(options.endpoints.get(delivery.endpointId) ?? ""),
    type: delivery.type,
    body: keepText(delivery.body, limits.bodyBytes),
    state: "queued",
    nextRetryAt: undefined,
    deadReason: undefined,
    redeliverable: true,
    attempts: [],
    omittedAttempts: 0,
  });

  /** The record of a delivery, made anew from its payload when it fell out of the history. */
  const recordOf = (deliveryId: string): DeliveryRecord | undefined => {
    const record = history.get(`d:${deliveryId}`);
    if (record?.kind === "delivery") return record;
    const delivery = held.get(deliveryId);
    return delivery === undefined ? undefined : deliveryRecord(delivery);
  };

  const queue: MemoryDeliveryQueue = {
    ...memoryQueue,
    async add(deliveries) {
      await memoryQueue.add(deliveries);
      for (const delivery of deliveries) {
        if (history.get(`d:${delivery.id}`) !== undefined) continue;
        hold(delivery);
        history.put(deliveryRecord(delivery));
      }
    },
  };

  const signatureOf = async (deliveryId: string, timestamp: string): Promise<string> => {
    const delivery = held.get(deliveryId);
    if (timestamp === "" || delivery === undefined || options.secret.length === 0) return "";
    try {
      const signed = await signWebhook({ payload: delivery.body, secret: options.secret, timestamp });
      return signed.headers["service-signature"];
    } catch {
      return "";
    }
  };

  const applyAttempt = async (attempt: DeliveryAttempt) => {
    const signature = await signatureOf(attempt.deliveryId, attempt.timestamp);
    const record = recordOf(attempt.deliveryId);
    if (record === undefined) return;
    const redelivery = redelivering.delete(attempt.deliveryId);
    const entry: AttemptRecord = {
      number: record.omittedAttempts + record.attempts.length + 1,
      at: Date.now(),
      timestamp: attempt.timestamp,
      signature,
      status: attempt.status,
      durationMs: Math.round(attempt.durationMs),
      response: attempt.response?.body,
      outcome: attempt.outcome,
      reason: attempt.reason,
      retryAt: attempt.retryAt,
      redelivery,
    };
    const attempts = [...record.attempts, entry];
    const dropped = Math.max(0, attempts.length - limits.attempts);
    history.put({
      ...record,
      state:
        attempt.outcome === "delivered" ? "delivered" : attempt.outcome === "retry" ? "retrying" : "dead",
      nextRetryAt: attempt.outcome === "retry" ? attempt.retryAt : undefined,
      deadReason: attempt.outcome === "dead" ? attempt.reason : undefined,
      attempts: attempts.slice(dropped),
      omittedAttempts: record.omittedAttempts + dropped,
    });
  };

  const recordRequest = async (
    request: Request,
    kept: Promise<RequestRecord["request"]>,
    response: Response,
    at: number,
    started: number,
  ) => {
    const durationMs = Math.round(performance.now() - started);
    const answer = await readKeptText(response.clone().body, limits.bodyBytes);
    const sent = await kept;
    const { type, id } = eventOf(sent, answer);
    const path = new URL(request.url).pathname;
    history.put({
      kind: "request",
      id: `r${++requests}`,
      at,
      method: request.method,
      path: path.length > 200 ? `${path.slice(0, 200)}…` : path,
      status: response.status,
      durationMs,
      idempotencyKey: request.headers.get("service-idempotency-key")?.slice(0, 300) ?? undefined,
      replayed: response.headers.get("idempotent-replayed") === "true",
      eventType: type,
      eventId: id,
      source: fromPage.has(request) ? "inspector" : "client",
      headers: keptHeaders(request.headers),
      request: sent,
      response: answer,
      errors: response.status >= 400 ? apiErrorsOf(answer) : [],
      deliveries: id === undefined ? [] : (eventDeliveries.get(id) ?? []),
    });
  };

  /** The page's form: one event through the emulator's own handler, as a client would send it. */
  const send = async (input: unknown, host: string): Promise<ActionAnswer> => {
    const { type, content, roomId } = (typeof input === "object" && input !== null ? input : {}) as Record<
      string,
      unknown
    >;
    if (
      typeof type !== "string" ||
      content === undefined ||
      (roomId !== undefined && typeof roomId !== "string")
    )
      return { status: 400, body: { error: "send { type, content, roomId? }" } };
    if (sendThrough === undefined) return { status: 503, body: { error: "the emulator is not ready" } };
    const document = {
      data: {
        type: "events",
        attributes: {
          [DEFAULT_EVENT_ATTRIBUTE_NAMES.eventType]: type,
          [DEFAULT_EVENT_ATTRIBUTE_NAMES.content]: content,
        },
        ...(roomId === undefined || roomId === ""
          ? {}
          : { relationships: { room: { data: { type: "rooms", id: roomId } } } }),
      },
    };
    const request = new Request(`http://${host}/events`, {
      method: "POST",
      headers: {
        "content-type": JSON_API_MEDIA_TYPE,
        accept: JSON_API_MEDIA_TYPE,
        authorization: options.authorization ?? "Bearer inspector",
        "service-idempotency-key": crypto.randomUUID(),
      },
      body: JSON.stringify(document),
    });
    fromPage.add(request);
    const response = await sendThrough(request);
    const text = await response.text();
    return { status: 200, body: { status: response.status, body: keepText(text, limits.bodyBytes) } };
  };

  /** "Redeliver": a new attempt of a delivery, signed afresh, with the same `service-webhook-id`. */
  const redeliver = async (input: unknown): Promise<ActionAnswer> => {
    const deliveryId = (input as { deliveryId?: unknown } | null)?.deliveryId;
    const record = typeof deliveryId === "string" ? recordOf(deliveryId) : undefined;
    if (typeof deliveryId !== "string" || record === undefined)
      return { status: 404, body: { error: "no such delivery in the history" } };
    const delivery = held.get(deliveryId);
    if (delivery === undefined)
      return { status: 410, body: { error: "the payload of this delivery is no longer held" } };
    if (record.state === "queued" || record.state === "retrying")
      return { status: 409, body: { error: "this delivery is already waiting for its next attempt" } };
    redelivering.add(deliveryId);
    const replayed = record.state === "dead" && (await memoryQueue.replay(deliveryId));
    if (!replayed) await memoryQueue.add([delivery]);
    history.put({ ...record, state: "queued", nextRetryAt: undefined, deadReason: undefined });
    return { status: 202, body: { deliveryId } };
  };

  const routes = handleInspectorRequest({
    history,
    host: options.host,
    maxActionBytes: INSPECTOR_DEFAULTS.actionBytes,
    actions: { send, redeliver },
  });

  return {
    observeRequests(handler) {
      const observed = async (request: Request): Promise<Response> => {
        if (request.method === "OPTIONS") return handler(request);
        const at = Date.now();
        const started = performance.now();
        let answered: () => void = () => {};
        const stop = new Promise<void>((resolve) => {
          answered = resolve;
        });
        let copy: ReadableStream<Uint8Array> | null = null;
        try {
          copy = request.clone().body;
        } catch {
          // A body already used: nothing to keep.
        }
        const kept = readKeptText(copy, limits.bodyBytes, stop);
        const response = await handler(request);
        // A body still arriving after the answer is not waited for long.
        setTimeout(answered, 200).unref?.();
        recordRequest(request, kept, response, at, started).catch(() => undefined);
        return response;
      };
      sendThrough = observed;
      return observed;
    },
    queue,
    linkDeliveries(eventId, deliveries) {
      eventDeliveries.set(eventId, [...deliveries]);
      for (const { id } of deliveries) {
        const record = history.get(`d:${id}`);
        if (record?.kind === "delivery") history.put({ ...record, eventId });
      }
    },
    recordAttempt(attempt) {
      recording = recording.then(() => applyAttempt(attempt)).catch(() => undefined);
    },
    recordDead(dead) {
      recording = recording
        .then(() => {
          const record = recordOf(dead.id);
          if (record !== undefined && record.state !== "dead")
            history.put({ ...record, state: "dead", nextRetryAt: undefined, deadReason: dead.reason });
        })
        .catch(() => undefined);
    },
    owns: routes.owns,
    handle: routes.handle,
    endStreams: routes.endStreams,
    async close() {
      routes.endStreams();
      await memoryQueue.close();
    },
  };
}
