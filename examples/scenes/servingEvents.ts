/**
 * The demo's "serving events" scene: `createEventsHandler` with the memory store, behind
 * `createNodeListener` on a loopback node:http server, answering a create, a replay, the same key
 * while the first request is still in flight, and the same key with a different document.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createEventDocument,
  createEventsClient,
  JSON_API_MEDIA_TYPE,
  withIdempotencyKey,
} from "messaging-events";
import {
  createEventsHandler,
  createMemoryIdempotencyStore,
  createNodeListener,
} from "messaging-events/server";
import type { Expect } from "./Expect.js";

const AUTHORIZATION = "Bearer demo-token";
const MAX_SHOWN = 400;

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
}

interface ErrorDocument {
  readonly errors?: readonly {
    readonly code?: string;
    readonly detail?: string;
    readonly source?: { readonly pointer?: string };
  }[];
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const shown = (body: string) => (body.length > MAX_SHOWN ? `${body.slice(0, MAX_SHOWN)}…` : body);
const times = (n: number) => `${n} ${n === 1 ? "time" : "times"}`;
const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((byte, i) => byte === b[i]);

async function answerOf(response: Response): Promise<Answer> {
  return {
    status: response.status,
    headers: response.headers,
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

function firstError(answer: Answer) {
  try {
    return (JSON.parse(text(answer.bytes)) as ErrorDocument).errors?.[0];
  } catch {
    return undefined;
  }
}

/** Runs the scene, printing each exchange; `expect` records what did not behave as shown. */
export async function servingEvents(expect: Expect): Promise<void> {
  let calls = 0;
  let entered: () => void = () => undefined;
  let release: () => void = () => undefined;
  const slowEntered = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const slowReleased = new Promise<void>((resolve) => {
    release = resolve;
  });

  const store = createMemoryIdempotencyStore({ maxEntries: 1_000 });
  let base = "";
  const handler = createEventsHandler({
    store,
    authorize: (request) => (request.headers.get("authorization") === AUTHORIZATION ? "demo-tenant" : null),
    create: async ({ idempotencyKey }) => {
      calls += 1;
      const id = `evt-${String(calls).padStart(4, "0")}`;
      if (idempotencyKey === "demo-slow-7") {
        // Slow on purpose: the request stays in flight until the demo has sent the same key again.
        entered();
        await slowReleased;
      }
      return { id };
    },
    location: (id) => `${base}/events/${id}`,
  });
  const server = createServer(createNodeListener(handler));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const post = async (document: unknown, key: string) => {
    const { document: body, headers } = withIdempotencyKey(
      document as Parameters<typeof withIdempotencyKey>[0],
      key,
    );
    const response = await fetch(`${base}/events`, {
      method: "POST",
      headers: {
        Authorization: AUTHORIZATION,
        "Content-Type": JSON_API_MEDIA_TYPE,
        Accept: JSON_API_MEDIA_TYPE,
        ...headers,
      },
      body: JSON.stringify(body),
    });
    return answerOf(response);
  };

  try {
    console.log(
      `\nServing events: createEventsHandler (memory store) behind createNodeListener on ${base}/events`,
    );

    // 1. A create through the library's client, recording the exact request and response bytes.
    let sent: { url: string; init: RequestInit } | undefined;
    let first: Answer | undefined;
    const client = createEventsClient({
      baseUrl: base,
      authorization: AUTHORIZATION,
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        sent = { url, init: { ...init, signal: null } };
        first = await answerOf(response.clone());
        return response;
      },
    });
    console.log('\n  1. createEventsClient creates an event with idempotency key "demo-order-42"');
    const { data: created, replayed } = await client.createEvent(
      { type: "s.message.text", content: { body: "Hello from the demo" } },
      { idempotencyKey: "demo-order-42" },
    );
    console.log(
      `     <- ${first?.status} Created, Location: ${first?.headers.get("location")}; create() called ${times(calls)}`,
    );
    console.log(`     <- ${shown(text(first?.bytes ?? new Uint8Array()))}`);
    console.log(
      `     client resolved to event ${created.id}: "${created.attributes.content.body}", replayed: ${replayed}`,
    );
    expect(first?.status === 201, "the first create answers 201");
    expect(!replayed, "the first create is not a replay");
    expect(created.id === "evt-0001" && calls === 1, "the first create runs create() once (evt-0001)");

    // 2. The very same request again: the stored response, byte for byte.
    console.log("\n  2. The same request again (a retry after a lost response)");
    const replay = sent === undefined ? undefined : await answerOf(await fetch(sent.url, sent.init));
    const identical = first !== undefined && replay !== undefined && sameBytes(first.bytes, replay.bytes);
    console.log(
      `     <- ${replay?.status} Created, Idempotent-Replayed: ${replay?.headers.get("idempotent-replayed")}, body ${
        identical ? `byte-identical to the first (${replay?.bytes.length} bytes)` : "DIFFERENT from the first"
      }; create() still called ${times(calls)}`,
    );
    expect(replay?.status === 201, "the replay answers 201");
    expect(
      replay?.headers.get("idempotent-replayed") === "true",
      "the replay says Idempotent-Replayed: true",
    );
    expect(identical, "the replay is byte-identical to the first response");
    expect(
      replay?.headers.get("location") === first?.headers.get("location"),
      "the replay keeps the Location header",
    );
    expect(calls === 1, "the replay does not call create() again");

    // 3. The same key while the first request with it is still in flight.
    const slowDocument = createEventDocument({ type: "s.message.text", content: { body: "Slow to store" } });
    console.log('\n  3. Key "demo-slow-7": create() is slow, and the same request comes again meanwhile');
    const pending = post(slowDocument, "demo-slow-7");
    await slowEntered;
    const conflict = await post(slowDocument, "demo-slow-7");
    const conflictError = firstError(conflict);
    console.log(
      `     second <- ${conflict.status} ${conflictError?.code}, Retry-After: ${conflict.headers.get("retry-after")}: ${conflictError?.detail}`,
    );
    release();
    const slow = await pending;
    console.log(
      `     first  <- ${slow.status} ${slow.headers.get("location")} once create() finished; create() called ${times(calls)}`,
    );
    expect(conflict.status === 409, "the same key in flight answers 409");
    expect(
      conflictError?.code === "ERR_IDEMPOTENCY_KEY_IN_FLIGHT",
      "the 409 has code ERR_IDEMPOTENCY_KEY_IN_FLIGHT",
    );
    expect(conflict.headers.get("retry-after") !== null, "the 409 carries Retry-After");
    expect(slow.status === 201 && calls === 2, "the slow request completes once (evt-0002)");

    // 4. The first key again, with a different document.
    console.log('\n  4. Key "demo-order-42" again, with a different document');
    const reused = await post(
      createEventDocument({ type: "s.message.text", content: { body: "Something else entirely" } }),
      "demo-order-42",
    );
    const reusedError = firstError(reused);
    console.log(
      `     <- ${reused.status} ${reusedError?.code} at ${reusedError?.source?.pointer}: ${reusedError?.detail}`,
    );
    console.log(`     create() called ${times(calls)} in all: one per (principal, key)`);
    expect(reused.status === 422, "the reused key answers 422");
    expect(reusedError?.code === "ERR_IDEMPOTENCY_KEY_REUSED", "the 422 has code ERR_IDEMPOTENCY_KEY_REUSED");
    expect(calls === 2, "create() ran exactly twice in the scene");
  } finally {
    release();
    server.close();
    server.closeAllConnections();
    await once(server, "close");
    await handler.close();
    await store.close();
  }
}
