/**
 * The webhook receiver through its three entry points, `fetch(Request)`, `receive({ body, headers })`
 * and `node(req, res)` on a real node:http server on 127.0.0.1: one table row per way a webhook is
 * answered, then the handlers, the lease, close(), the one time window, onError and hostile input.
 */
import { once } from "node:events";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createMemoryIdempotencyStore, type IdempotencyStore } from "../server/index.js";
import {
  createWebhookReceiver,
  signWebhook,
  WEBHOOK_ID_HEADER,
  type WebhookBody,
  type WebhookContext,
  type WebhookErrorContext,
  type WebhookHandlers,
  type WebhookPayload,
  type WebhookReceiver,
  type WebhookReceiverOptions,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
  webhookEventTypes,
} from "./index.js";

const secret = "whsec_receiver";
const text = { type: "s.message.text", version: 2, content: { body: "Hello" }, roomId: "room-1" };

interface Parts {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

let deliveries = 0;
const newId = () => `delivery-${++deliveries}`;
let lastSigned = 0;

/**
 * A signed webhook with a new delivery id, the given one, or none (`id: null`). Each call signs at
 * a later millisecond, as every attempt of the sender does, so two calls never share a signature.
 */
async function signed(
  options: { id?: string | null; payload?: unknown; timestamp?: number; secret?: string } = {},
): Promise<Parts> {
  lastSigned = Math.max(Date.now(), lastSigned + 1);
  const { body, headers } = await signWebhook({
    payload: options.payload ?? text,
    secret: options.secret ?? secret,
    timestamp: options.timestamp ?? lastSigned,
  });
  const id = options.id === undefined ? newId() : options.id;
  return { body, headers: id === null ? headers : { ...headers, [WEBHOOK_ID_HEADER]: id } };
}

const withHeaders = (parts: Parts, headers: Record<string, string | undefined>): Parts => ({
  body: parts.body,
  headers: Object.fromEntries(
    Object.entries({ ...parts.headers, ...headers }).filter((entry): entry is [string, string] => !!entry[1]),
  ),
});

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Reported = readonly [WebhookVerificationError, WebhookErrorContext];

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** A receiver that records what its handler got and what onError was told. */
function setup(
  options: Partial<WebhookReceiverOptions> = {},
  handler?: (payload: WebhookPayload, context: WebhookContext) => unknown,
) {
  const handled: [WebhookPayload, WebhookContext][] = [];
  const errors: Reported[] = [];
  const receiver = createWebhookReceiver({
    secret,
    onAny: (payload, context) => {
      handled.push([payload, context]);
      return handler?.(payload, context);
    },
    onError: (error, context) => {
      errors.push([error, context]);
    },
    ...options,
  });
  receivers.push(receiver);
  return { receiver, handled, errors };
}

/** A memory store with some of its methods replaced. */
function storeWith(overrides: Partial<IdempotencyStore>, memory = createMemoryIdempotencyStore()) {
  const store: IdempotencyStore = {
    claim: (claim) => memory.claim(claim),
    extend: (ref, leaseMs) => memory.extend(ref, leaseMs),
    complete: (ref, response, retentionMs) => memory.complete(ref, response, retentionMs),
    release: (ref) => memory.release(ref),
    close: () => memory.close(),
    ...overrides,
  };
  return store;
}

// ——— the three entry points ———

type Entry = "fetch" | "receive" | "node";

interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The receipt's error (receive only). */
  readonly error?: WebhookVerificationError | undefined;
}

/** How the request is sent, where it differs from a plain signed POST. */
interface How {
  /** fetch, node: the body in 16-byte chunks, without Content-Length. */
  readonly chunked?: boolean;
  /** fetch, node: the first 10 bytes of the body, and then nothing, never the end. */
  readonly hold?: boolean;
  /** node: what ran before the listener: express.raw, express.json, or a parser that kept nothing. */
  readonly before?: "raw" | "parsed" | "consumed";
  /** receive: the body passed instead of the text. */
  readonly value?: unknown;
}

type Send = (receiver: WebhookReceiver, parts: Parts, how?: How) => Promise<Answer>;

/** A body stream of 16-byte chunks that ends, or (`end: false`) stops and never ends. */
function chunks(bytes: Uint8Array, end: boolean): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset < bytes.length) {
        controller.enqueue(bytes.slice(offset, offset + 16));
        offset += 16;
      } else if (end) controller.close();
      else return new Promise<void>(() => {});
    },
  });
}

const viaFetch: Send = async (receiver, parts, how = {}) => {
  const bytes = new TextEncoder().encode(parts.body);
  const body = how.hold ? chunks(bytes.slice(0, 10), false) : how.chunked ? chunks(bytes, true) : parts.body;
  const response = await receiver.fetch(
    new Request("http://127.0.0.1/hooks", {
      method: "POST",
      headers: parts.headers,
      body,
      duplex: "half",
    } as RequestInit),
  );
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers, body: await response.text() };
};

const viaReceive: Send = async (receiver, parts, how = {}) => {
  const body = ("value" in how ? how.value : parts.body) as WebhookBody;
  const receipt = await receiver.receive({ body, headers: parts.headers });
  return { status: receipt.status, headers: receipt.headers, body: receipt.body, error: receipt.error };
};

let listener: (req: IncomingMessage, res: ServerResponse) => void = () => {};
const server = createServer((req, res) => listener(req, res));
let port = 0;

beforeAll(async () => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const viaNode: Send = (receiver, parts, how = {}) => {
  listener = (req, res) => {
    if (how.before === undefined) {
      receiver.node(req, res);
      return;
    }
    // A body parser: it reads the stream, then leaves the bytes, an object or nothing in req.body.
    const read: Buffer[] = [];
    req.on("data", (chunk: Buffer) => read.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(read);
      if (how.before === "raw") Object.assign(req, { body: raw });
      if (how.before === "parsed") Object.assign(req, { body: JSON.parse(raw.toString("utf8")) });
      receiver.node(req, res);
    });
  };
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: "127.0.0.1", port, method: "POST", path: "/hooks", headers: parts.headers, agent: false },
      (response) => {
        const body: Buffer[] = [];
        response.on("data", (chunk: Buffer) => body.push(chunk));
        response.on("end", () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) headers[name] = String(value);
          resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(body).toString("utf8") });
          if (how.hold) request.destroy();
        });
      },
    );
    request.on("error", reject);
    const bytes = Buffer.from(parts.body);
    if (how.hold) request.write(bytes.subarray(0, 10));
    else if (how.chunked) {
      for (let i = 0; i < bytes.length; i += 16) request.write(bytes.subarray(i, i + 16));
      request.end();
    } else request.end(bytes);
  });
};

const senders: Record<Entry, Send> = { fetch: viaFetch, receive: viaReceive, node: viaNode };

// ——— the table ———

interface Expected {
  readonly status: number;
  readonly code?: WebhookVerificationErrorCode;
  /** The Retry-After header, where one is due. */
  readonly retryAfter?: string;
}

interface Row {
  readonly name: string;
  /** The entry points it applies to; all three when absent. */
  readonly entries?: readonly Entry[];
  readonly expected: Expected;
  /** Sends the row's requests; resolves to the answer to check and what onError was told. */
  run(send: Send): Promise<{ answer: Answer; errors: readonly Reported[] }>;
}

/** A row that sends one request to a receiver that records, and checks that no handler ran. */
const refused = (
  name: string,
  code: WebhookVerificationErrorCode,
  status: number,
  parts: () => Promise<Parts>,
  options: Partial<WebhookReceiverOptions> = {},
  how: How = {},
  entries?: readonly Entry[],
): Row => ({
  name,
  ...(entries === undefined ? {} : { entries }),
  expected: { status, code },
  async run(send) {
    const { receiver, handled, errors } = setup(options);
    const answer = await send(receiver, await parts(), how);
    expect(handled).toEqual([]);
    return { answer, errors };
  },
});

const HANDLER_SECRET = "password=hunter2";

const rows: readonly Row[] = [
  {
    name: "204: processed, the handler ran once",
    expected: { status: 204 },
    async run(send) {
      const { receiver, handled, errors } = setup();
      const answer = await send(receiver, await signed());
      expect(handled.map(([payload]) => payload)).toEqual([text]);
      return { answer, errors };
    },
  },
  {
    name: "204 again for a delivery id already processed, without running the handler",
    expected: { status: 204 },
    async run(send) {
      const { receiver, handled, errors } = setup();
      const id = newId();
      expect((await send(receiver, await signed({ id }))).status).toBe(204);
      const answer = await send(receiver, await signed({ id }));
      expect(handled).toHaveLength(1);
      return { answer, errors };
    },
  },
  refused("401: no service-signature header", "ERR_WEBHOOK_HEADER_MISSING", 401, async () =>
    withHeaders(await signed(), { "service-signature": undefined }),
  ),
  refused("401: signed with another secret", "ERR_WEBHOOK_SIGNATURE_MISMATCH", 401, () =>
    signed({ secret: "whsec_someone_else" }),
  ),
  refused("401: signed ten minutes ago", "ERR_WEBHOOK_TIMESTAMP_TOO_OLD", 401, () =>
    signed({ timestamp: Date.now() - 600_000 }),
  ),
  refused("401: a timestamp that is not RFC 3339", "ERR_WEBHOOK_TIMESTAMP_MALFORMED", 401, async () =>
    withHeaders(await signed(), { "service-timestamp": "yesterday" }),
  ),
  refused("401: a delivery id with a space", "ERR_WEBHOOK_ID_INVALID", 401, () =>
    signed({ id: "has space" }),
  ),
  refused("401: a delivery id of 257 characters", "ERR_WEBHOOK_ID_INVALID", 401, () =>
    signed({ id: "x".repeat(257) }),
  ),
  refused("401: a delivery id with a comma", "ERR_WEBHOOK_ID_INVALID", 401, () => signed({ id: "a,b" })),
  {
    name: "401: an exact replay of a request without a delivery id",
    expected: { status: 401, code: "ERR_WEBHOOK_REPLAYED" },
    async run(send) {
      const { receiver, handled, errors } = setup();
      const parts = await signed({ id: null });
      expect((await send(receiver, parts)).status).toBe(204);
      const answer = await send(receiver, parts);
      expect(handled).toHaveLength(1);
      return { answer, errors };
    },
  },
  refused("413: a body over maxBodyBytes", "ERR_WEBHOOK_BODY_TOO_LARGE", 413, () => signed(), {
    maxBodyBytes: 40,
  }),
  {
    // A body that never ends: reading it would take bodyTimeoutMs (30 s) and answer 408.
    name: "413: a Content-Length over maxBodyBytes, at once, before the body is read",
    entries: ["fetch", "node"],
    expected: { status: 413, code: "ERR_WEBHOOK_BODY_TOO_LARGE" },
    async run(send) {
      const { receiver, errors } = setup({ maxBodyBytes: 1_000 });
      const started = Date.now();
      const parts = withHeaders(await signed(), { "content-length": "10000000" });
      const answer = await send(receiver, parts, { hold: true });
      expect(Date.now() - started).toBeLessThan(2_000);
      return { answer, errors };
    },
  },
  refused(
    "413: a chunked body that goes past maxBodyBytes",
    "ERR_WEBHOOK_BODY_TOO_LARGE",
    413,
    () => signed(),
    { maxBodyBytes: 40 },
    { chunked: true },
    ["fetch", "node"],
  ),
  refused(
    "408: a body that never ends, past bodyTimeoutMs",
    "ERR_WEBHOOK_ABORTED",
    408,
    () => signed(),
    { bodyTimeoutMs: 100 },
    { hold: true },
    ["fetch", "node"],
  ),
  {
    name: "422: an authentic payload the service does not describe, with its issues",
    expected: { status: 422, code: "ERR_WEBHOOK_PAYLOAD_INVALID" },
    async run(send) {
      const { receiver, handled, errors } = setup();
      const answer = await send(receiver, await signed({ payload: { ...text, content: {} } }));
      expect(handled).toEqual([]);
      expect(errors[0]?.[0].issues).toEqual([expect.objectContaining({ pointer: "/content/body" })]);
      return { answer, errors };
    },
  },
  {
    name: "500: the handler threw; the sender's retry runs it again and succeeds",
    expected: { status: 500, code: "ERR_WEBHOOK_HANDLER_FAILED" },
    async run(send) {
      const thrown = new Error(HANDLER_SECRET);
      let calls = 0;
      const { receiver, errors } = setup({}, () => {
        if (++calls === 1) throw thrown;
      });
      const id = newId();
      const answer = await send(receiver, await signed({ id }));
      expect(errors[0]?.[0].cause).toBe(thrown);
      expect((await send(receiver, await signed({ id }))).status).toBe(204);
      expect(calls).toBe(2);
      expect((await send(receiver, await signed({ id }))).status).toBe(204);
      expect(calls).toBe(2);
      return { answer, errors };
    },
  },
  {
    name: "409 with Retry-After ceil(leaseMs / 1000) while the same delivery is being handled",
    expected: { status: 409, code: "ERR_WEBHOOK_IN_PROGRESS", retryAfter: "3" },
    async run(send) {
      const gate = deferred();
      const started = deferred();
      const { receiver, handled, errors } = setup({ leaseMs: 2_500 }, async () => {
        started.resolve();
        await gate.promise;
      });
      const id = newId();
      const first = send(receiver, await signed({ id }));
      await started.promise;
      const answer = await send(receiver, await signed({ id }));
      gate.resolve();
      expect((await first).status).toBe(204);
      expect(handled).toHaveLength(1);
      return { answer, errors };
    },
  },
  {
    name: "503 with Retry-After when the store rejects, its error as the cause",
    expected: { status: 503, code: "ERR_WEBHOOK_STORE_UNAVAILABLE", retryAfter: "1" },
    async run(send) {
      const down = new Error("ECONNREFUSED");
      const store = storeWith({ claim: () => Promise.reject(down) });
      const { receiver, handled, errors } = setup({ store });
      const answer = await send(receiver, await signed());
      expect(handled).toEqual([]);
      expect(errors[0]?.[0].cause).toBe(down);
      return { answer, errors };
    },
  },
  {
    name: "503 when the store does not answer within storeTimeoutMs; the claim that lands later is released",
    expected: { status: 503, code: "ERR_WEBHOOK_STORE_UNAVAILABLE", retryAfter: "1" },
    async run(send) {
      const memory = createMemoryIdempotencyStore();
      let land: (() => void) | undefined;
      const released = vi.fn();
      const store = storeWith(
        {
          claim(claim) {
            if (land !== undefined) return memory.claim(claim);
            const result = memory.claim(claim);
            return new Promise((resolve) => {
              land = () => resolve(result);
            });
          },
          release(ref) {
            released(ref);
            return memory.release(ref);
          },
        },
        memory,
      );
      const { receiver, handled, errors } = setup({ store, storeTimeoutMs: 50, leaseMs: 60_000 });
      const id = newId();
      const answer = await send(receiver, await signed({ id }));
      const reported = [...errors];
      // The claim the receiver gave up on holds the delivery until it lands...
      expect((await send(receiver, await signed({ id }))).status).toBe(409);
      land!();
      // ...and is then released, not left to hold it for a lease (60 s).
      await vi.waitFor(() => expect(released).toHaveBeenCalledTimes(1));
      expect((await send(receiver, await signed({ id }))).status).toBe(204);
      expect(handled).toHaveLength(1);
      return { answer, errors: reported };
    },
  },
  {
    name: "503 with Retry-After after close()",
    expected: { status: 503, code: "ERR_WEBHOOK_STORE_UNAVAILABLE", retryAfter: "1" },
    async run(send) {
      const { receiver, handled, errors } = setup();
      await receiver.close();
      const answer = await send(receiver, await signed());
      expect(handled).toEqual([]);
      return { answer, errors };
    },
  },
  {
    name: "500: a body parsed into an object (express.json) instead of the raw bytes",
    entries: ["receive", "node"],
    expected: { status: 500, code: "ERR_WEBHOOK_BODY_PARSED" },
    async run(send) {
      const { receiver, handled, errors } = setup();
      const parts = await signed();
      const answer = await send(receiver, parts, { before: "parsed", value: JSON.parse(parts.body) });
      expect(handled).toEqual([]);
      return { answer, errors };
    },
  },
  {
    name: "204: the raw bytes a middleware left in req.body (express.raw)",
    entries: ["node"],
    expected: { status: 204 },
    async run(send) {
      const { receiver, handled, errors } = setup();
      const answer = await send(receiver, await signed(), { before: "raw" });
      expect(handled).toHaveLength(1);
      return { answer, errors };
    },
  },
  {
    name: "500 at once, never a hang: a body stream a parser already read",
    entries: ["node"],
    expected: { status: 500, code: "ERR_WEBHOOK_BODY_USED" },
    async run(send) {
      const { receiver, handled, errors } = setup();
      const started = Date.now();
      const answer = await send(receiver, await signed(), { before: "consumed" });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(handled).toEqual([]);
      return { answer, errors };
    },
  },
];

describe.each<Entry>(["fetch", "receive", "node"])(
  "createWebhookReceiver: every answer, through %s",
  (entry) => {
    const applicable = rows.filter((row) => row.entries?.includes(entry) ?? true);
    it.each(applicable.map((row) => [row.name, row] as const))("%s", async (_name, row) => {
      const { answer, errors } = await row.run(senders[entry]);
      const { status, code, retryAfter } = row.expected;
      expect(answer.status).toBe(status);
      expect(answer.headers["retry-after"]).toBe(retryAfter);
      if (status === 204) {
        expect(answer.body).toBe("");
        expect(errors).toEqual([]);
        return;
      }
      expect(answer.headers["content-type"]).toBe("application/json");
      const body: unknown = JSON.parse(answer.body);
      expect(body).toEqual({ code, message: expect.any(String) });
      expect(answer.body).not.toContain(HANDLER_SECRET);
      // onError got the very error that chose the answer, and the status answered.
      expect(errors).toHaveLength(1);
      const [error, context] = errors[0]!;
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect(error).toMatchObject({ code, status });
      expect(context.status).toBe(status);
      expect((body as { message: string }).message).toBe(error.message);
      if (entry === "receive") expect(answer.error).toBe(error);
    });
  },
);

// ——— handlers ———

describe("createWebhookReceiver: handlers", () => {
  it("on[type] gets the payload of its type and the delivery's context", async () => {
    const seen: [unknown, WebhookContext][] = [];
    const receiver = createWebhookReceiver({
      secret,
      on: {
        "s.message.text": (payload, context) => {
          seen.push([payload.content.body, context]);
        },
      },
    });
    receivers.push(receiver);
    const timestamp = Date.now() - 5_000;
    const { body, headers } = await signWebhook({ payload: text, secret, timestamp, encoding: "hex" });
    const receipt = await receiver.receive({ body, headers: { ...headers, [WEBHOOK_ID_HEADER]: "evt_42" } });
    expect(receipt).toEqual({ status: 204, headers: {}, body: "", error: undefined });
    expect(seen).toHaveLength(1);
    const [content, context] = seen[0]!;
    expect(content).toBe("Hello");
    expect(context.deliveryId).toBe("evt_42");
    expect(context.timestamp).toEqual(new Date(timestamp));
    expect(context.signature).toBe(headers["service-signature"]);
    expect(context.signal).toBeInstanceOf(AbortSignal);
    expect(context.signal.aborted).toBe(false);
  });

  it("onAny handles the types without a handler of their own; a request without an id has deliveryId undefined", async () => {
    const byType: string[] = [];
    const byAny: [string, string | undefined][] = [];
    const receiver = createWebhookReceiver({
      secret,
      on: { "s.message.text": (payload) => void byType.push(payload.type) },
      onAny: (payload, context) => void byAny.push([payload.type, context.deliveryId]),
    });
    receivers.push(receiver);
    const close = { type: "s.room.close", version: 2, content: {} };
    for (const parts of [await signed(), await signed({ payload: close, id: null })]) {
      expect((await receiver.receive(parts)).status).toBe(204);
    }
    expect(byType).toEqual(["s.message.text"]);
    expect(byAny).toEqual([["s.room.close", undefined]]);
  });

  it("with no handler at all, a valid webhook is acknowledged 204", async () => {
    const receiver = createWebhookReceiver({ secret });
    receivers.push(receiver);
    expect((await receiver.receive(await signed())).status).toBe(204);
  });

  it("refuses at creation a handler for an unknown type, or one that is not a function, naming it", () => {
    expect(() => createWebhookReceiver({ secret, on: { "s.message.txt": () => {} } as never })).toThrow(
      TypeError,
    );
    expect(() => createWebhookReceiver({ secret, on: { "s.message.txt": () => {} } as never })).toThrow(
      /"s\.message\.txt", which is not a webhook type/,
    );
    expect(() => createWebhookReceiver({ secret, on: { "s.room.close": "handler" } as never })).toThrow(
      /on\["s\.room\.close"\] must be a function/,
    );
    expect(() => createWebhookReceiver({ secret, onAny: {} as never })).toThrow(/onAny must be a function/);
    // Every webhook type has a slot.
    const on = Object.fromEntries(webhookEventTypes.map((type) => [type, () => {}])) as WebhookHandlers;
    receivers.push(createWebhookReceiver({ secret, on }));
  });

  it.each<[string, Partial<WebhookReceiverOptions>, RegExp]>([
    ["leaseMs 0", { leaseMs: 0 }, /leaseMs must be a whole number/],
    ["toleranceMs -1", { toleranceMs: -1 }, /toleranceMs must be a whole number/],
    ["maxBodyBytes 1.5", { maxBodyBytes: 1.5 }, /maxBodyBytes must be a whole number/],
    ["bodyTimeoutMs 0", { bodyTimeoutMs: 0 }, /bodyTimeoutMs must be a whole number/],
    [
      "a store without extend",
      { store: { claim() {}, complete() {}, release() {}, close() {} } as never },
      /store must implement IdempotencyStore/,
    ],
    ["onError that is not a function", { onError: "log" as never }, /onError must be a function/],
  ])("refuses at creation %s with a TypeError naming it", (_name, options, message) => {
    expect(() => createWebhookReceiver({ secret, ...options })).toThrow(TypeError);
    expect(() => createWebhookReceiver({ secret, ...options })).toThrow(message);
  });

  it("refuses at creation an empty secret (ERR_WEBHOOK_SECRET_INVALID) and a missing one", () => {
    let error: unknown;
    try {
      createWebhookReceiver({ secret: "" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toMatchObject({ code: "ERR_WEBHOOK_SECRET_INVALID", status: 500 });
    expect(() => createWebhookReceiver({} as never)).toThrow(/secret is required/);
    expect(() => createWebhookReceiver(undefined as never)).toThrow(TypeError);
  });

  it("tells onError the delivery id only when it is well-formed, and the payload once verified", async () => {
    const { receiver, errors } = setup({}, () => {
      throw new Error("no");
    });
    await receiver.receive(await signed({ id: "evt_7" }));
    await receiver.receive(await signed({ id: "evt 7\u001b[31m" }));
    await receiver.receive(await signed({ id: "evt_8", secret: "whsec_wrong" }));
    expect(errors.map(([error, context]) => [error.code, context.deliveryId, context.payload?.type])).toEqual(
      [
        ["ERR_WEBHOOK_HANDLER_FAILED", "evt_7", "s.message.text"],
        ["ERR_WEBHOOK_ID_INVALID", undefined, "s.message.text"],
        ["ERR_WEBHOOK_SIGNATURE_MISMATCH", "evt_8", undefined],
      ],
    );
  });
});

// ——— the lease ———

describe("createWebhookReceiver: the lease", () => {
  it("a handler running past leaseMs keeps its claim: a copy meanwhile gets 409, not a second run", async () => {
    const { receiver, handled } = setup({ leaseMs: 300 }, () => sleep(1_000));
    const id = newId();
    const first = receiver.receive(await signed({ id }));
    await sleep(700);
    const copy = await receiver.receive(await signed({ id }));
    expect(copy.status).toBe(409);
    expect(copy.headers["retry-after"]).toBe("1");
    expect((await first).status).toBe(204);
    expect(handled).toHaveLength(1);
  });

  it("a lost claim aborts context.signal, and the handler's throw answers 500", async () => {
    const store = storeWith({ extend: async () => false });
    let signal: AbortSignal | undefined;
    const { receiver, errors } = setup({ store, leaseMs: 150 }, async (_payload, context) => {
      signal = context.signal;
      await new Promise((resolve) => {
        context.signal.addEventListener("abort", resolve);
        setTimeout(resolve, 3_000);
      });
      context.signal.throwIfAborted();
    });
    const started = Date.now();
    const receipt = await receiver.receive(await signed());
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(signal?.aborted).toBe(true);
    expect(receipt.status).toBe(500);
    expect(errors[0]?.[0].cause).toBe(signal?.reason);
  });
});

describe("createWebhookReceiver: a claim lost while the handler ran", () => {
  it("still answers 204 (the handler succeeded) and tells onError that the delivery was not recorded", async () => {
    // A handler that blocks the event loop past the lease: nothing could renew it, so the store lets it go.
    const { receiver, errors, handled } = setup({ leaseMs: 50 }, () => {
      const end = Date.now() + 120;
      while (Date.now() < end) {}
    });
    const id = newId();
    expect((await receiver.receive(await signed({ id }))).status).toBe(204);
    expect(errors.map(([error, context]) => [error.code, context.status, context.deliveryId])).toEqual([
      ["ERR_WEBHOOK_STORE_UNAVAILABLE", 204, id],
    ]);
    expect(errors[0]?.[0].message).toMatch(/lost before the handler returned/);
    expect(handled).toHaveLength(1);
  });
});

// ——— close ———

describe("createWebhookReceiver: close()", () => {
  it("waits for a running handler, which completes, and then answers 503", async () => {
    const gate = deferred();
    const started = deferred();
    const { receiver, errors } = setup({}, async () => {
      started.resolve();
      await gate.promise;
    });
    const running = receiver.receive(await signed());
    await started.promise;
    let closed = false;
    const closing = receiver.close().then(() => {
      closed = true;
    });
    await sleep(50);
    expect(closed).toBe(false);
    expect((await receiver.receive(await signed())).status).toBe(503);
    gate.resolve();
    expect((await running).status).toBe(204);
    await closing;
    expect(closed).toBe(true);
    expect(errors.map(([error]) => error.code)).toEqual(["ERR_WEBHOOK_STORE_UNAVAILABLE"]);
    expect(receiver.close()).toBe(receiver.close());
  });

  it("stops waiting after leaseMs: the handler's signal aborts and the memory store it created is closed", async () => {
    let signal: AbortSignal | undefined;
    const { receiver, errors } = setup({ leaseMs: 200 }, async (_payload, context) => {
      signal = context.signal;
      await new Promise((resolve) => context.signal.addEventListener("abort", resolve));
      await sleep(20);
    });
    const running = receiver.receive(await signed());
    await vi.waitFor(() => expect(signal).toBeDefined());
    const started = Date.now();
    await receiver.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(signal?.aborted).toBe(true);
    // Handled, so 204; its completion could not be stored, since the store is closed.
    expect((await running).status).toBe(204);
    expect(errors).toHaveLength(1);
    const [error, context] = errors[0]!;
    expect(error.code).toBe("ERR_WEBHOOK_STORE_UNAVAILABLE");
    expect(context.status).toBe(204);
    expect(error.cause).toMatchObject({ code: "ERR_IDEMPOTENCY_STORE_CLOSED" });
  });

  it("leaves open a store it was given", async () => {
    const close = vi.fn(async () => {});
    const { receiver } = setup({ store: storeWith({ close }) });
    expect((await receiver.receive(await signed())).status).toBe(204);
    await receiver.close();
    expect(close).not.toHaveBeenCalled();
  });
});

// ——— one window ———

describe("createWebhookReceiver: one time window", () => {
  it("a request without an id is remembered until the verifier's window ends, then refused as too old", async () => {
    const kept: [number, number][] = [];
    const memory = createMemoryIdempotencyStore();
    const store = storeWith(
      {
        complete(ref, response, retentionMs) {
          kept.push([Date.now(), retentionMs]);
          return memory.complete(ref, response, retentionMs);
        },
      },
      memory,
    );
    const { receiver, handled, errors } = setup({ store, toleranceMs: 2_000, retentionMs: 86_400_000 });
    const timestamp = Date.now() - 1_400;
    const windowEnds = timestamp + 2_000;
    const parts = await signed({ id: null, timestamp });
    expect((await receiver.receive(parts)).status).toBe(204);
    expect((await receiver.receive(parts)).status).toBe(401);
    const [at, retentionMs] = kept[0]!;
    expect(retentionMs).toBeGreaterThanOrEqual(windowEnds - at);
    expect(retentionMs).toBeLessThanOrEqual(windowEnds - at + 1_001);
    await sleep(Math.max(0, windowEnds - Date.now()) + 20);
    expect((await receiver.receive(parts)).status).toBe(401);
    expect(errors.map(([error]) => error.code)).toEqual([
      "ERR_WEBHOOK_REPLAYED",
      "ERR_WEBHOOK_TIMESTAMP_TOO_OLD",
    ]);
    expect(handled).toHaveLength(1);
    // A delivery id is remembered for retentionMs.
    expect((await receiver.receive(await signed())).status).toBe(204);
    expect(kept.slice(1).map(([, retention]) => retention)).toContain(86_400_000);
  });

  it("an exact replay is refused under another delivery id, or with one added", async () => {
    const { receiver, handled } = setup();
    const original = await signed({ id: "evt_1" });
    expect((await receiver.receive(original)).status).toBe(204);
    for (const id of ["evt_2", undefined]) {
      const replay = withHeaders(original, { [WEBHOOK_ID_HEADER]: id });
      expect((await receiver.receive(replay)).status).toBe(401);
    }
    const unnamed = await signed({ id: null });
    expect((await receiver.receive(unnamed)).status).toBe(204);
    expect((await receiver.receive(withHeaders(unnamed, { [WEBHOOK_ID_HEADER]: "evt_3" }))).status).toBe(401);
    expect(handled).toHaveLength(2);
  });
});

// ——— onError and what the answer says ———

describe("createWebhookReceiver: onError", () => {
  it("an onError that throws or rejects does not change the answer", async () => {
    const bad = await signed({ secret: "whsec_wrong" });
    for (const onError of [
      () => {
        throw new Error("logger down");
      },
      () => Promise.reject(new Error("logger down")),
    ]) {
      const receiver = createWebhookReceiver({ secret, onError: onError as () => void });
      receivers.push(receiver);
      const unhandled = await unhandledDuring(async () => {
        const receipt = await receiver.receive(bad);
        expect(receipt.status).toBe(401);
        expect(JSON.parse(receipt.body)).toMatchObject({ code: "ERR_WEBHOOK_SIGNATURE_MISMATCH" });
        expect((await receiver.receive(await signed())).status).toBe(204);
      });
      expect(unhandled).toEqual([]);
    }
  });

  it("a receipt of 204 is not shared: changing one does not change the next", async () => {
    const { receiver } = setup();
    const first = await receiver.receive(await signed());
    try {
      (first.headers as Record<string, string>)["x-changed"] = "yes";
    } catch {
      // Frozen: as good.
    }
    expect((await receiver.receive(await signed())).headers).toEqual({});
  });
});

// ——— hostile input ———

const boom = () => {
  throw new Error("trap");
};
const traps: ProxyHandler<object> = {
  get: boom,
  has: boom,
  ownKeys: boom,
  getPrototypeOf: boom,
  getOwnPropertyDescriptor: boom,
  defineProperty: boom,
  set: boom,
  apply: boom,
  construct: boom,
};

/** Values that fight back, built fresh for every use (fast-check must never print one). */
const hostileKinds = {
  trapObject: () => new Proxy({}, traps),
  trapArray: () => new Proxy([], traps),
  trapFunction: () => new Proxy(() => undefined, traps),
  revoked: () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  },
  throwingGetters: () =>
    Object.defineProperties(
      {},
      Object.fromEntries(
        ["body", "headers", "rawHeaders", "method", "url", "on", "readableDidRead", "get"].map((name) => [
          name,
          { get: boom, enumerable: true },
        ]),
      ),
    ),
  /** Looks like a plain object (express.json's output), but its keys cannot be listed. */
  unlistable: () => new Proxy({}, { ownKeys: boom }),
};
type HostileKind = keyof typeof hostileKinds;
const kinds = Object.keys(hostileKinds) as HostileKind[];

/** Checks an answer: a 4xx or 5xx with a short JSON body. */
function expectRefusal(status: number, body: string): void {
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(600);
  expect(body.length).toBeLessThanOrEqual(512);
  expect(typeof JSON.parse(body)).toBe("object");
}

/** A response that records what node() wrote; `done` resolves at `end`. */
function recordingResponse() {
  const ended = deferred<{ status: number; body: string }>();
  let status = 0;
  const res = {
    writeHead(code: number) {
      status = code;
    },
    end(bytes?: Uint8Array) {
      ended.resolve({ status, body: Buffer.from(bytes ?? new Uint8Array()).toString("utf8") });
    },
  };
  return { res, answered: ended.promise };
}

/** What node() wrote within 1 s; `"threw"` or `"no answer"` otherwise. */
async function nodeAnswer(receiver: WebhookReceiver, req: unknown) {
  const { res, answered } = recordingResponse();
  try {
    receiver.node(req as never, res);
  } catch {
    return "threw";
  }
  return Promise.race([answered, sleep(1_000).then(() => "no answer")]);
}

function expectNodeRefusal(answer: Awaited<ReturnType<typeof nodeAnswer>>): void {
  expect(answer).toEqual({ status: expect.any(Number), body: expect.any(String) });
  const { status, body } = answer as { status: number; body: string };
  expectRefusal(status, body);
}

/** Collects unhandled rejections while `run` runs (and shortly after). */
async function unhandledDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const onRejection = (reason: unknown) => seen.push(reason);
  process.on("unhandledRejection", onRejection);
  try {
    await run();
    await sleep(50);
  } finally {
    process.off("unhandledRejection", onRejection);
  }
  return seen;
}

/** A faithful in-memory IncomingMessage: a readable stream of the body, with rawHeaders. */
function streamedRequest(parts: Parts, extra: Record<string, unknown> = {}) {
  return Object.assign(Readable.from([Buffer.from(parts.body)]), {
    method: "POST",
    url: "/hooks",
    rawHeaders: Object.entries(parts.headers).flat(),
    ...extra,
  });
}

describe("createWebhookReceiver: any argument gets an answer, never a throw", () => {
  it.each(kinds)("receive with %s as the input, the body or the headers", async (kind) => {
    const { receiver, handled } = setup();
    const parts = await signed();
    const make = hostileKinds[kind];
    for (const input of [
      make(),
      { body: make(), headers: parts.headers },
      { body: parts.body, headers: make() },
      { body: make(), headers: make() },
    ]) {
      const receipt = await receiver.receive(input as never);
      expectRefusal(receipt.status, receipt.body);
      expect(receipt.error).toBeInstanceOf(WebhookVerificationError);
    }
    expect(handled).toEqual([]);
  });

  it.each(kinds)("fetch with %s as the request", async (kind) => {
    const { receiver } = setup();
    const response = await receiver.fetch(hostileKinds[kind]() as never);
    expectRefusal(response.status, await response.text());
  });

  it.each(["headers", "body", "bodyUsed"])("fetch with a Request whose %s getter throws", async (name) => {
    const { receiver, handled } = setup();
    const parts = await signed();
    const request = new Request("http://127.0.0.1/hooks", { method: "POST", ...parts });
    Object.defineProperty(request, name, { get: boom });
    const response = await receiver.fetch(request);
    expectRefusal(response.status, await response.text());
    expect(handled).toEqual([]);
  });

  it.each(kinds)("node with %s as the request", async (kind) => {
    const { receiver } = setup();
    const unhandled = await unhandledDuring(async () => {
      expectNodeRefusal(await nodeAnswer(receiver, hostileKinds[kind]()));
    });
    expect(unhandled).toEqual([]);
  });

  it.each(kinds)("node with %s as req.body, the raw headers, or a stream method", async (kind) => {
    const { receiver } = setup();
    const parts = await signed();
    const make = hostileKinds[kind];
    const unhandled = await unhandledDuring(async () => {
      for (const req of [
        streamedRequest(parts, { body: make() }),
        { ...streamedRequest(parts), body: Buffer.from(parts.body), rawHeaders: make() },
        streamedRequest(parts, { resume: boom }),
      ]) {
        expectNodeRefusal(await nodeAnswer(receiver, req));
      }
    });
    expect(unhandled).toEqual([]);
  });

  it("node: an answer that cannot be written (a middleware already answered) is dropped, not thrown", async () => {
    const { receiver, handled } = setup();
    const unhandled = await unhandledDuring(async () => {
      const parts = await signed();
      listener = (req, res) => {
        res.writeHead(503).end("timed out");
        receiver.node(req, res);
      };
      const answer = await new Promise<number>((resolve, reject) => {
        const request = httpRequest(
          { host: "127.0.0.1", port, method: "POST", path: "/hooks", headers: parts.headers, agent: false },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on("error", reject);
        request.end(parts.body);
      });
      expect(answer).toBe(503);
      await vi.waitFor(() => expect(handled).toHaveLength(1));
    });
    expect(unhandled).toEqual([]);
  });

  it("node: a method Fetch cannot carry (TRACE) is answered in the receiver's own format and told to onError", async () => {
    const { receiver, errors } = setup();
    listener = (req, res) => receiver.node(req, res);
    const answer = await new Promise<{ status: number; type: string | undefined; body: string }>(
      (resolve, reject) => {
        const request = httpRequest(
          { host: "127.0.0.1", port, method: "TRACE", path: "/hooks", agent: false },
          (response) => {
            let body = "";
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => {
              body += chunk;
            });
            response.on("end", () =>
              resolve({ status: response.statusCode ?? 0, type: response.headers["content-type"], body }),
            );
          },
        );
        request.on("error", reject);
        request.end();
      },
    );
    expectRefusal(answer.status, answer.body);
    expect(answer.type).toBe("application/json");
    expect(JSON.parse(answer.body)).toEqual({
      code: expect.stringMatching(/^ERR_WEBHOOK_/),
      message: expect.any(String),
    });
    expect(errors).toHaveLength(1);
  });

  it("fast-check: any value as the input of receive, fetch and node gets a short JSON refusal", async () => {
    const { receiver, handled } = setup();
    const value = fc.oneof(
      fc.anything({ withBigInt: true, withDate: true, withMap: true, withTypedArray: true, maxDepth: 2 }),
      fc.constantFrom(...kinds),
    );
    const build = (recipe: unknown) =>
      typeof recipe === "string" && (kinds as string[]).includes(recipe)
        ? hostileKinds[recipe as HostileKind]()
        : recipe;
    await fc.assert(
      fc.asyncProperty(value, value, async (recipeA, recipeB) => {
        const [a, b] = [build(recipeA), build(recipeB)];
        for (const receipt of [
          await receiver.receive(a as never),
          await receiver.receive({ body: a, headers: b } as never),
        ]) {
          expectRefusal(receipt.status, receipt.body);
        }
        const response = await receiver.fetch(a as never);
        expectRefusal(response.status, await response.text());
        expectNodeRefusal(await nodeAnswer(receiver, a));
      }),
      { numRuns: 150 },
    );
    expect(handled).toEqual([]);
  });
});
