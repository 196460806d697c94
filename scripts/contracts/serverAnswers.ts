/**
 * What the server kit answers `POST /events`, status by status, captured from the real handler
 * (`createEventsHandler` with the memory store) at build time: the OpenAPI document shows these
 * bodies and headers as its examples, so they are the library's own bytes, never a copy that could
 * drift. The handler runs with its defaults; the two time-outs are shortened to one second so the
 * 408 and the timed-out create take a second, not half a minute.
 */
import { createEventDocument } from "../../src/jsonapi/index.js";
import {
  createEventsHandler,
  createMemoryIdempotencyStore,
  type IdempotencyStore,
  IdempotencyStoreError,
} from "../../src/server/index.js";
import { eventExamples } from "./eventExamples.js";

/** One answer of the handler, with what provoked it. */
export interface ServerAnswer {
  /** What the request did, in a few words (the example's summary). */
  readonly summary: string;
  readonly status: number;
  /** The stable code of the first error, for an error. */
  readonly code: string | undefined;
  /** The response headers that a client reads (content-type, location, retry-after, …). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body, parsed. */
  readonly body: unknown;
}

const MEDIA_TYPE = "application/vnd.api+json";
const BASE = "https://api.example.com";
export const EXAMPLE_EVENT_ID = "01JDA3W9Q4C8K2M5N7P0R3S6T9";
const KEY = "7f9c2ba4-e88f-4c1d-9b3a-5d1e0c6a4f21";

type Failure = "quota" | "store" | "throw" | "hang" | undefined;

/** A memory store whose `claim` fails when told to. */
function storeFailing(failure: () => Failure): IdempotencyStore {
  const store = createMemoryIdempotencyStore();
  return {
    claim(claim) {
      const now = failure();
      if (now === "quota")
        return Promise.reject(new IdempotencyStoreError("ERR_IDEMPOTENCY_QUOTA_EXCEEDED", "quota"));
      if (now === "store")
        return Promise.reject(new IdempotencyStoreError("ERR_IDEMPOTENCY_STORE_UNAVAILABLE", "down"));
      return store.claim(claim);
    },
    extend: (ref, leaseMs) => store.extend(ref, leaseMs),
    complete: (ref, response, retentionMs) => store.complete(ref, response, retentionMs),
    release: (ref) => store.release(ref),
    close: () => store.close(),
  };
}

const shownHeaders = ["content-type", "location", "idempotent-replayed", "retry-after", "www-authenticate"];

async function answerOf(summary: string, response: Response): Promise<ServerAnswer> {
  const headers: Record<string, string> = {};
  for (const name of shownHeaders) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const body: unknown = JSON.parse(await response.text());
  const errors = (body as { errors?: { code?: string }[] }).errors;
  return { summary, status: response.status, code: errors?.[0]?.code, headers, body };
}

/** A body that sends its first byte and then nothing, as a client that stalls does. */
function stalledBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("{"));
    },
  });
}

/** Every answer of the handler to `POST /events`, in the order of their statuses. */
export async function serverAnswers(): Promise<ServerAnswer[]> {
  let failure: Failure;
  let releaseCreate: (() => void) | undefined;
  const handler = createEventsHandler({
    authorize: (request) =>
      request.headers.get("authorization") === "Bearer example-token" ? "tenant-1" : null,
    create: async ({ signal }) => {
      const now = failure;
      if (now === "throw") throw new Error("the database is down");
      if (now === "hang") {
        await new Promise<void>((resolve) => {
          releaseCreate = resolve;
          signal.addEventListener("abort", () => resolve(), { once: true });
        });
      }
      return { id: EXAMPLE_EVENT_ID };
    },
    store: storeFailing(() => failure),
    location: (id) => `${BASE}/events/${id}`,
    bodyTimeoutMs: 1_000,
    createTimeoutMs: 1_000,
  });
  const text = eventExamples.find((example) => example.name === "s.message.text")!;
  /** The example text message as a request document, with `key` in its meta, and other content if given. */
  const documentWith = (key: string | undefined, content?: unknown): string => {
    const built = JSON.parse(
      JSON.stringify(
        createEventDocument({
          ...text.event,
          relationships: { room: { data: { type: "rooms", id: "room-9c2e71" } } },
          ...(key === undefined ? {} : { idempotencyKey: key }),
        }),
      ),
    ) as { data: { attributes: Record<string, unknown> } };
    if (content !== undefined) built.data.attributes.content = content;
    return JSON.stringify(built);
  };
  const headersWith = (key: string | undefined, extra: Record<string, string> = {}) => ({
    authorization: "Bearer example-token",
    "content-type": MEDIA_TYPE,
    accept: MEDIA_TYPE,
    ...(key === undefined ? {} : { "service-idempotency-key": key }),
    ...extra,
  });
  /** A create with `key` in the header and the document (unless told otherwise). */
  const post = (
    key: string | undefined,
    init: { headers?: Record<string, string>; body?: string | ReadableStream<Uint8Array> } = {},
  ) =>
    handler(
      new Request(`${BASE}/events`, {
        method: "POST",
        headers: init.headers ?? headersWith(key),
        body: init.body ?? documentWith(key),
        ...(init.body instanceof ReadableStream ? { duplex: "half" } : {}),
      } as RequestInit),
    );

  const answers: ServerAnswer[] = [];
  const add = async (summary: string, response: Response | Promise<Response>) => {
    answers.push(await answerOf(summary, await response));
  };
  try {
    await add("Created", post(KEY));
    await add("A retry with the same key and document: the stored answer, replayed", post(KEY));
    await add("The body is not JSON", post(undefined, { body: "{not json" }));
    await add(
      "The key in Service-Idempotency-Key differs from the one in data.meta",
      post(KEY, { headers: headersWith("order-42") }),
    );
    await add(
      "An idempotency key with a comma (or a repeated header)",
      post(undefined, { headers: headersWith("order-1,order-2") }),
    );
    await add(
      "No credentials, or credentials the server refuses",
      post(KEY, { headers: headersWith(KEY, { authorization: "Bearer expired" }) }),
    );
    await add(
      "Accept excludes the JSON:API media type",
      post(KEY, { headers: headersWith(KEY, { accept: "text/html" }) }),
    );
    // Both time-outs at once, each waiting its second.
    failure = "hang";
    const [stalled, timedOut] = await Promise.all([
      post(undefined, { body: stalledBody() }),
      post("order-timeout"),
    ]);
    await add("The body did not arrive in full in time", stalled);
    // While a create with a key is under way, the same key again.
    releaseCreate = undefined;
    const first = post("order-in-flight");
    while (releaseCreate === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
    await add("The same key while the first request is still being created", post("order-in-flight"));
    failure = undefined;
    (releaseCreate as () => void)();
    await first;
    await add(
      "The body is longer than maxBodyBytes (1 MiB by default)",
      post(undefined, { body: `{"padding":"${"x".repeat(1024 * 1024)}"}` }),
    );
    await add(
      "Content-Type is not the JSON:API media type",
      post(KEY, { headers: headersWith(KEY, { "content-type": "application/json" }) }),
    );
    await add(
      "Invalid content: one error per problem, with a pointer into the document",
      post(undefined, { body: documentWith(undefined, { body: 42, format: "x".repeat(101) }) }),
    );
    await add(
      "The same key with another document",
      post(KEY, { body: documentWith(KEY, { body: "Another message" }) }),
    );
    failure = "quota";
    await add(
      "This caller's share of the idempotency store is taken by its unfinished requests",
      post("order-quota"),
    );
    failure = "throw";
    await add("create failed (nothing of its error is shown)", post("order-fails"));
    failure = "store";
    await add("The idempotency store failed or did not answer in time", post("order-store"));
    failure = undefined;
    await add("create ran past createTimeoutMs: its key is free again", timedOut);
  } finally {
    await handler.close({ timeoutMs: 1_000 });
  }
  return answers.sort((a, b) => a.status - b.status);
}
